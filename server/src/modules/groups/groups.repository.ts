import { LockMode, raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { nameKeys } from '@first-round/shared/name-keys';
import {
  GroupJoinFailureSchema,
  GroupMembershipSchema,
  GroupSchema,
  type Group,
  type GroupJoinFailure,
  type GroupMembership,
  type JoinFailureReason,
} from './groups.entities.js';

/*
 * The groups module's data access: groups, memberships and failed joins. Other modules ask here, or
 * through the groups service.
 *
 * Writes are native (nativeUpdate, insert, the query builder), which the identity map does not see, so
 * reads pass `refresh: true`: a membership loaded by a procedure's middleware is read again after the
 * procedure changed it, never served stale.
 */

// ------------------------------------------------------------------------------------------- groups

/** A group with its member count, or null. The global group is a row too: callers decide what it means. */
export function findGroup(em: EntityManager, groupId: number, options: { withPassword?: boolean } = {}): Promise<Group | null> {
  return em.findOne(GroupSchema, groupId, { populate: options.withPassword ? ['passwordHash'] : [], refresh: true });
}

/** A group as the API shows it (groups.service.ts, `toGroupDto`). */
export type GroupFields = Pick<Group, 'id' | 'name' | 'isPublic' | 'picksPublic' | 'hasPassword' | 'membersCanInvite' | 'memberCount' | 'createdAt'>;

/**
 * The group as the API shows it, or undefined: one statement through `em.execute`, without building an
 * entity. The reads a stranger may make of any id use it, so a private group's answer costs what none
 * costs (an entity built for the one and not the other took a measurable fraction of a millisecond).
 */
export async function findGroupFields(em: EntityManager, groupId: number): Promise<GroupFields | undefined> {
  const [row] = await em.execute<
    { id: number; name: string; is_public: boolean; picks_public: boolean; has_password: boolean; members_can_invite: boolean; member_count: number; created_at: Date }[]
  >(
    `select id, name, is_public, picks_public, password_hash is not null as has_password, members_can_invite,
            (select count(*)::int from group_membership c where c.group_id = g.id) as member_count, created_at
       from groups g where id = ?`,
    [groupId],
  );
  return (
    row && {
      id: row.id,
      name: row.name,
      isPublic: row.is_public,
      picksPublic: row.picks_public,
      hasPassword: row.has_password,
      membersCanInvite: row.members_can_invite,
      memberCount: row.member_count,
      createdAt: new Date(row.created_at),
    }
  );
}

/** The group's name, or undefined when there is no such group. */
export async function findGroupName(em: EntityManager, groupId: number): Promise<string | undefined> {
  return (await em.findOne(GroupSchema, groupId, { fields: ['name'], refresh: true }))?.name;
}

/** Whether the group's members may see each other's picks after the start; undefined when there is no such group. */
export async function findPicksPublic(em: EntityManager, groupId: number): Promise<boolean | undefined> {
  return (await em.findOne(GroupSchema, groupId, { fields: ['picksPublic'], refresh: true }))?.picksPublic;
}

/** Whether the group is public (listed for every signed-in player); undefined when there is no such group. */
export async function findIsPublic(em: EntityManager, groupId: number): Promise<boolean | undefined> {
  return (await em.findOne(GroupSchema, groupId, { fields: ['isPublic'], refresh: true }))?.isPublic;
}

/** Groups the participant belongs to, in the order joined. */
export async function findGroupsOf(em: EntityManager, participantId: string): Promise<Group[]> {
  const memberships = await em.find(
    GroupMembershipSchema,
    { participantId },
    { populate: ['group'], orderBy: [{ joinedAt: 'asc' }, { group: 'asc' }], refresh: true },
  );
  return memberships.map((m) => m.group);
}

/** Public groups (never the global one) the participant is not a member of, by name. */
export function findPublicGroupsNotJoined(em: EntityManager, participantId: string): Promise<Group[]> {
  return em.find(
    GroupSchema,
    { isPublic: true, id: { $ne: GLOBAL_GROUP_ID }, memberships: { $none: { participantId } } },
    { orderBy: { name: 'asc' }, refresh: true },
  );
}

/**
 * Whether a group holds this name: either of its keys is either key of the group's (name-keys.ts: 'Glоbal'
 * with a Cyrillic о is 'Global'), or, for a name stored without keys, the same name case-insensitively
 * (lower() on both sides, as groups_name_unique). The unique indexes hold each key against the same key; a
 * fold key against a glyph key is this check's to catch.
 */
export async function isGroupNameTaken(em: EntityManager, name: string): Promise<boolean> {
  const { fold, glyph } = nameKeys(name);
  const where = raw(`(name_key in (?, ?) or name_glyph_key in (?, ?) or lower(name) = lower(?))`, [fold, glyph, fold, glyph, name]);
  const row: { count: number | string } = await em.createQueryBuilder(GroupSchema).count().where(where).execute('get');
  return Number(row.count) > 0;
}

/** The unique indexes a taken group name raises: lower(name)'s and the two keys'. */
export const GROUP_NAME_INDEXES = ['groups_name_unique', 'groups_name_key_unique', 'groups_name_glyph_key_unique'] as const;

/**
 * Inserts a group under `id`, with its name's keys, unless that id is taken: false then (`on conflict (id)
 * do nothing` keeps the transaction usable for another try). A taken name still raises one of
 * GROUP_NAME_INDEXES.
 */
export async function insertGroupIfIdFree(
  tx: EntityManager,
  g: { id: number; name: string; isPublic: boolean; picksPublic: boolean; passwordHash: string | null; createdBy: string },
): Promise<boolean> {
  const { fold, glyph } = nameKeys(g.name);
  const result: { affectedRows: number } = await tx
    .createQueryBuilder(GroupSchema)
    .insert({ ...g, nameKey: fold, nameGlyphKey: glyph })
    .onConflict('id')
    .ignore()
    .execute('run');
  return result.affectedRows > 0;
}

/** Locks the group's row until the transaction ends; false when there is no such group. */
export async function lockGroup(tx: EntityManager, groupId: number, mode: 'update' | 'share'): Promise<boolean> {
  const lockMode = mode === 'update' ? LockMode.PESSIMISTIC_WRITE : LockMode.PESSIMISTIC_READ;
  return Boolean(await tx.findOne(GroupSchema, groupId, { fields: ['id'], lockMode }));
}

/** Deletes the group; the database cascades to its memberships, picks and join links. */
export async function deleteGroup(tx: EntityManager, groupId: number): Promise<void> {
  await tx.nativeDelete(GroupSchema, { id: groupId });
}

/** Sets (a hash) or removes (null) the group's password; false when there is no such group. */
export async function setPasswordHash(em: EntityManager, groupId: number, passwordHash: string | null): Promise<boolean> {
  return (await em.nativeUpdate(GroupSchema, { id: groupId }, { passwordHash })) > 0;
}

/** Lets members invite or not; false when there is no such group. */
export async function setMembersCanInvite(em: EntityManager, groupId: number, membersCanInvite: boolean): Promise<boolean> {
  return (await em.nativeUpdate(GroupSchema, { id: groupId }, { membersCanInvite })) > 0;
}

/** How many groups players have made (the global group is not one of them). */
export function countGroups(em: EntityManager): Promise<number> {
  return em.count(GroupSchema, { id: { $ne: GLOBAL_GROUP_ID } });
}

/** Groups created by `fromId` are credited to `toId` (an account move). */
export async function reassignGroupCreator(tx: EntityManager, fromId: string, toId: string): Promise<void> {
  await tx.nativeUpdate(GroupSchema, { createdBy: fromId }, { createdBy: toId });
}

// -------------------------------------------------------------------------------------- memberships

/**
 * Whether the participant is a member, and how: the check every group's leaderboard read makes, a hot
 * read on draft night. One primary-key lookup through `em.execute` rather than `em.findOne`, which costs
 * about ten times the query's own CPU here (measured on the 2-core box: ~600 µs against ~60 µs per call).
 * Two booleans come back; nothing needs converting.
 */
export async function findMembershipFlags(
  em: EntityManager,
  groupId: number,
  participantId: string,
): Promise<Pick<GroupMembership, 'isOwner' | 'useGlobalPicks'> | undefined> {
  const [row] = await em.execute<{ is_owner: boolean; use_global_picks: boolean }[]>(
    `select is_owner, use_global_picks from group_membership where group_id = ? and participant_id = ?`,
    [groupId, participantId],
  );
  return row && { isOwner: row.is_owner, useGlobalPicks: row.use_global_picks };
}

/**
 * Which of `participantIds` are members of the group, each with whether they own it, and whether the
 * group lets members invite (undefined: no such group): what deciding who may invite needs.
 */
export async function findInviteFlags(
  em: EntityManager,
  groupId: number,
  participantIds: string[],
): Promise<{ membersCanInvite: boolean | undefined; owners: Set<string>; members: Set<string> }> {
  const group = await em.findOne(GroupSchema, groupId, { fields: ['membersCanInvite'], refresh: true });
  const rows = participantIds.length
    ? await em.find(GroupMembershipSchema, { group: groupId, participantId: { $in: participantIds } }, { fields: ['participantId', 'isOwner'], refresh: true })
    : [];
  return {
    membersCanInvite: group?.membersCanInvite,
    owners: new Set(rows.filter((r) => r.isOwner).map((r) => r.participantId)),
    members: new Set(rows.map((r) => r.participantId)),
  };
}

export function findMembershipRow(em: EntityManager, groupId: number, participantId: string): Promise<GroupMembership | null> {
  return em.findOne(GroupMembershipSchema, { group: groupId, participantId }, { refresh: true });
}

/** A group's memberships: owners first, then in the order joined. */
export function findMemberships(em: EntityManager, groupId: number): Promise<GroupMembership[]> {
  return em.find(GroupMembershipSchema, { group: groupId }, { orderBy: [{ isOwner: 'desc' }, { joinedAt: 'asc' }, { participantId: 'asc' }], refresh: true });
}

/** The first `limit` members' ids, in the members list's order (owners first, then by joining). */
export async function firstMemberIds(em: EntityManager, groupId: number, limit: number): Promise<string[]> {
  const rows = await em.find(
    GroupMembershipSchema,
    { group: groupId },
    { fields: ['participantId'], orderBy: [{ isOwner: 'desc' }, { joinedAt: 'asc' }, { participantId: 'asc' }], limit, refresh: true },
  );
  return rows.map((m) => m.participantId);
}

export function countMembersOtherThan(em: EntityManager, groupId: number, participantId: string): Promise<number> {
  return em.count(GroupMembershipSchema, { group: groupId, participantId: { $ne: participantId } });
}

/** Inserts the membership (owner or not; linked to My Picks, as every membership starts) with the creator of a new group. */
export async function insertMembership(tx: EntityManager, m: { groupId: number; participantId: string; isOwner: boolean }): Promise<void> {
  await tx.insert<GroupMembership>(GroupMembershipSchema, { group: m.groupId, participantId: m.participantId, isOwner: m.isOwner, useGlobalPicks: true });
}

/**
 * Adds a plain membership (linked to My Picks) unless the participant has one; true when added. `on conflict do nothing` on
 * the primary key: repeating a join (even at the same instant) never makes a second row or an error.
 */
export async function addMembershipIfAbsent(em: EntityManager, groupId: number, participantId: string): Promise<boolean> {
  const result: { affectedRows: number } = await em
    .createQueryBuilder(GroupMembershipSchema)
    .insert({ group: groupId, participantId, isOwner: false, useGlobalPicks: true })
    .onConflict(['group', 'participantId'])
    .ignore()
    .execute('run');
  return result.affectedRows > 0;
}

export async function deleteMembership(tx: EntityManager, groupId: number, participantId: string): Promise<void> {
  await tx.nativeDelete(GroupMembershipSchema, { group: groupId, participantId });
}

export async function setUseGlobalPicks(em: EntityManager, groupId: number, participantId: string, useGlobalPicks: boolean): Promise<void> {
  await em.nativeUpdate(GroupMembershipSchema, { group: groupId, participantId }, { useGlobalPicks });
}

/**
 * Moves every membership of `fromId` onto `toId` and returns how many: one INSERT … SELECT that merges
 * with memberships `toId` already has (owner if either was). `fromId`'s rows go when it is deleted.
 */
export async function copyMemberships(tx: EntityManager, fromId: string, toId: string): Promise<number> {
  const [row] = await tx.execute<{ n: number }[]>(
    `with moved as (
       insert into group_membership (group_id, participant_id, is_owner, use_global_picks, joined_at)
       select group_id, ?, is_owner, use_global_picks, joined_at from group_membership where participant_id = ?
       on conflict (group_id, participant_id) do update set is_owner = group_membership.is_owner or excluded.is_owner
       returning 1)
     select count(*)::int as n from moved`,
    [toId, fromId],
  );
  return row?.n ?? 0;
}

// ------------------------------------------------------------------------------------ failed joins

/**
 * Serialises one participant's join attempts until the transaction ends: a transaction-scoped advisory
 * lock (there is no row that stands for "this participant's attempts" to lock instead).
 */
export async function lockJoinAttempts(tx: EntityManager, participantId: string): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`group-join:${participantId}`]);
}

/**
 * Serialises password guesses on one group, whoever makes them, until the transaction ends (taken after
 * the player's own lock, never before, so two attempts cannot wait on each other): each guess sees the
 * wrong passwords the ones before it recorded, across accounts.
 */
export async function lockGroupPasswordTries(tx: EntityManager, groupId: number): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`group-password:${groupId}`]);
}

/** When the group's wrong passwords since `since` were made, by anyone, oldest first. */
export async function findGroupWrongPasswordsSince(em: EntityManager, groupId: number, since: Date): Promise<Date[]> {
  const rows = await em.find(
    GroupJoinFailureSchema,
    { groupId, reason: 'wrong_password', createdAt: { $gt: since } },
    { fields: ['createdAt'], orderBy: { createdAt: 'asc' }, refresh: true },
  );
  return rows.map((r) => r.createdAt);
}

/** The participant's failed joins since `since`, oldest first. */
export function findJoinFailuresSince(em: EntityManager, participantId: string, since: Date): Promise<GroupJoinFailure[]> {
  return em.find(GroupJoinFailureSchema, { participantId, createdAt: { $gt: since } }, { orderBy: { createdAt: 'asc' }, refresh: true });
}

/**
 * Records a failed join and prunes the participant's failures, and the group id's, from before
 * `pruneBefore` (they no longer count; the group's go too, or accounts used once would leave theirs forever).
 */
export async function recordJoinFailure(
  tx: EntityManager,
  failure: { participantId: string; groupId: number; reason: JoinFailureReason; at: Date },
  pruneBefore: Date,
): Promise<void> {
  await tx.nativeDelete(GroupJoinFailureSchema, { participantId: failure.participantId, createdAt: { $lte: pruneBefore } });
  await tx.nativeDelete(GroupJoinFailureSchema, { groupId: failure.groupId, createdAt: { $lte: pruneBefore } });
  await tx.insert<GroupJoinFailure>(GroupJoinFailureSchema, {
    participantId: failure.participantId,
    groupId: failure.groupId,
    reason: failure.reason,
    createdAt: failure.at,
  });
}
