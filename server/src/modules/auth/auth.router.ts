import {
  authTestOutput,
  jwtDebugOutput,
  migrateParticipantInput,
  migrateParticipantOutput,
  profileOutput,
  updateScreenNameInput,
} from '@first-round/shared/schemas';
import { authedProcedure, router, signedIn } from '../../trpc/trpc.js';
import { hotRead, hotReadProcedure } from '../../trpc/hot-read.js';
import { migrateParticipant, updateScreenName, type ParticipantRow } from '../users/participants.service.js';
import { authTestReport, jwtDebugReport } from './diagnostics.js';

const toProfile = (p: ParticipantRow, isAdmin: boolean) => ({
  id: p.id,
  participant_id: p.id,
  email: p.email,
  screen_name: p.screen_name,
  is_first_login: p.is_first_login,
  is_admin: isAdmin,
});

/** Profile and account sync: the participant row is created (or refreshed) on the caller's first sight. */
export const readProfile = hotRead({
  input: undefined,
  output: profileOutput,
  run: async (ctx) => {
    const { participant, isAdmin } = await signedIn(ctx);
    return toProfile(participant, isAdmin);
  },
});

export const authRouter = router({
  me: hotReadProcedure(readProfile),
  authTest: authedProcedure.output(authTestOutput).query(({ ctx }) => authTestReport(ctx)),
  jwtDebug: authedProcedure.output(jwtDebugOutput).query(({ ctx }) => jwtDebugReport(ctx)),
  updateScreenName: authedProcedure
    .input(updateScreenNameInput)
    .output(profileOutput)
    .mutation(async ({ ctx, input }) => toProfile(await updateScreenName(ctx.em, ctx.deps.events, ctx.participant.id, input.screen_name), ctx.isAdmin)),
  migrateParticipantId: authedProcedure
    .input(migrateParticipantInput)
    .output(migrateParticipantOutput)
    .mutation(({ ctx, input }) => migrateParticipant(ctx.em, ctx.deps.events, ctx.participant.id, input)),
});
