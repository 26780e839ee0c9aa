import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { fieldInput, fieldOutput, leaderboardInput, leaderboardOutput, myGroupStandingsOutput } from '@first-round/shared/schemas';
import { authedProcedure, router, signedIn } from '../../trpc/trpc.js';
import { after } from '../../cache/maybe-promise.js';
import { hotRead, hotReadProcedure, hotReadProcedureWithInput } from '../../trpc/hot-read.js';
import { requireMembership } from '../groups/membership.js';
import { getField, getLeaderboard, leaderboardJson, myGroupStandings, publicStandings } from './leaderboard.service.js';

/** Any group's standings (1 = global, open to every signed-in user); members only otherwise. */
export const readLeaderboard = hotRead({
  input: leaderboardInput,
  output: leaderboardOutput,
  access: 'member',
  run: (ctx, input) =>
    after(signedIn(ctx), ({ participant }) =>
      // The global group has no membership rows (every signed-in player is in it): no database needed.
      after(input.group_id === GLOBAL_GROUP_ID ? null : requireMembership(ctx.em, input.group_id, participant.id), () =>
        getLeaderboard(ctx.deps, input, participant.id),
      ),
    ),
  encode: leaderboardJson,
});

/**
 * The global top 100 for anyone, signed in or not (the spectators' page /live): the page a signed-in
 * player without an entry reads, from the same cache, as the same bytes. 404 with PUBLIC_STANDINGS=false.
 */
export const readPublicStandings = hotRead({
  input: undefined,
  output: leaderboardOutput,
  access: 'public',
  errors: ['NOT_FOUND'],
  run: (ctx) => publicStandings(ctx.deps),
  encode: leaderboardJson,
});

/**
 * Who picked whom, after the start: globally (no group_id, or 1) for every signed-in player, in a group
 * for its members only (403/404 first, then 409 before the start, so nothing is revealed early).
 */
export const readField = hotRead({
  input: fieldInput,
  output: fieldOutput,
  access: 'member',
  // Before the start: nothing about anyone's picks.
  errors: ['CONFLICT'],
  run: async (ctx, input) => {
    const { participant } = await signedIn(ctx);
    const groupId = input?.group_id ?? GLOBAL_GROUP_ID;
    if (groupId !== GLOBAL_GROUP_ID) await requireMembership(ctx.em, groupId, participant.id);
    return getField(ctx.deps, groupId);
  },
});

export const leaderboardRouter = router({
  group: hotReadProcedureWithInput(readLeaderboard),
  field: hotReadProcedureWithInput(readField),
  public: hotReadProcedure(readPublicStandings),
  /** The caller's place in each of their groups (the group cards). */
  myGroups: authedProcedure.output(myGroupStandingsOutput).query(({ ctx }) => myGroupStandings(ctx.deps, ctx.em, ctx.participant.id)),
});
