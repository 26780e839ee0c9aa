import {
  authTestOutput,
  jwtDebugOutput,
  migrateParticipantInput,
  migrateParticipantOutput,
  profileOutput,
  updateScreenNameInput,
} from '@first-round/shared/schemas';
import { authedProcedure, router, signedIn } from '../../trpc/trpc.js';
import { after } from '../../cache/maybe-promise.js';
import { hotRead, hotReadProcedure } from '../../trpc/hot-read.js';
import { prepareJson } from '../../responses/json-body.js';
import type { ParticipantRow } from '../users/participants.service.js';
import { migrateParticipant, updateScreenName } from './account.service.js';
import { authTestReport, jwtDebugReport } from './diagnostics.js';

const toProfile = (p: ParticipantRow, isAdmin: boolean) => ({
  id: p.id,
  participant_id: p.id,
  email: p.email,
  screen_name: p.screen_name,
  is_first_login: p.is_first_login,
  is_admin: isAdmin,
});

/**
 * The profile of a participant row as the cache holds it, serialised once (every page asks auth.me again
 * after each change): a row is replaced, never changed, when the participant changes.
 */
const profiles = new WeakMap<ParticipantRow, { admin?: Profile; player?: Profile }>();
type Profile = ReturnType<typeof toProfile>;
function preparedProfile(p: ParticipantRow, isAdmin: boolean): Profile {
  let entry = profiles.get(p);
  if (!entry) profiles.set(p, (entry = {}));
  const key = isAdmin ? 'admin' : 'player';
  return (entry[key] ??= prepareJson(toProfile(p, isAdmin)));
}

/** Profile and account sync: the participant row is created (or refreshed) on the caller's first sight. */
export const readProfile = hotRead({
  input: undefined,
  output: profileOutput,
  access: 'signed-in',
  run: (ctx) => after(signedIn(ctx), ({ participant, isAdmin }) => preparedProfile(participant, isAdmin)),
});

export const authRouter = router({
  me: hotReadProcedure(readProfile),
  authTest: authedProcedure.output(authTestOutput).query(({ ctx }) => authTestReport(ctx)),
  jwtDebug: authedProcedure.output(jwtDebugOutput).query(({ ctx }) => jwtDebugReport(ctx)),
  updateScreenName: authedProcedure
    .meta({ errors: ['CONFLICT'] })
    .input(updateScreenNameInput)
    .output(profileOutput)
    .mutation(async ({ ctx, input }) =>
      toProfile(await updateScreenName({ em: ctx.em, participantId: ctx.participant.id }, input.screen_name), ctx.isAdmin),
    ),
  migrateParticipantId: authedProcedure
    .meta({ errors: ['BAD_REQUEST', 'FORBIDDEN', 'NOT_FOUND'] })
    .input(migrateParticipantInput)
    .output(migrateParticipantOutput)
    .mutation(({ ctx, input }) => migrateParticipant({ em: ctx.em, participantId: ctx.participant.id }, input)),
});
