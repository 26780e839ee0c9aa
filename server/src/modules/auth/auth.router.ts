import {
  authTestOutput,
  jwtDebugOutput,
  migrateParticipantInput,
  migrateParticipantOutput,
  profileOutput,
  updateScreenNameInput,
} from '@first-round/shared/schemas';
import { authedProcedure, router } from '../../trpc/trpc.js';
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

export const authRouter = router({
  /** Profile and account sync: the participant row is created or refreshed by the auth middleware. */
  me: authedProcedure.output(profileOutput).query(({ ctx }) => toProfile(ctx.participant, ctx.isAdmin)),
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
