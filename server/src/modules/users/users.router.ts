import { userStatusOutput } from '@first-round/shared/schemas';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { getFirstLoginStatus, markFirstLoginDone } from './participants.service.js';

export const usersRouter = router({
  status: authedProcedure.output(userStatusOutput).query(({ ctx }) => getFirstLoginStatus({ em: ctx.em, participantId: ctx.participant.id })),
  markFirstLoginDone: authedProcedure
    .output(userStatusOutput)
    .mutation(({ ctx }) => markFirstLoginDone({ em: ctx.em, participantId: ctx.participant.id, sink: ctx.deps.events })),
});
