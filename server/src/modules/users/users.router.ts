import { remindersSetting, userStatusOutput } from '@first-round/shared/schemas';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { getFirstLoginStatus, getReminders, markFirstLoginDone, setReminders } from './participants.service.js';

export const usersRouter = router({
  status: authedProcedure.output(userStatusOutput).query(({ ctx }) => getFirstLoginStatus({ em: ctx.em, participantId: ctx.participant.id })),
  markFirstLoginDone: authedProcedure
    .output(userStatusOutput)
    .mutation(({ ctx }) => markFirstLoginDone({ em: ctx.em, participantId: ctx.participant.id })),
  /** "E-mail me before picks lock": on until switched off here or by a reminder's unsubscribe link. */
  reminders: authedProcedure.output(remindersSetting).query(({ ctx }) => getReminders({ em: ctx.em, participantId: ctx.participant.id })),
  setReminders: authedProcedure
    .input(remindersSetting)
    .output(remindersSetting)
    .mutation(({ ctx, input }) => setReminders({ em: ctx.em, participantId: ctx.participant.id }, input.reminders)),
});
