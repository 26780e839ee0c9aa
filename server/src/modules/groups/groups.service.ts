import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import type { z } from 'zod';
import { joinDraftState, lateJoinNotice } from '@first-round/shared/join-words';
import type { DraftStatus, GroupDto, joinResultOutput } from '@first-round/shared/schemas';
import { badRequest, conflict, draftLocked, isForeignKeyViolation, isUniqueViolation, notFound } from '../../errors.js';
import { getDraftStatus, isDraftStarted, type DraftSettings } from '../draft/draft.service.js';
import { publish } from '../../events/topic-bus.js';
import { screenNamesOf } from '../users/participants.repository.js';
import { copyPickSet, deletePickSet, whoHasPicks } from '../picks/pick-sets.js';
import { lockParticipant } from '../users/participants.service.js';
import { entryModeOf, entrySetGroup, type EntryMode } from '@first-round/shared/entries';
import type { Group } from './groups.entities.js';
import * as repo from './groups.repository.js';
import { findMembership, refusalForNonMember } from './membership.js';
import { hashPassword, verifyPassword } from './password.js';
import { checkJoinLimits, lockGroupPasswordTries, lockJoinAttempts, recordJoinFailure, wrongPassword } from './join-limits.js';

/** Who is asking, and the EntityManager of their call. */
export interface Caller {
  em: EntityManager;
  participantId: string;
}

/** The groups module's one mapper: a group as the API shows it. */
export const toGroupDto = (g: repo.GroupFields): GroupDto => ({
  id: g.id,
  group_id: g.id,
  name: g.name,
  is_public: g.isPublic,
  picks_public: g.picksPublic,
  has_password: g.hasPassword,
  members_can_invite: g.membersCanInvite,
  member_count: g.memberCount,
  created_at: g.createdAt.toISOString(),
});

export async function listUserGroups({ em, participantId }: Caller): Promise<GroupDto[]> {
  return (await repo.findGroupsOf(em, participantId)).map(toGroupDto);
}

/** Public groups the caller has not joined yet (those are listed under My Groups). */
export async function listPublicGroups({ em, participantId }: Caller): Promise<GroupDto[]> {
  return (await repo.findPublicGroupsNotJoined(em, participantId)).map(toGroupDto);
}

async function loadGroup(em: EntityManager, groupId: number, options: { withPassword?: boolean } = {}): Promise<Group | undefined> {
  if (groupId === GLOBAL_GROUP_ID) return undefined; // the global group is not a group one can open or join
  return (await repo.findGroup(em, groupId, options)) ?? undefined;
}

/** The group as the API shows it, read without building an entity (repo.findGroupFields); the global group is none. */
async function loadGroupFields(em: EntityManager, groupId: number): Promise<repo.GroupFields | undefined> {
  if (groupId === GLOBAL_GROUP_ID) return undefined;
  return repo.findGroupFields(em, groupId);
}

const isMember = async (em: EntityManager, groupId: number, participantId: string) => Boolean(await findMembership(em, groupId, participantId));

/**
 * Members may open their group; public groups are open to every signed-in user. To anyone else a private
 * group is 'Group not found', as an id that names none (membership.ts, `refusalForNonMember`). The same
 * two reads whatever the id names (the group, the caller's membership), so the time of the answer does not
 * tell a private group from none either.
 */
export async function getVisibleGroup({ em, participantId }: Caller, groupId: number): Promise<GroupDto> {
  const group = await loadGroupFields(em, groupId);
  const member = await isMember(em, groupId, participantId);
  if (!group || (!group.isPublic && !member)) throw notFound(MESSAGES.groupNotFound);
  return toGroupDto(group);
}

export interface CreateGroupInput {
  name: string;
  is_public: boolean;
  picks_public: boolean;
  password?: string;
}

/**
 * Creates a group owned by the caller; its procedure locks it at the start (draftOpenProcedure). A name
 * another group holds in any spelling or look-alike letters (name-keys.ts: 'Glоbal' is the global group's)
 * is refused (409); the unique indexes decide between two groups created at once.
 */
export async function createGroup({ em, participantId }: Caller, input: CreateGroupInput): Promise<GroupDto> {
  if (await repo.isGroupNameTaken(em, input.name)) throw conflict(MESSAGES.groupExists);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    return await em.transactional(async (tx) => {
      const id = await insertGroupWithRandomId(tx, { name: input.name, isPublic: input.is_public, picksPublic: input.picks_public, passwordHash, createdBy: participantId });
      // The creator owns the group; like every membership it starts linked to My Picks.
      await repo.insertMembership(tx, { groupId: id, participantId, isOwner: true });
      return getVisibleGroup({ em: tx, participantId }, id);
    });
  } catch (error) {
    if (repo.GROUP_NAME_INDEXES.some((index) => isUniqueViolation(error, index))) throw conflict(MESSAGES.groupExists);
    throw error;
  }
}

/**
 * Group ids are random 8-digit numbers (easy to type on the join screen), never a count: an outsider
 * cannot walk through ids to find groups without a password. The global group keeps id 1.
 */
export const GROUP_ID_MIN = 10_000_000;
export const GROUP_ID_MAX = 99_999_999;

async function insertGroupWithRandomId(
  tx: EntityManager,
  g: { name: string; isPublic: boolean; picksPublic: boolean; passwordHash: string | null; createdBy: string },
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const id = crypto.randomInt(GROUP_ID_MIN, GROUP_ID_MAX + 1);
    if (await repo.insertGroupIfIdFree(tx, { id, ...g })) return id;
    if (attempt >= 20) throw new Error('Could not find a free group id');
  }
}

/** Adds a membership unless it exists; never a second row, so repeating a join is a success. */
export async function addMember(em: EntityManager, groupId: number, participantId: string): Promise<boolean> {
  try {
    return await repo.addMembershipIfAbsent(em, groupId, participantId);
  } catch (error) {
    // The group's last member left (deleting it) between the lookup and this insert.
    if (isForeignKeyViolation(error)) throw notFound(MESSAGES.groupNotFound);
    throw error;
  }
}

type JoinResult = z.infer<typeof joinResultOutput>;

/**
 * Every join's answer (by id, by link, public groups): whether it added the member, and where the draft
 * is. A member added after the start gets no entry, and the message says what they will and will not see.
 */
export function joinAnswer(groupId: number, added: boolean, status: Pick<DraftStatus, 'draftHasStarted' | 'round_one_complete'>): JoinResult {
  const state = joinDraftState(status);
  const notice = added ? lateJoinNotice(state) : null;
  const message = !added ? MESSAGES.alreadyMember : notice ? `${MESSAGES.joined}. ${notice}` : MESSAGES.joined;
  return { success: true, group_id: groupId, already_member: !added, message, ...state };
}

/**
 * Joining by id, with guessing limited (join-limits.ts). The whole attempt runs in one transaction holding
 * the player's join lock (and, where a password is to be checked, the group's), so simultaneous attempts
 * are decided one after another: a member passes at once (nothing is guessed), a limited player gets 429
 * before any hash, and a wrong password or unknown id is recorded before the next attempt counts.
 * (Counting a try before checking it, with the hash outside the lock, would refuse simultaneous RIGHT
 * answers once ten were in flight.) Once a group's bound across players is reached, a player who has
 * guessed wrong on it waits (the right password too), while one who has not still gets their try: the
 * bound slows many accounts to a guess each and locks no member out (join-limits.ts); invite links need
 * no password.
 */
export async function joinGroup(
  { em, participantId, now, draft }: Caller & { now: Date; draft: DraftSettings },
  input: { group_id: number; password?: string },
) {
  const outcome = await em.transactional(async (tx): Promise<{ ok: JoinResult } | { refused: Error }> => {
    await lockJoinAttempts(tx, participantId);
    const group = await loadGroup(tx, input.group_id, { withPassword: true });
    const status = await getDraftStatus(tx, draft);
    if (group && (await isMember(tx, input.group_id, participantId))) return { ok: joinAnswer(input.group_id, false, status) };
    // A public group is a stranger's one-click join: once the draft is on it would add a watcher, never an
    // entry (docs/decisions.md). Not a failed guess, so not counted against the join limits.
    if (group?.isPublic && status.draftHasStarted) return { refused: draftLocked(MESSAGES.publicGroupsLocked) };
    if (group?.passwordHash) await lockGroupPasswordTries(tx, input.group_id);
    await checkJoinLimits(tx, participantId, input.group_id, now);
    if (!group) {
      await recordJoinFailure(tx, participantId, input.group_id, 'unknown_group', now);
      return { refused: notFound(MESSAGES.groupNotFound) };
    }
    if (group.passwordHash && !(input.password && (await verifyPassword(input.password, group.passwordHash)))) {
      return { refused: await wrongPassword(tx, participantId, input.group_id, now) };
    }
    const added = await addMember(tx, input.group_id, participantId);
    await publish(tx, 'group', { kind: 'group', group_id: input.group_id });
    return { ok: joinAnswer(input.group_id, added, status) };
  });
  // A refusal is thrown only after the commit, so the failure it recorded counts.
  if ('refused' in outcome) throw outcome.refused;
  return outcome.ok;
}

/**
 * Leaving: an owner cannot walk away from members; the last member leaving deletes the group (and with
 * it its picks and links). The group row is locked so two members leaving at once cannot both be "last".
 * A private group one is not in is refused as none, after the same reads.
 */
export async function leaveGroup({ em, participantId }: Caller, groupId: number) {
  if (groupId === GLOBAL_GROUP_ID) throw badRequest('The global group cannot be left');
  return em.transactional(async (tx) => {
    const exists = await repo.lockGroup(tx, groupId, 'update');
    const me = await repo.findMembershipRow(tx, groupId, participantId);
    if (!exists || !me) throw await refusalForNonMember(tx, groupId);
    const others = await repo.countMembersOtherThan(tx, groupId, participantId);
    if (me.isOwner && others > 0) throw conflict('The owner cannot leave a group that still has other members');
    await publish(tx, 'group', { kind: 'group', group_id: groupId });
    if (others === 0) {
      await repo.deleteGroup(tx, groupId);
      return { success: true, group_deleted: true };
    }
    await deletePickSet(tx, participantId, groupId);
    await repo.deleteMembership(tx, groupId, participantId);
    return { success: true, group_deleted: false };
  });
}

/**
 * The owner sets a new password (stored hashed) or removes it (null). Only joins by id ask for it: invite
 * links stand in for it, and members stay members.
 */
export async function setGroupPassword({ em }: Pick<Caller, 'em'>, groupId: number, password: string | null): Promise<GroupDto> {
  const passwordHash = password === null ? null : await hashPassword(password);
  if (!(await repo.setPasswordHash(em, groupId, passwordHash))) throw notFound(MESSAGES.groupNotFound);
  const group = await loadGroup(em, groupId);
  if (!group) throw notFound(MESSAGES.groupNotFound);
  return toGroupDto(group);
}

/**
 * The owner lets members invite, or not (its procedure is the owner's only; before and after the start).
 * Turned off, links members made stop working too (membership.ts, `invitersAmong`).
 */
export async function setMembersCanInvite({ em }: Pick<Caller, 'em'>, groupId: number, membersCanInvite: boolean): Promise<GroupDto> {
  if (!(await repo.setMembersCanInvite(em, groupId, membersCanInvite))) throw notFound(MESSAGES.groupNotFound);
  const group = await loadGroup(em, groupId);
  if (!group) throw notFound(MESSAGES.groupNotFound);
  return toGroupDto(group);
}

/**
 * What an invitation card shows of a group: its name, its size and the screen names of its first
 * `limit` members (owner first); members without a screen name are counted but not named. Undefined when
 * there is no such group.
 */
export async function invitationSummary(em: EntityManager, groupId: number, limit: number) {
  const group = await loadGroup(em, groupId);
  if (!group) return undefined;
  const ids = await repo.firstMemberIds(em, groupId, limit);
  const names = await screenNamesOf(em, ids);
  const memberNames = ids.map((id) => names.get(id)).filter((n): n is string => Boolean(n));
  return { name: group.name, memberCount: group.memberCount, memberNames };
}

export async function memberCount(caller: Caller, groupId: number) {
  const group = await getVisibleGroup(caller, groupId);
  return { group_id: groupId, member_count: group.member_count };
}

/**
 * The caller's membership of a group they may know of: theirs, or a public one (a private one they are not
 * in: 404, as none, after the same two reads as none).
 */
export async function getMembership({ em, participantId }: Caller, groupId: number) {
  const group = await loadGroupFields(em, groupId);
  const row = await findMembership(em, groupId, participantId);
  if (!group || (!row && !group.isPublic)) throw notFound(MESSAGES.groupNotFound);
  return {
    group_id: groupId,
    participant_id: participantId,
    is_member: Boolean(row),
    is_owner: row?.is_owner ?? false,
    use_global_picks: row?.use_global_picks ?? false,
    entry_mode: row ? entryModeOf(row.use_global_picks) : null,
    // The rule of invitersAmong (membership.ts), from the rows already read.
    can_invite: Boolean(row && (row.is_owner || group.membersCanInvite)),
  };
}

/**
 * Members with whether their entry has picks (a yes/no, never the picks themselves) and how it is made
 * (linked to their My Picks, or their own): each member's set by the one entry rule (shared/src/entries.ts).
 * Names come from the users module, picks from the picks module.
 */
export async function listMembers(em: EntityManager, groupId: number) {
  const memberships = await repo.findMemberships(em, groupId);
  const ids = memberships.map((m) => m.participantId);
  const names = await screenNamesOf(em, ids);
  const setOf = (m: { useGlobalPicks: boolean }) => entrySetGroup(groupId, m.useGlobalPicks);
  const withGroupPicks = await whoHasPicks(em, groupId, memberships.filter((m) => setOf(m) === groupId).map((m) => m.participantId));
  const withGlobalPicks = await whoHasPicks(em, GLOBAL_GROUP_ID, memberships.filter((m) => setOf(m) === GLOBAL_GROUP_ID).map((m) => m.participantId));
  return memberships.map((m) => {
    const screenName = names.get(m.participantId) ?? null;
    return {
      participant_id: m.participantId,
      participant_name: screenName ?? m.participantId,
      screen_name: screenName,
      is_owner: m.isOwner,
      has_picks: (setOf(m) === GLOBAL_GROUP_ID ? withGlobalPicks : withGroupPicks).has(m.participantId),
      entry_mode: entryModeOf(m.useGlobalPicks),
      joined: m.joinedAt.toISOString(),
    };
  });
}

/**
 * Links the caller's entry in a group to My Picks, or forks it (docs/decisions.md, "One entry that follows
 * you"). Linking drops the group's own picks: from then on the entry is My Picks, and every edit of My
 * Picks reaches it. Forking copies My Picks as they are now into the group: the entry stays the same
 * players, and from then on only edits made for this group change it. Setting the mode it already has
 * changes nothing. One transaction holding the participant's lock (as saving picks does), with the draft
 * lock checked again inside it; its procedure checks membership and the lock first.
 */
export async function setEntryMode(
  { em, participantId, draft }: Caller & { draft: DraftSettings },
  groupId: number,
  mode: EntryMode,
) {
  await em.transactional(async (tx) => {
    await lockParticipant(tx, participantId);
    if (await isDraftStarted(tx, draft)) throw draftLocked(MESSAGES.picksLocked);
    // Leaving locks the group for update: a member switching and leaving at once take turns.
    if (!(await repo.lockGroup(tx, groupId, 'share'))) throw notFound(MESSAGES.groupNotFound);
    const current = await findMembership(tx, groupId, participantId);
    if (!current) throw await refusalForNonMember(tx, groupId);
    if (entryModeOf(current.use_global_picks) === mode) return;
    if (mode === 'own') await copyPickSet(tx, participantId, GLOBAL_GROUP_ID, groupId);
    else await deletePickSet(tx, participantId, groupId);
    await repo.setUseGlobalPicks(tx, groupId, participantId, mode === 'linked');
    await publish(tx, 'group', { kind: 'group', group_id: groupId });
  });
  return getMembership({ em, participantId }, groupId);
}

/**
 * An account fix: `fromId`'s memberships become `toId`'s (one both hold is kept once) and the groups
 * `fromId` created name `toId` as their creator, inside the caller's transaction. How many memberships moved.
 */
export async function moveMemberships(tx: EntityManager, fromId: string, toId: string): Promise<number> {
  const moved = await repo.copyMemberships(tx, fromId, toId);
  await repo.reassignGroupCreator(tx, fromId, toId);
  return moved;
}
