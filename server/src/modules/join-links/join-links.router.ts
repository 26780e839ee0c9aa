import { createJoinLinkInput, joinLinkOutput, joinLinkTokenInput, joinResultOutput, resolvedJoinLinkOutput } from '@first-round/shared/schemas';
import { MESSAGES } from '@first-round/shared/messages';
import { authedProcedure, draftOpenProcedure, groupMemberProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import type { AppDeps } from '../../deps.js';
import * as links from './join-links.service.js';

/** The draft as the invitation card needs it: the deadline, and the cached status (started? round one over?). */
export const inviteDraft = (deps: AppDeps): links.InviteDraftState => ({ deadline: deps.draft.deadline, status: () => deps.draftStatus.status() });

export const joinLinksRouter = router({
  /** Members (the service refuses non-owners while the owner has member invites off), before the start. */
  create: draftOpenProcedure(groupMemberProcedure.input(createJoinLinkInput), MESSAGES.joinLinksLocked)
    .output(joinLinkOutput)
    .mutation(({ ctx, input }) => links.createJoinLink({ em: ctx.em, participantId: ctx.participant.id, now: ctx.deps.draft.now(), deadline: ctx.deps.draft.deadline }, input)),
  /** No sign-in needed: the invite page shows where the link leads before the visitor has an account. */
  resolve: publicProcedure
    .meta({ errors: ['NOT_FOUND'] })
    .input(joinLinkTokenInput)
    .output(resolvedJoinLinkOutput)
    .query(({ ctx, input }) => links.resolveJoinLink({ em: ctx.em, now: ctx.deps.draft.now(), draft: inviteDraft(ctx.deps) }, input.token)),
  join: authedProcedure
    .meta({ errors: ['NOT_FOUND'] })
    .input(joinLinkTokenInput)
    .output(joinResultOutput)
    .mutation(({ ctx, input }) =>
      links.joinWithLink({ em: ctx.em, participantId: ctx.participant.id, now: ctx.deps.draft.now(), draft: ctx.deps.draft }, input.token),
    ),
});
