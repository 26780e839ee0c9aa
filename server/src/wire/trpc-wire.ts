import { getTRPCErrorFromUnknown, getTRPCErrorShape, TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { Context } from '../trpc/context.js';
import { trpcConfig } from '../trpc/trpc.js';

/*
 * How tRPC's HTTP adapter reads a request and answers an error, for the answers written by hand in front
 * of it (wire/hot-reads.ts, wire/sse-route.ts). Each rule is tRPC's own, error messages
 * included: server/test/trpc-contract.test.ts compares the answers byte for byte.
 */

/** A query parameter as tRPC reads it (URLSearchParams.get): the first, when it is given several times. */
export function queryParam(query: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The `input` query parameter of a GET: absent or empty is no input; unparsable is BAD_REQUEST with the
 * parser's message; a batch's must be an object, whose `0` is the (only) call's input.
 */
export function parseQueryInput(raw: string | undefined, batch: boolean): unknown {
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (cause) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: (cause as Error).message, cause });
  }
  if (!batch) return parsed;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: '"input" needs to be an object when doing a batch call' });
  }
  return (parsed as Record<string, unknown>)['0'];
}

/** `connectionParams` (what EventSource cannot send as headers): a JSON object of strings, else PARSE_ERROR. */
export function parseConnectionParams(raw: string | undefined): Record<string, string> | null {
  if (raw === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (cause) {
    throw new TRPCError({ code: 'PARSE_ERROR', message: 'Not JSON-parsable query params', cause });
  }
  if (parsed === null) return null;
  if (typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'string')) {
    throw new TRPCError({ code: 'PARSE_ERROR', message: 'Invalid connection params shape' });
  }
  return parsed as Record<string, string>;
}

/**
 * A subscription's input with the id of the last event the client saw (the `Last-Event-ID` header, or a
 * query parameter for EventSource polyfills) joined in, as tRPC joins it: into an object input, or as the
 * whole input when there is none.
 */
export function withLastEventId(input: unknown, lastEventId: string | undefined): unknown {
  if (!lastEventId) return input;
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) return { ...input, lastEventId };
  return input ?? { lastEventId };
}

/** The last event id of a subscription request, where tRPC looks for it. */
export function lastEventIdOf(headers: Record<string, string | string[] | undefined>, query: Record<string, string | string[] | undefined>): string | undefined {
  const header = headers['last-event-id'];
  return (typeof header === 'string' ? header : undefined) ?? queryParam(query, 'lastEventId') ?? queryParam(query, 'Last-Event-Id');
}

/**
 * Any error as tRPC's HTTP adapter would answer it: its status and the router's formatted shape. `type`
 * and `path` are the call's; an error before tRPC knows the call (unreadable connectionParams, a context
 * that could not be made) has type `unknown` and no path.
 */
export function trpcErrorAnswer(cause: unknown, call: { type: 'query' | 'subscription' | 'unknown'; path: string | undefined; input: unknown; ctx: Context | undefined }) {
  const error = getTRPCErrorFromUnknown(cause);
  const shape = getTRPCErrorShape({ config: trpcConfig, error, ...call });
  return { status: getHTTPStatusCodeFromError(error), shape };
}
