import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { sql } from '../../db/sql.js';
import type { LeaderboardCache } from '../leaderboard/leaderboard.cache.js';

/** The NOTIFY channel of saved picks (the topic bus's `picks` topic, events/topic-bus.ts). */
export const PICKS_CHANNEL = 'picks_changed';

/** A player's entry changed in these groups: the one they saved into and every group that reuses it. */
export const picksChange = z.object({ participant_id: z.string(), group_ids: z.array(z.number().int()) });
export type PicksChange = z.infer<typeof picksChange>;

/**
 * The groups whose entry for the participant is the pick set of `groupId`: that group, and when it is the
 * global one, every group where the participant reuses their global picks (their entry there is the same
 * set, docs/rules.md "Entries and picks"). Read inside the saving transaction, under its locks.
 */
export async function groupsShowingPicks(tx: EntityManager, participantId: string, groupId: number): Promise<number[]> {
  if (groupId !== GLOBAL_GROUP_ID) return [groupId];
  const linked = await sql<{ group_id: number }>(tx, `select group_id from group_membership where participant_id = $1 and use_global_picks and group_id <> $2`, [participantId, GLOBAL_GROUP_ID]);
  return [GLOBAL_GROUP_ID, ...linked.map((r) => r.group_id)];
}

/**
 * What a pick change makes stale on an instance, whichever instance saved it: the rankings of the groups
 * it shows in. The one place that clears them, for the saver's own change and for one heard from another.
 */
export function forgetRankingsOf(leaderboards: Pick<LeaderboardCache, 'invalidateGroup'>, change: PicksChange) {
  for (const groupId of change.group_ids) leaderboards.invalidateGroup(groupId);
}
