import type { ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { closesConnection } from './draining.js';

/*
 * The live streams' event streams as plain Fastify and tRPC serve them (FAST_PATHS without `streams`,
 * wire/switch.ts), given what the hand-written route gives them: gzip for a client that accepts it, each
 * event readable as soon as it is sent, and a stream the server's shutdown ends cut rather than finished.
 */

/** What a live stream writes to: an http.ServerResponse, or a gzip stream around one. */
export interface ByteSink {
  cork(): void;
  uncork(): void;
  write(chunk: string | Buffer, encoding?: BufferEncoding): boolean;
  end(chunk?: string | Buffer): unknown;
}

/** Whether an Accept-Encoding header accepts gzip (`gzip`, `x-gzip` or `*`, not at q=0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((entry) => {
    const [coding = '', ...params] = entry.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** zlib's gzip, each write flushed so that the event in it is readable at once. */
const eventGzip = () => zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH });

/** A response's body through zlib's gzip for this stream alone. */
export function gzipPerStream(res: ServerResponse): ByteSink {
  const zip = eventGzip();
  zip.pipe(res);
  return {
    cork: () => zip.cork(),
    uncork: () => zip.uncork(),
    write: (chunk, encoding) => (typeof chunk === 'string' ? zip.write(chunk, encoding ?? 'utf8') : zip.write(chunk)),
    end: (chunk) => (chunk === undefined ? zip.end() : zip.end(chunk)),
  };
}

const isEventStream = (payload: unknown): payload is Response =>
  payload instanceof Response && payload.body !== null && (payload.headers.get('content-type') ?? '').startsWith('text/event-stream');

/**
 * tRPC's event streams (its adapter answers with a web Response): compressed by zlib, per stream, when the
 * client accepts gzip, and kept track of, so that `cutAtShutdown` can cut them. A stream finished at
 * shutdown would leave its keep-alive connection looking reusable to a proxy just as the server closes it
 * (server/test/stream-shutdown.test.ts); cut, the page reconnects and replays from its last event id.
 */
export function registerEventStreams(app: FastifyInstance): { cutAtShutdown(): void } {
  const open = new Set<FastifyReply>();
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!isEventStream(payload)) return done(null, payload);
    open.add(reply);
    reply.raw.once('close', () => open.delete(reply));
    if (!acceptsGzip(request.headers['accept-encoding'])) return done(null, payload);
    reply.code(payload.status);
    for (const [name, value] of payload.headers) reply.header(name, value);
    const vary = reply.getHeader('vary');
    reply.header('content-encoding', 'gzip').header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
    const zip = eventGzip();
    // Either side gone (the client left, the stream ended) ends the other: tRPC hears the client leave.
    pipeline(Readable.fromWeb(payload.body as WebReadableStream), zip, () => {});
    done(null, zip);
  });
  return {
    cutAtShutdown() {
      for (const reply of open) if (closesConnection(reply)) reply.raw.destroy();
    },
  };
}
