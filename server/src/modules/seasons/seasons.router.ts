import { seasonGlobalLeaderboardInput, seasonGroupLeaderboardInput, seasonLeaderboardOutput, seasonsListInput, seasonsListOutput } from '@first-round/shared/schemas';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { authedProcedure, groupMemberProcedure, router } from '../../trpc/trpc.js';
import { listSeasons, seasonLeaderboard } from './seasons.service.js';

/**
 * Past seasons (docs/decisions.md, "Seasons"). Who may read what mirrors leaderboard.group: the global
 * standings every signed-in player, a group's its current members only.
 */
export const seasonsRouter = router({
  list: authedProcedure
    .meta({ access: 'member' })
    .input(seasonsListInput)
    .output(seasonsListOutput)
    .query(({ ctx, input }) => listSeasons(ctx.em, ctx.participant.id, input?.group_id, ctx.deps.draft)),
  groupLeaderboard: groupMemberProcedure
    .input(seasonGroupLeaderboardInput)
    .output(seasonLeaderboardOutput)
    .query(({ ctx, input }) => seasonLeaderboard(ctx.em, ctx.participant.id, input)),
  // No such season, or the current one.
  globalLeaderboard: authedProcedure
    .meta({ errors: ['NOT_FOUND'] })
    .input(seasonGlobalLeaderboardInput)
    .output(seasonLeaderboardOutput)
    .query(({ ctx, input }) => seasonLeaderboard(ctx.em, ctx.participant.id, { ...input, group_id: GLOBAL_GROUP_ID })),
});
