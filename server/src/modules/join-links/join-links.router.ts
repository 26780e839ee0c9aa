import { createJoinLinkInput, joinLinkOutput, joinLinkTokenInput, joinResultOutput, resolvedJoinLinkOutput } from '@first-round/shared/schemas';
import { authedProcedure, groupOwnerProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import * as links from './join-links.service.js';

export const joinLinksRouter = router({
  create: groupOwnerProcedure
    .input(createJoinLinkInput)
    .output(joinLinkOutput)
    .mutation(({ ctx, input }) => links.createJoinLink(ctx.em, ctx.deps, ctx.participant.id, input)),
  /** No sign-in needed: the invite page shows where the link leads before the visitor has an account. */
  resolve: publicProcedure.input(joinLinkTokenInput).output(resolvedJoinLinkOutput).query(({ ctx, input }) => links.resolveJoinLink(ctx.em, ctx.deps, input.token)),
  join: authedProcedure.input(joinLinkTokenInput).output(joinResultOutput).mutation(({ ctx, input }) => links.joinWithLink(ctx.em, ctx.deps, ctx.participant.id, input.token)),
});
