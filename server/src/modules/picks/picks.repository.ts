import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { sql } from '../../db/sql.js';
import { PickSchema } from './picks.entities.js';

/**
 * The picks module's data access. An entry is a participant's picks in one group (group 1: the global
 * picks); other modules reach the `pick` table only through these functions.
 */

/** One entry's player ids, best-ranked first. */
export async function entryPlayerIds(em: EntityManager, participantId: string, groupId: number): Promise<number[]> {
  const picks = await em.find(PickSchema, { participantId, groupId }, { orderBy: { player: { rank: 'asc' } } });
  return picks.map((p) => p.player.id);
}

/**
 * Replaces an entry's picks with `playerIds`: one delete and one multi-row insert. Run it inside the
 * caller's transaction (which announces the change: every instance's entry book reads the set again).
 */
export async function replaceEntry(tx: EntityManager, participantId: string, groupId: number, playerIds: readonly number[]): Promise<void> {
  await tx.nativeDelete(PickSchema, { participantId, groupId });
  if (playerIds.length > 0) await tx.insertMany(PickSchema, playerIds.map((player) => ({ participantId, groupId, player })));
}

/** Which of `playerIds` someone has picked (a picked player cannot leave the board). */
export async function pickedPlayerIds(em: EntityManager, playerIds: readonly number[]): Promise<Set<number>> {
  if (playerIds.length === 0) return new Set();
  // Distinct in the database: a player may be in thousands of entries.
  const rows = await em
    .createQueryBuilder(PickSchema, 'k')
    .select('k.player', true)
    .where({ player: { $in: [...playerIds] } })
    .execute<{ player: number }[]>('all', true);
  return new Set(rows.map((r) => r.player));
}

/**
 * Empties every entry at once (a new season starts with no picks): TRUNCATE, one step whatever the number
 * of picks. Inside the caller's transaction; it holds the table exclusively until that commits, so a save
 * racing the new season waits and then sees it.
 */
export async function deleteAllPicks(tx: EntityManager): Promise<void> {
  await tx.execute('truncate pick');
}

/**
 * The groups whose entry for the participant is the pick set of `groupId`: that group, and when it is the
 * global one, every group where the participant reuses their global picks (their entry there is the same
 * set, docs/rules.md "Entries and picks"). Read inside the saving transaction, under its locks.
 */
export async function groupsShowingPicks(tx: EntityManager, participantId: string, groupId: number): Promise<number[]> {
  if (groupId !== GLOBAL_GROUP_ID) return [groupId];
  // Raw: group_membership is the groups module's, a layer above picks (no entity of it here).
  const linked = await sql<{ group_id: number }>(tx, `select group_id from group_membership where participant_id = $1 and use_global_picks and group_id <> $2`, [participantId, GLOBAL_GROUP_ID]);
  return [GLOBAL_GROUP_ID, ...linked.map((r) => r.group_id)];
}
