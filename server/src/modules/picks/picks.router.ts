import { z } from 'zod';
import { myPicksInput, participantPicksInput, picksOutput, savePicksInput, savePicksOutput } from '@first-round/shared/schemas';
import { authedProcedure, router } from '../../trpc/trpc.js';
import * as picks from './picks.service.js';

export const picksRouter = router({
  mine: authedProcedure.input(myPicksInput).output(picksOutput).query(({ ctx, input }) => picks.myPicks(ctx.em, ctx.participant.id, input?.group_id)),
  global: authedProcedure.input(z.undefined()).output(picksOutput).query(({ ctx }) => picks.myPicks(ctx.em, ctx.participant.id)),
  save: authedProcedure.input(savePicksInput).output(savePicksOutput).mutation(({ ctx, input }) => picks.savePicks(ctx.em, ctx.deps, ctx.participant.id, input)),
  ofParticipant: authedProcedure
    .input(participantPicksInput)
    .output(picksOutput)
    .query(({ ctx, input }) => picks.participantPicks(ctx.em, ctx.deps, ctx.participant.id, input)),
});
