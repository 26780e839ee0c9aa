import { userStatusOutput } from '@first-round/shared/schemas';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { getFirstLoginStatus, markFirstLoginDone } from './participants.service.js';

export const usersRouter = router({
  status: authedProcedure.output(userStatusOutput).query(({ ctx }) => getFirstLoginStatus(ctx.em, ctx.participant.id)),
  markFirstLoginDone: authedProcedure.output(userStatusOutput).mutation(({ ctx }) => markFirstLoginDone(ctx.em, ctx.deps.events, ctx.participant.id)),
});
