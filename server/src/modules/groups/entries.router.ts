import { z } from 'zod';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { myPicksInput, participantPicksInput, picksOutput, savePicksInput, savePicksOutput } from '@first-round/shared/schemas';
import { myPicksOutput } from '@first-round/shared/odds-schemas';
import { authedProcedure, draftOpenProcedure, router } from '../../trpc/trpc.js';
import { requireMembership } from './membership.js';
import * as picks from './entries.service.js';

/** Saving into a group is for its members (the global group: everyone), checked before the draft lock. */
const entryOwnerProcedure = authedProcedure
  .input(savePicksInput)
  .use(async ({ ctx, input, next }) => {
    await requireMembership(ctx.em, input.group_id ?? GLOBAL_GROUP_ID, ctx.participant.id);
    return next();
  })
  .meta({ access: 'member' });

export const picksRouter = router({
  mine: authedProcedure
    .meta({ access: 'member' })
    .input(myPicksInput)
    .output(myPicksOutput)
    .query(({ ctx, input }) => picks.myPicksWithOdds({ em: ctx.em, participantId: ctx.participant.id }, ctx.deps, input?.group_id)),
  global: authedProcedure
    .input(z.undefined())
    .output(myPicksOutput)
    .query(({ ctx }) => picks.myPicksWithOdds({ em: ctx.em, participantId: ctx.participant.id }, ctx.deps)),
  save: draftOpenProcedure(entryOwnerProcedure, MESSAGES.picksLocked)
    // Unknown players, or one player twice.
    .meta({ errors: ['UNPROCESSABLE'] })
    .output(savePicksOutput)
    .mutation(({ ctx, input }) =>
      picks.savePicks({ em: ctx.em, draft: ctx.deps.draft, participantId: ctx.participant.id }, input),
    ),
  // Another member's picks: hidden (FORBIDDEN) before the start and where the group's picks are not public.
  ofParticipant: authedProcedure
    .meta({ access: 'member' })
    .input(participantPicksInput)
    .output(picksOutput)
    .query(({ ctx, input }) => picks.participantPicks({ em: ctx.em, draft: ctx.deps.draft, participantId: ctx.participant.id }, input)),
});
