import { leaderboardInput, leaderboardOutput } from '@first-round/shared/schemas';
import { groupMemberProcedure, router } from '../../trpc/trpc.js';
import { getLeaderboard } from './leaderboard.service.js';

export const leaderboardRouter = router({
  /** Any group's standings (1 = global, open to every signed-in user); members only otherwise. */
  group: groupMemberProcedure
    .input(leaderboardInput)
    .meta({ output: leaderboardOutput })
    .query(({ ctx, input }) => getLeaderboard(ctx.em, ctx.deps, input, ctx.participant.id)),
});
