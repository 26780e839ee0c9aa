import type { DraftChange } from '@first-round/shared/schemas';
import { SSE_OPTIONS } from '../live/parts.js';

/*
 * tRPC's SSE wire format, written by hand where the live hub's streams write frames themselves (the SSE
 * route, wire/sse-route.ts, and its outlet, wire/sse-outlet.ts) instead of through tRPC's per-stream
 * machinery. The web app's httpSubscriptionLink reads them unchanged: server/test/trpc-contract.test.ts
 * holds every frame here byte for byte to what tRPC's own adapter sends.
 */

/** The headers tRPC sends with a subscription stream. */
export const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no', connection: 'keep-alive' };

/** One event: a line per field, then a blank line and one newline more, as tRPC ends each. */
export const sseFrame = (fields: Array<[string, string]>) => `${fields.map(([k, v]) => `${k}: ${v}\n`).join('')}\n\n`;

/** The first event of every stream: the client's reconnect settings. */
export const CONNECTED = sseFrame([['event', 'connected'], ['data', JSON.stringify(SSE_OPTIONS.client)]]);

/** Written to every stream alike: one buffer, so a gzip stream compresses it once for all (wire/gzip-stream.ts). */
export const PING = Buffer.from(sseFrame([['event', 'ping'], ['data', '']]));

/** A refusal or failure: the error shape the router's formatter made (trpc.ts, trpcErrorAnswer). */
export const errorFrame = (shape: unknown) => sseFrame([['event', 'serialized-error'], ['data', JSON.stringify(shape)]]);

/** A tracked value as tRPC sends it: its JSON, then its id (the audit-log id of the change it is as of). */
export const trackedFrame = (json: string, id: number) => sseFrame([['data', json], ['id', String(id)]]);

/** A draft change as tRPC sends a tracked value: its JSON, then its audit-log id as the event id. */
export const changeFrame = (change: DraftChange) => trackedFrame(JSON.stringify(change), change.event_id);
