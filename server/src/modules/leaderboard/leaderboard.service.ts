import { leaderboardRowOutput, type Leaderboard } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';

/**
 * Before the start nothing is revealed: no rankings, so nobody learns anybody's picks. The page itself is
 * shared by every reader (validated and serialised once per version); only the caller's own row is theirs.
 */
export async function getLeaderboard(
  deps: Pick<AppDeps, 'draftStatus' | 'leaderboards'>,
  input: { group_id: number; limit: number; offset: number },
  participantId: string,
): Promise<Leaderboard> {
  if (!(await deps.draftStatus.hasStarted())) {
    return { group_id: input.group_id, draft_started: false, entries: 0, alive: 0, rankings: [], me: null };
  }
  const standings = await deps.leaderboards.get(input.group_id);
  return {
    group_id: input.group_id,
    draft_started: true,
    entries: standings.rankings.length,
    alive: standings.alive,
    rankings: deps.leaderboards.page(standings, input.limit, input.offset),
    me: leaderboardRowOutput.nullable().parse(standings.byParticipant.get(participantId) ?? null),
  };
}
