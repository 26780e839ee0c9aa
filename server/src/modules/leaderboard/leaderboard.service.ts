import type { EntityManager } from '@mikro-orm/postgresql';
import type { Leaderboard } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { isDraftStarted } from '../draft/draft.service.js';

/** Before the start nothing is revealed: no rankings, so nobody learns anybody's picks. */
export async function getLeaderboard(
  em: EntityManager,
  deps: AppDeps,
  input: { group_id: number; limit: number; offset: number },
  participantId: string,
): Promise<Leaderboard> {
  if (!(await isDraftStarted(em, deps.draft))) {
    return { group_id: input.group_id, draft_started: false, entries: 0, alive: 0, rankings: [], me: null };
  }
  const standings = await deps.leaderboards.get(input.group_id, em);
  return {
    group_id: input.group_id,
    draft_started: true,
    entries: standings.rankings.length,
    alive: standings.alive,
    rankings: standings.rankings.slice(input.offset, input.offset + input.limit),
    me: standings.byParticipant.get(participantId) ?? null,
  };
}
