import { feedConfirmInput, feedDecisionOutput, feedDismissInput, feedStatusOutput } from '@first-round/shared/schemas';
import { adminProcedure } from '../../trpc/trpc.js';
import { actorOf, operatorChange } from '../draft/draft.router.js';
import * as feed from './feed.service.js';

/** The results feed's procedures, in the `draft` namespace beside the operator's own (trpc/root.ts). */
export const feedProcedures = {
  /** The results feed (modules/feed/): its status and the queue of reports waiting for the operator. */
  feed: adminProcedure.output(feedStatusOutput).query(({ ctx }) => feed.feedStatus(ctx.em, ctx.deps.config, ctx.deps.draft.now())),
  // No suggestion and no player_id, or a feed team that is none of the 32: BAD_REQUEST; and recordPick's refusals.
  feedConfirm: operatorChange
    .meta({ errors: ['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT'] })
    .input(feedConfirmInput)
    .output(feedDecisionOutput)
    .mutation(({ ctx, input }) => feed.confirmQueueItem(ctx.em, ctx.deps.draft, actorOf(ctx), input.id, input.player_id)),
  feedDismiss: adminProcedure
    .meta({ errors: ['NOT_FOUND', 'CONFLICT'] })
    .input(feedDismissInput)
    .output(feedDecisionOutput)
    .mutation(({ ctx, input }) => feed.dismissQueueItem(ctx.em, actorOf(ctx), input.id)),
};
