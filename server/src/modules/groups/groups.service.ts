import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import type { GroupDto } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { badRequest, conflict, draftLocked, forbidden, isForeignKeyViolation, isUniqueViolation, notFound } from '../../errors.js';
import { sql, sqlOne } from '../../db/sql.js';
import { isDraftStarted } from '../draft/draft.service.js';
import { announceChange } from '../../cache/invalidation.js';
import { findMembership } from './membership.js';
import { hashPassword, verifyPassword } from './password.js';
import { checkJoinLimits, lockJoinAttempts, recordJoinFailure } from './join-limits.js';

const GROUP_COLUMNS = `g.id, g.id as group_id, g.name, g.is_public, g.picks_public, g.password_hash is not null as has_password,
  (select count(*)::int from group_membership c where c.group_id = g.id) as member_count, g.created_at`;

type GroupRow = Omit<GroupDto, 'created_at'> & { created_at: Date | string };
const toDto = (g: GroupRow): GroupDto => ({ ...g, created_at: new Date(g.created_at).toISOString() });

export async function listUserGroups(em: EntityManager, participantId: string): Promise<GroupDto[]> {
  const rows = await sql<GroupRow>(
    em,
    `select ${GROUP_COLUMNS} from groups g join group_membership m on m.group_id = g.id and m.participant_id = $1
      order by m.joined_at, g.id`,
    [participantId],
  );
  return rows.map(toDto);
}

/** Public groups the caller has not joined yet (those are listed under My Groups). */
export async function listPublicGroups(em: EntityManager, participantId: string): Promise<GroupDto[]> {
  const rows = await sql<GroupRow>(
    em,
    `select ${GROUP_COLUMNS} from groups g
      where g.is_public and g.id <> 1
        and not exists (select 1 from group_membership m where m.group_id = g.id and m.participant_id = $1)
      order by g.name`,
    [participantId],
  );
  return rows.map(toDto);
}

async function loadGroup(em: EntityManager, groupId: number): Promise<(GroupRow & { password_hash: string | null }) | undefined> {
  if (groupId === GLOBAL_GROUP_ID) return undefined; // the global group is not a group one can open or join
  return sqlOne(em, `select ${GROUP_COLUMNS}, g.password_hash from groups g where g.id = $1`, [groupId]);
}

const isMember = async (em: EntityManager, groupId: number, participantId: string) => Boolean(await findMembership(em, groupId, participantId));

/** Members may open their group; public groups are open to every signed-in user. */
export async function getVisibleGroup(em: EntityManager, groupId: number, participantId: string): Promise<GroupDto> {
  const group = await loadGroup(em, groupId);
  if (!group) throw notFound(MESSAGES.groupNotFound);
  if (!group.is_public && !(await isMember(em, groupId, participantId))) throw forbidden(MESSAGES.notGroupMember);
  const { password_hash: _hidden, ...visible } = group;
  return toDto(visible);
}

export interface CreateGroupInput {
  name: string;
  is_public: boolean;
  picks_public: boolean;
  password?: string;
}

export async function createGroup(em: EntityManager, deps: AppDeps, participantId: string, input: CreateGroupInput): Promise<GroupDto> {
  if (await isDraftStarted(em, deps.draft)) throw draftLocked(MESSAGES.groupsLocked);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    return await em.transactional(async (tx) => {
      const id = await insertGroupWithRandomId(tx, { ...input, passwordHash, createdBy: participantId });
      // The creator owns the group; like every membership it starts without reusing global picks.
      await sql(tx, `insert into group_membership (group_id, participant_id, is_owner, use_global_picks) values ($1, $2, true, false)`, [id, participantId]);
      return getVisibleGroup(tx, id, participantId);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'groups_name_unique')) throw conflict(MESSAGES.groupExists);
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
  g: { name: string; is_public: boolean; picks_public: boolean; passwordHash: string | null; createdBy: string },
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const id = crypto.randomInt(GROUP_ID_MIN, GROUP_ID_MAX + 1);
    // `on conflict (id) do nothing`: a taken id returns no row (and keeps the transaction usable); a
    // taken name still raises groups_name_unique.
    const created = await sqlOne<{ id: number }>(
      tx,
      `insert into groups (id, name, is_public, picks_public, password_hash, created_by) values ($1, $2, $3, $4, $5, $6)
       on conflict (id) do nothing returning id`,
      [id, g.name, g.is_public, g.picks_public, g.passwordHash, g.createdBy],
    );
    if (created) return created.id;
    if (attempt >= 20) throw new Error('Could not find a free group id');
  }
}

/** Adds a membership unless it exists; never a second row, so repeating a join is a success. */
export async function addMember(em: EntityManager, groupId: number, participantId: string): Promise<boolean> {
  try {
    const inserted = await sqlOne(
      em,
      `insert into group_membership (group_id, participant_id, is_owner, use_global_picks) values ($1, $2, false, false)
       on conflict (group_id, participant_id) do nothing returning 1`,
      [groupId, participantId],
    );
    return Boolean(inserted);
  } catch (error) {
    // The group's last member left (deleting it) between the lookup and this insert.
    if (isForeignKeyViolation(error)) throw notFound(MESSAGES.groupNotFound);
    throw error;
  }
}

interface JoinResult {
  success: boolean;
  group_id: number;
  already_member: boolean;
  message: string;
}

const alreadyMember = (groupId: number): JoinResult => ({ success: true, group_id: groupId, already_member: true, message: 'You are already a member of this group' });

async function addJoiningMember(em: EntityManager, groupId: number, participantId: string): Promise<JoinResult> {
  const added = await addMember(em, groupId, participantId);
  return { success: true, group_id: groupId, already_member: !added, message: 'You have joined the group' };
}

/**
 * Joining by id, with guessing limited (join-limits.ts). The whole attempt runs in one transaction holding
 * the player's join lock, so simultaneous attempts are decided one after another: a member passes at
 * once (nothing is guessed), a limited player gets 429 before any hash, and a wrong password or unknown
 * id is recorded before the next attempt counts. (Counting a try before checking it, with the hash outside
 * the lock, would refuse simultaneous RIGHT answers once ten were in flight.)
 */
export async function joinGroup(em: EntityManager, deps: AppDeps, participantId: string, input: { group_id: number; password?: string }) {
  const now = deps.draft.now();
  const outcome = await em.transactional(async (tx): Promise<{ ok: JoinResult } | { refused: Error }> => {
    await lockJoinAttempts(tx, participantId);
    const group = await loadGroup(tx, input.group_id);
    if (group && (await isMember(tx, input.group_id, participantId))) return { ok: alreadyMember(input.group_id) };
    await checkJoinLimits(tx, participantId, input.group_id, now);
    if (!group) {
      await recordJoinFailure(tx, participantId, input.group_id, 'unknown_group', now);
      return { refused: notFound(MESSAGES.groupNotFound) };
    }
    if (group.password_hash && !(input.password && (await verifyPassword(input.password, group.password_hash)))) {
      await recordJoinFailure(tx, participantId, input.group_id, 'wrong_password', now);
      return { refused: forbidden(MESSAGES.wrongGroupPassword) };
    }
    const joined = await addJoiningMember(tx, input.group_id, participantId);
    await announceChange(tx, deps.events, { kind: 'group', group_id: input.group_id });
    return { ok: joined };
  });
  // A refusal is thrown only after the commit, so the failure it recorded counts.
  if ('refused' in outcome) throw outcome.refused;
  return outcome.ok;
}

/**
 * Leaving: an owner cannot walk away from members; the last member leaving deletes the group (and with
 * it its picks and links). The group row is locked so two members leaving at once cannot both be "last".
 */
export async function leaveGroup(em: EntityManager, deps: AppDeps, participantId: string, groupId: number) {
  if (groupId === GLOBAL_GROUP_ID) throw badRequest('The global group cannot be left');
  const result = await em.transactional(async (tx) => {
    const group = await sqlOne(tx, `select id from groups where id = $1 for update`, [groupId]);
    if (!group) throw notFound(MESSAGES.groupNotFound);
    const me = await sqlOne<{ is_owner: boolean }>(tx, `select is_owner from group_membership where group_id = $1 and participant_id = $2`, [
      groupId,
      participantId,
    ]);
    if (!me) throw forbidden(MESSAGES.notGroupMember);
    const others = await sqlOne<{ n: number }>(tx, `select count(*)::int as n from group_membership where group_id = $1 and participant_id <> $2`, [
      groupId,
      participantId,
    ]);
    if (me.is_owner && (others?.n ?? 0) > 0) throw conflict('The owner cannot leave a group that still has other members');
    await announceChange(tx, deps.events, { kind: 'group', group_id: groupId });
    if ((others?.n ?? 0) === 0) {
      await sql(tx, `delete from groups where id = $1`, [groupId]);
      return { success: true, group_deleted: true };
    }
    await sql(tx, `delete from pick where group_id = $1 and participant_id = $2`, [groupId, participantId]);
    await sql(tx, `delete from group_membership where group_id = $1 and participant_id = $2`, [groupId, participantId]);
    return { success: true, group_deleted: false };
  });
  return result;
}

export async function memberCount(em: EntityManager, groupId: number, participantId: string) {
  const group = await getVisibleGroup(em, groupId, participantId);
  return { group_id: groupId, member_count: group.member_count };
}

export async function getMembership(em: EntityManager, groupId: number, participantId: string) {
  if (!(await loadGroup(em, groupId))) throw notFound(MESSAGES.groupNotFound);
  const row = await findMembership(em, groupId, participantId);
  return {
    group_id: groupId,
    participant_id: participantId,
    is_member: Boolean(row),
    is_owner: row?.is_owner ?? false,
    use_global_picks: row?.use_global_picks ?? false,
  };
}

/** Members with whether their entry has picks (a yes/no, never the picks themselves). */
export async function listMembers(em: EntityManager, groupId: number) {
  const rows = await sql<{ participant_id: string; participant_name: string; screen_name: string | null; is_owner: boolean; has_picks: boolean; joined: Date }>(
    em,
    `select m.participant_id, coalesce(p.screen_name, m.participant_id) as participant_name, p.screen_name, m.is_owner,
            exists (select 1 from pick k where k.participant_id = m.participant_id
                       and k.group_id = case when m.use_global_picks then 1 else m.group_id end) as has_picks,
            m.joined_at as joined
       from group_membership m join participant p on p.id = m.participant_id
      where m.group_id = $1
      order by m.is_owner desc, m.joined_at, m.participant_id`,
    [groupId],
  );
  return rows.map((r) => ({ ...r, joined: new Date(r.joined).toISOString() }));
}

/** Reuse (true) or stop reusing (false) global picks in a group; part of editing picks, so locked at the start. */
export async function setUseGlobalPicks(em: EntityManager, deps: AppDeps, participantId: string, groupId: number, useGlobal: boolean) {
  if (await isDraftStarted(em, deps.draft)) throw draftLocked(MESSAGES.picksLocked);
  await em.transactional(async (tx) => {
    await sql(tx, `update group_membership set use_global_picks = $3 where group_id = $1 and participant_id = $2`, [groupId, participantId, useGlobal]);
    await announceChange(tx, deps.events, { kind: 'group', group_id: groupId });
  });
  return getMembership(em, groupId, participantId);
}
