import type { EntityManager } from '@mikro-orm/postgresql';
import type { Leaderboard } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { isDraftStarted } from '../draft/draft.service.js';

/** Before the start nothing is revealed: no rankings, so nobody learns anybody's picks. */
export async function getLeaderboard(em: EntityManager, deps: AppDeps, groupId: number): Promise<Leaderboard> {
  if (!(await isDraftStarted(em, deps.draft))) {
    return { group_id: groupId, draft_started: false, entries: 0, alive: 0, rankings: [] };
  }
  const standings = await deps.leaderboards.get(groupId, em);
  return { group_id: groupId, draft_started: true, entries: standings.rankings.length, alive: standings.alive, rankings: standings.rankings };
}
