import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DraftChangesInput, PublicChangesInput } from '@first-round/shared/schemas';
import type { AppDeps } from '../deps.js';
import { createContextInner, type Context } from '../trpc/context.js';
import { createCallerFactory } from '../trpc/trpc.js';
import { draftRouter } from '../modules/draft/draft.router.js';
import { LiveSubscription } from '../live/hub.js';
import { closesConnection } from '../draining.js';
import { acceptsGzip, gzipPerStream } from '../event-streams.js';
import { lastEventIdOf, parseConnectionParams, parseQueryInput, queryParam, trpcErrorAnswer, withLastEventId } from './trpc-wire.js';
import { CONNECTED, errorFrame, SSE_HEADERS } from './sse-frames.js';
import type { ByteSink } from '../event-streams.js';
import { GzipStream } from './gzip-stream.js';
import type { StreamSocket } from './sse-outlet.js';
import type { FastPaths } from './switch.js';

/** The draft's procedures called in process: the route runs `draft.changes` (or `publicChanges`) itself, checks and all. */
const callDraft = createCallerFactory(draftRouter);

/**
 * The `streams` piece (wire/switch.ts). `draft.changes` over SSE for the web app's EventSource, in front of
 * tRPC's adapter: the very procedure (its checks, its place limit, its stream: live/hub.ts), with the
 * stream's frames written straight to the response, shared by every stream and compressed once for all when the client accepts gzip, instead
 * of through tRPC's per-stream web streams. Everything before the frames is read as tRPC reads it
 * (wire/trpc-wire.ts): the token may come in `connectionParams` (EventSource cannot send headers), a
 * Last-Event-ID joins the input, and a refusal is an event stream whose only event after `connected` is
 * tRPC's `serialized-error`. server/test/trpc-contract.test.ts holds every byte to tRPC's own answer.
 */
export function registerSseRoutes(app: FastifyInstance, deps: AppDeps, pieces: FastPaths) {
  // The players' stream and the spectators' (modules/leaderboard/live-stream.ts, public-live-stream.ts): same
  // wire, same checks' path.
  const streams: Record<string, (ctx: Context, signal: AbortSignal, input: unknown) => Promise<unknown>> = {
    'draft.changes': (ctx, signal, input) => callDraft(ctx, { signal }).changes(input as DraftChangesInput),
    'draft.publicChanges': (ctx, signal, input) => callDraft(ctx, { signal }).publicChanges(input as PublicChangesInput),
  };
  for (const [path, open] of Object.entries(streams)) {
    registerStream(app, deps, pieces, path, async (ctx, signal, input) => {
      const subscription = await open(ctx, signal, input);
      // (tRPC types what a subscription returns as its values; the procedure returns the stream itself.)
      if (!(subscription instanceof LiveSubscription)) throw new Error(`${path} did not return a live subscription`);
      return subscription;
    });
  }
}

/** What a stream procedure returns to the route: it writes itself to the response as frames. */
interface FramedStream {
  sendTo(out: ByteSink, failed: (error: unknown) => string, socket: StreamSocket): void;
}

function registerStream(app: FastifyInstance, deps: AppDeps, pieces: FastPaths, path: string, call: (ctx: Context, signal: AbortSignal, input: unknown) => Promise<FramedStream>) {
  app.get(`/trpc/${path}`, async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Record<string, string | string[] | undefined>;
    // Listened for first: a client that leaves while its token is still being checked must give its
    // place back (a 'close' that happened before a listener was added would never be heard).
    const left = new AbortController();
    reply.raw.on('close', () => left.abort());
    let ctx: Context | undefined;
    try {
      const params = parseConnectionParams(queryParam(query, 'connectionParams'));
      ctx = await createContextInner({
        deps,
        authorization: request.headers.authorization ?? (params?.token ? `Bearer ${params.token}` : undefined),
        ip: request.ip,
        headers: request.headers,
      });
    } catch (cause) {
      // Before tRPC knows what is called, it answers with the error's JSON, not with a stream (and without a
      // content type of its own: the web Response's default for text).
      const { status, shape } = trpcErrorAnswer(cause, { type: 'unknown', path: undefined, input: undefined, ctx });
      return reply.code(status).header('content-type', 'text/plain;charset=UTF-8').send(JSON.stringify({ error: shape }));
    }

    let input: unknown;
    let out: ByteSink | undefined;
    const failed = (cause: unknown) => errorFrame(trpcErrorAnswer(cause, { type: 'subscription', path: path, input, ctx }).shape);
    // Compressed when the client accepts it (browsers do): the stream's shared frames are compressed
    // once for all streams (the `gzip` piece: wire/gzip-stream.ts), else by zlib for this stream alone.
    const gzip = acceptsGzip(request.headers['accept-encoding']);
    const start = (): ByteSink => {
      reply.hijack();
      const headers = reply.getHeaders() as Record<string, string>;
      const vary = headers.vary ? `${headers.vary}, accept-encoding` : 'accept-encoding';
      reply.raw.writeHead(200, {
        ...headers,
        ...SSE_HEADERS,
        vary,
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        // A stream opened while the server drains ends with the drain; its connection with it.
        ...(closesConnection(reply) ? { connection: 'close' } : {}),
      });
      // Corked: the head leaves with the `connected` frame in one write.
      reply.raw.cork();
      const zipped = !gzip ? reply.raw : pieces.has('gzip') ? new GzipStream(reply.raw) : gzipPerStream(reply.raw);
      const out = cutAtShutdown(zipped, reply);
      out.write(CONNECTED);
      reply.raw.uncork();
      return out;
    };
    try {
      input = parseQueryInput(queryParam(query, 'input'), false);
      input = withLastEventId(input, lastEventIdOf(request.headers, query));
      const subscription = await call(ctx, left.signal, input);
      if (left.signal.aborted) return reply.hijack();
      out = start();
      // The response itself, whatever the encoding: whether its socket takes what is written (live/hub.ts).
      subscription.sendTo(out, failed, reply.raw);
    } catch (cause) {
      if (!out && left.signal.aborted) return reply.hijack();
      out ??= start();
      out.end(failed(cause));
    }
  });
}

/**
 * A stream the server's shutdown ends is cut (its socket destroyed, no chunked terminator), not finished.
 * Finished, its keep-alive connection would look reusable to a proxy (nginx's upstream keepalive) at the
 * very moment the stopping server closes its idle connections, and a POST the proxy sends on it then is
 * reset: a 502 (server/test/stream-shutdown.test.ts). Cut, the proxy drops the connection; the page
 * reconnects and replays from its last event id, as after any cut. Errors and a client's own leaving end
 * it as before.
 */
function cutAtShutdown(out: ByteSink, reply: FastifyReply): ByteSink {
  return {
    cork: () => out.cork(),
    uncork: () => out.uncork(),
    write: (chunk, encoding) => out.write(chunk, encoding),
    end: (chunk) => (chunk === undefined && closesConnection(reply) ? reply.raw.destroy() : out.end(chunk)),
  };
}
