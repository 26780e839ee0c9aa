import { createShareLinkInput, shareLinkOutput } from '@first-round/shared/schemas';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { createShareLink } from './share.service.js';

export const shareRouter = router({
  /** The caller's own entry only (members of the group; global for everyone), before and after the start. */
  createLink: authedProcedure
    .meta({ access: 'member' })
    .input(createShareLinkInput)
    .output(shareLinkOutput)
    .mutation(({ ctx, input }) => createShareLink({ em: ctx.em, participantId: ctx.participant.id, publicOrigin: ctx.deps.config.publicOrigin }, input)),
});
