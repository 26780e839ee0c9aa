import { z } from 'zod';
import { MAX_VIEWING_DELAY_SECONDS } from '../constants.js';

/* The schemas of push notifications (server/src/modules/push): one of the files shared/src/schemas.ts gathers. */
/** A device's viewing delay ("No spoilers"): its notifications go this many seconds after the pick. */
export const pushDelaySchema = z.number().int().min(0).max(MAX_VIEWING_DELAY_SECONDS);
/**
 * A push service's address for one device, as browsers give them. A shape only: which addresses the server
 * sends to is its own setting (server/src/modules/push/endpoint-policy.ts), checked at subscribe and again
 * at every connection.
 */
export const pushEndpointSchema = z.url({ protocol: /^https?$/ }).max(2048);
/** What `PushSubscription.toJSON()` gives, plus the device's delay. */
export const pushSubscribeInput = z.strictObject({
  endpoint: pushEndpointSchema,
  /** base64url: p256dh a P-256 public key (65 bytes, 87 characters), auth 16 bytes (22); checked whole by the server. */
  keys: z.strictObject({ p256dh: z.string().min(1).max(100), auth: z.string().min(1).max(40) }),
  delay_seconds: pushDelaySchema.default(0),
});
export const pushEndpointInput = z.strictObject({ endpoint: pushEndpointSchema });
export const pushSetDelayInput = z.strictObject({ endpoint: pushEndpointSchema, delay_seconds: pushDelaySchema });
/** Whether this device's endpoint is one of the caller's subscriptions, and its delay. */
export const pushStatusOutput = z.object({ subscribed: z.boolean(), delay_seconds: z.number().nullable() });
export const pushPublicKeyOutput = z.object({ public_key: z.string() });
/** What the service worker gets in a push: shown as a notification with this tag; a tap opens `url`. */
/**
 * The player's push settings beside "Tell me when my picks go" (every device of theirs): an entry of theirs
 * busted, the final result, the reminder an hour before the lock. All on until switched off.
 */
export const pushPreferences = z.strictObject({ busted: z.boolean(), final: z.boolean(), reminder: z.boolean() });
export type PushPreferences = z.infer<typeof pushPreferences>;
export const pushPayload = z.object({ title: z.string(), body: z.string(), tag: z.string(), url: z.string() });
export type PushPayload = z.infer<typeof pushPayload>;
