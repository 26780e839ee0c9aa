import type { EntityManager } from '@mikro-orm/postgresql';
import { PickSchema } from './picks.entities.js';

/*
 * What other modules may do with pick sets (a participant's picks in one group; group 1 holds the global
 * picks) without reading the pick table themselves: groups asks who has picks and drops a leaver's set,
 * users moves a temporary account's sets onto the real one.
 */

/** Which of these participants have at least one pick in this group's set. */
export async function whoHasPicks(em: EntityManager, groupId: number, participantIds: readonly string[]): Promise<Set<string>> {
  if (participantIds.length === 0) return new Set();
  const rows: { participantId: string }[] = await em
    .createQueryBuilder(PickSchema, 'k')
    .select('k.participantId', true)
    .where({ groupId, participantId: { $in: [...participantIds] } })
    .execute('all');
  return new Set(rows.map((r) => r.participantId));
}

/**
 * Makes one participant's set in `toGroup` a copy of their set in `fromGroup` (forking a group entry from
 * My Picks): the old set goes, the copy comes in one INSERT … SELECT. Inside the caller's transaction.
 */
export async function copyPickSet(tx: EntityManager, participantId: string, fromGroup: number, toGroup: number): Promise<void> {
  await tx.nativeDelete(PickSchema, { participantId, groupId: toGroup });
  await tx.execute(
    `insert into pick (participant_id, group_id, player_id) select participant_id, ?, player_id from pick where participant_id = ? and group_id = ?`,
    [toGroup, participantId, fromGroup],
  );
}

/** Deletes one participant's picks in one group. */
export async function deletePickSet(em: EntityManager, participantId: string, groupId: number): Promise<void> {
  await em.nativeDelete(PickSchema, { participantId, groupId });
}

/**
 * Copies every pick of `fromId` to `toId` (picks `toId` already has are kept once, not doubled) and
 * returns how many were added. One INSERT … SELECT: the set moves whole, whatever its size. `fromId`'s
 * own rows go when that participant is deleted.
 */
export async function copyPickSets(tx: EntityManager, fromId: string, toId: string): Promise<number> {
  const [row] = await tx.execute<{ n: number }[]>(
    `with moved as (
       insert into pick (participant_id, group_id, player_id, created_at)
       select ?, group_id, player_id, created_at from pick where participant_id = ?
       on conflict do nothing returning 1)
     select count(*)::int as n from moved`,
    [toId, fromId],
  );
  return row?.n ?? 0;
}

/** How many participants have picks in this group's set (group 1: entries on the global leaderboard). */
export async function countPickSets(em: EntityManager, groupId: number): Promise<number> {
  const [row] = await em.execute<{ n: number }[]>(`select count(distinct participant_id)::int as n from pick where group_id = ?`, [groupId]);
  return row?.n ?? 0;
}

/**
 * The player ids of several pick sets in one query (a group's entries: each member's set in the group, or
 * their global one when they reuse it), keyed by participant. A participant named twice keeps the last.
 */
export async function playerIdsOfSets(em: EntityManager, sets: readonly { participantId: string; groupId: number }[]): Promise<Map<string, number[]>> {
  const result = new Map<string, number[]>(sets.map((s) => [s.participantId, []]));
  if (sets.length === 0) return result;
  const rows = await em.execute<{ participant_id: string; player_id: number }[]>(
    `select k.participant_id, k.player_id
       from pick k
       join json_to_recordset(?::json) as s(participant_id text, group_id int)
         on k.participant_id = s.participant_id and k.group_id = s.group_id`,
    // One JSON parameter (arrays would be spread into value lists by the driver's formatting).
    [JSON.stringify(sets.map((s) => ({ participant_id: s.participantId, group_id: s.groupId })))],
  );
  for (const r of rows) result.get(r.participant_id)?.push(r.player_id);
  return result;
}
