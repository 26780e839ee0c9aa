import { z } from 'zod';
import { pushEndpointInput, pushPreferences, pushPublicKeyOutput, pushSetDelayInput, pushStatusOutput, pushSubscribeInput } from '@first-round/shared/schemas';
import { authedProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import * as push from './push.service.js';

const OK = z.object({ ok: z.boolean() });

/**
 * This device's push subscription (docs/decisions.md, "Push notifications"). Every procedure but the public
 * key acts on the caller's own subscriptions only: an endpoint that is someone else's is "not found".
 */
export const pushRouter = router({
  // The VAPID public key `PushManager.subscribe` needs (applicationServerKey): public by nature.
  publicKey: publicProcedure.input(z.undefined()).output(pushPublicKeyOutput).query(({ ctx }) => ({ public_key: ctx.deps.push.publicKey })),
  status: authedProcedure
    .input(pushEndpointInput)
    .output(pushStatusOutput)
    .query(({ ctx, input }) => push.status(ctx.em, ctx.participant.id, input.endpoint)),
  // Push switched off on this server (PUSH=false); an endpoint another player holds. An endpoint outside the
  // push services the server sends to, and keys Web Push cannot use, are INVALID_INPUT like a bad shape.
  subscribe: authedProcedure
    .meta({ errors: ['UNAVAILABLE', 'CONFLICT'] })
    .input(pushSubscribeInput)
    .output(OK)
    .mutation(({ ctx, input }) => push.subscribe(ctx.em, ctx.deps.config, ctx.participant.id, input)),
  unsubscribe: authedProcedure
    .input(pushEndpointInput)
    .output(OK)
    .mutation(({ ctx, input }) => push.unsubscribe(ctx.em, ctx.participant.id, input.endpoint)),
  // Not one of the caller's subscriptions.
  setDelay: authedProcedure
    .meta({ errors: ['NOT_FOUND'] })
    .input(pushSetDelayInput)
    .output(OK)
    .mutation(({ ctx, input }) => push.setDelay(ctx.em, ctx.participant.id, input)),
  // What else the caller's devices are told: an entry busted, the final result, the reminder before the lock.
  preferences: authedProcedure
    .input(z.undefined())
    .output(pushPreferences)
    .query(({ ctx }) => push.preferences(ctx.em, ctx.participant.id)),
  setPreferences: authedProcedure
    .input(pushPreferences)
    .output(pushPreferences)
    .mutation(({ ctx, input }) => push.setPreferences(ctx.em, ctx.participant.id, input)),
});
