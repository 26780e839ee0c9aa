import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { MAX_PUSH_DEVICES } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import type { PushPayload, PushPreferences, pushSetDelayInput, pushSubscribeInput } from '@first-round/shared/schemas';
import type { Config } from '../../config.js';
import { conflict, DomainError, invalidInput } from '../../errors.js';
import { checkEndpoint, endpointPolicy, PushEndpointRefused } from './endpoint-policy.js';
import { publish } from '../../events/topic-bus.js';
import { insertPlayerDeliveries, ownSubscription, readPreferences, removeOwnSubscription, savePreferences, saveSubscription, setOwnDelay } from './push.repository.js';

export async function status(em: EntityManager, participantId: string, endpoint: string) {
  const own = await ownSubscription(em, participantId, endpoint);
  return { subscribed: own !== undefined, delay_seconds: own?.delaySeconds ?? null };
}

/**
 * This device opts in (again: the same endpoint is updated, never doubled). Refused: an endpoint outside the
 * push services the server sends to (endpoint-policy.ts), keys Web Push cannot encrypt to, an endpoint that
 * is another player's (they keep it). A player's 11th device replaces the one subscribed longest ago.
 */
export async function subscribe(em: EntityManager, config: Pick<Config, 'PUSH' | 'PUSH_SERVICE_HOSTS' | 'PUSH_ALLOW_LOOPBACK_HTTP'>, participantId: string, input: z.output<typeof pushSubscribeInput>) {
  if (!config.PUSH) throw new DomainError('UNAVAILABLE', 'Push notifications are switched off on this server');
  try {
    checkEndpoint(endpointPolicy(config), input.endpoint);
  } catch (error) {
    if (error instanceof PushEndpointRefused) throw invalidInput(MESSAGES.pushEndpointRefused);
    throw error;
  }
  if (!validKeys(input.keys)) throw invalidInput(MESSAGES.pushKeysInvalid);
  const sub = { endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, delaySeconds: input.delay_seconds };
  const saved = await em.transactional((tx) => saveSubscription(tx, participantId, sub, MAX_PUSH_DEVICES));
  if (!saved) throw conflict(MESSAGES.pushEndpointTaken);
  return { ok: true };
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * What Web Push encrypts to (RFC 8291): p256dh an uncompressed P-256 point (65 bytes, 0x04 first) on the
 * curve, auth a 16-byte secret, both base64url. Anything else would fail at every push.
 */
function validKeys(keys: { p256dh: string; auth: string }): boolean {
  if (!BASE64URL.test(keys.p256dh) || !BASE64URL.test(keys.auth)) return false;
  const point = Buffer.from(keys.p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 0x04 || Buffer.from(keys.auth, 'base64url').length !== 16) return false;
  try {
    crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
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

/** The player's settings for each kind of push beside their picks taken (every device of theirs). */
export function preferences(em: EntityManager, participantId: string): Promise<PushPreferences> {
  return readPreferences(em, participantId);
}

export function setPreferences(em: EntityManager, participantId: string, prefs: PushPreferences): Promise<PushPreferences> {
  return savePreferences(em, participantId, prefs);
}

/**
 * A push to every device of the player, written inside `tx` (the reminder's claim: it commits with it or not
 * at all, so it goes once), due now; the sending instance hears of it on the `push` topic once `tx` commits.
 */
export async function pushToPlayer(tx: EntityManager, participantId: string, payload: PushPayload): Promise<number> {
  const pushes = await insertPlayerDeliveries(tx, participantId, payload);
  if (pushes > 0) await publish(tx, 'push', { pushes });
  return pushes;
}
