import { draftEventsOutput, draftStatusOutput, recordPickInput } from '@first-round/shared/schemas';
import { adminProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import * as draft from './draft.service.js';

/** The operator's changes run as the signed-in admin's e-mail, which the audit log records. */
const actorOf = (ctx: { participant: { email: string | null; id: string } }) => ctx.participant.email ?? ctx.participant.id;

export const draftRouter = router({
  status: publicProcedure.output(draftStatusOutput).query(({ ctx }) => draft.getDraftStatus(ctx.em!, ctx.deps.draft)),
  start: adminProcedure.mutation(({ ctx }) => draft.startDraft(ctx.em!, ctx.deps.draft, actorOf(ctx))),
  recordPick: adminProcedure
    .input(recordPickInput)
    .mutation(({ ctx, input }) => draft.recordPick(ctx.em!, ctx.deps.draft, actorOf(ctx), input.slot, input.player_id)),
  undo: adminProcedure.mutation(({ ctx }) => draft.undoLast(ctx.em!, ctx.deps.draft, actorOf(ctx))),
  completeRound: adminProcedure.mutation(({ ctx }) => draft.completeRoundOne(ctx.em!, ctx.deps.draft, actorOf(ctx))),
  reset: adminProcedure.mutation(({ ctx }) => draft.resetDraft(ctx.em!, ctx.deps.draft, actorOf(ctx))),
  auditLog: adminProcedure.output(draftEventsOutput).query(({ ctx }) => draft.recentDraftEvents(ctx.em!)),
});
