import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { MESSAGES } from '@first-round/shared/messages';
import type { PushPayload, pushSetDelayInput, pushSubscribeInput } from '@first-round/shared/schemas';
import type { Config } from '../../config.js';
import { DomainError, invalidInput } from '../../errors.js';
import { checkEndpoint, endpointPolicy, PushEndpointRefused } from './endpoint-policy.js';
import type { TopicBus } from '../../events/topic-bus.js';
import { insertPlayerDeliveries, ownSubscription, removeOwnSubscription, saveSubscription, setOwnDelay } from './push.repository.js';

export async function status(em: EntityManager, participantId: string, endpoint: string) {
  const own = await ownSubscription(em, participantId, endpoint);
  return { subscribed: own !== undefined, delay_seconds: own?.delaySeconds ?? null };
}

/**
 * This device opts in (again: the same endpoint is updated, never doubled). An endpoint outside the push
 * services the server sends to is refused (endpoint-policy.ts).
 */
export async function subscribe(em: EntityManager, config: Pick<Config, 'PUSH' | 'PUSH_SERVICE_HOSTS' | 'PUSH_ALLOW_LOOPBACK_HTTP'>, participantId: string, input: z.output<typeof pushSubscribeInput>) {
  if (!config.PUSH) throw new DomainError('UNAVAILABLE', 'Push notifications are switched off on this server');
  try {
    checkEndpoint(endpointPolicy(config), input.endpoint);
  } catch (error) {
    if (error instanceof PushEndpointRefused) throw invalidInput(MESSAGES.pushEndpointRefused);
    throw error;
  }
  await saveSubscription(em, participantId, { endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, delaySeconds: input.delay_seconds });
  return { ok: true };
}

/** This device opts out, or signs out: idempotent (a device with no subscription answers ok: false). */
export async function unsubscribe(em: EntityManager, participantId: string, endpoint: string) {
  return { ok: await removeOwnSubscription(em, participantId, endpoint) };
}

/** This device's viewing delay changed ("No spoilers"): its next notifications wait that long. */
export async function setDelay(em: EntityManager, participantId: string, input: z.output<typeof pushSetDelayInput>) {
  if (!(await setOwnDelay(em, participantId, input.endpoint, input.delay_seconds))) {
    throw new DomainError('NOT_FOUND', 'This device has no push subscription of yours');
  }
  return { ok: true };
}

/**
 * A push to every device of the player, written inside `tx` (the reminder's claim: it commits with it or not
 * at all, so it goes once), due now; the sending instance hears of it on the `push` topic once `tx` commits.
 */
export async function pushToPlayer(tx: EntityManager, events: Pick<TopicBus, 'publish'>, participantId: string, payload: PushPayload): Promise<number> {
  const pushes = await insertPlayerDeliveries(tx, participantId, payload);
  if (pushes > 0) await events.publish(tx, 'push', { pushes });
  return pushes;
}
