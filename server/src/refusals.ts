import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { MESSAGES } from '@first-round/shared/messages';
import { describeError, DomainError, ERROR_TABLE, errorAnswer, errorHeaders, notFound, type ErrorBody } from './errors.js';
import { queryParam, trpcErrorAnswer } from './wire/trpc-wire.js';
import { answerUnderWay } from './draining.js';

/*
 * The answers given before a route has run, or instead of one: Fastify's refusals of a body (too large, a
 * type no parser reads, unreadable), a path no route has, and what Node's HTTP parser refuses before
 * Fastify sees a request (headers too large, a request it cannot read, one that takes too long to arrive).
 * Each is in its protocol's shape, like every other error: under /trpc the tRPC error envelope tRPC's own
 * adapter would send for that status (`data.kind` included), everywhere else `{detail, message, code}`
 * (errors.ts). Only error paths come here: no request that succeeds does any of this work.
 */

/** Whether a request target is tRPC's: `/trpc`, `/trpc/…`, `/trpc?…`. */
export const isTrpcPath = (url: string): boolean => url.startsWith('/trpc') && (url.length === 5 || url[5] === '/' || url[5] === '?');

/** The tRPC code tRPC gives each status it answers (the kind table's own first: 413, 422, 429 …). */
const TRPC_CODE_OF_STATUS: Partial<Record<number, TRPC_ERROR_CODE_KEY>> = {
  400: 'BAD_REQUEST',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  408: 'TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

function trpcCodeOf(kind: keyof typeof ERROR_TABLE, status: number): TRPC_ERROR_CODE_KEY {
  if (ERROR_TABLE[kind].status === status) return ERROR_TABLE[kind].trpc;
  return TRPC_CODE_OF_STATUS[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
}

export interface Refusal {
  status: number;
  headers: Record<string, string>;
  contentType: string;
  /** REST's body as an object (Fastify serialises it), tRPC's as the JSON tRPC writes. */
  body: ErrorBody | string;
  /** The server's own failure, which the caller logs. */
  fault: boolean;
}

/**
 * `error` answered for a request to `url`, in its protocol's shape. Over tRPC the envelope is made by tRPC's
 * own error shaping with the router's formatter (wire/trpc-wire.ts), as for an error before the call is known
 * (type `unknown`, no path, one envelope even for a batch): tRPC's code for the status, and where tRPC has
 * none (431) its BAD_REQUEST with the real status in `httpStatus`.
 */
export function refusalFor(url: string, error: unknown): Refusal {
  if (!isTrpcPath(url)) {
    const { status, body, headers, fault } = errorAnswer(error);
    return { status, headers: headers ?? {}, contentType: 'application/json; charset=utf-8', body, fault };
  }
  return trpcRefusal([{ error, path: undefined }], false);
}

/** One envelope per call (`path`: the call's, as tRPC puts it in `data.path`), in an array for a batch. */
function trpcRefusal(calls: { error: unknown; path: string | undefined }[], batch: boolean): Refusal {
  const envelopes = calls.map(({ error, path }) => {
    const description = describeError(error);
    const { kind, status, message } = description;
    const cause = new TRPCError({ code: trpcCodeOf(kind, status), message, cause: new DomainError(kind, message, description.data) });
    const { shape } = trpcErrorAnswer(cause, { type: 'unknown', path, input: undefined, ctx: undefined });
    return { description, envelope: { error: { ...shape, data: { ...shape.data, httpStatus: status } } } };
  });
  const { description } = envelopes[0]!;
  return {
    status: description.status,
    headers: errorHeaders(description),
    contentType: 'application/json',
    body: JSON.stringify(batch ? envelopes.map((e) => e.envelope) : envelopes[0]!.envelope),
    fault: description.status >= 500 && description.kind !== 'UNAVAILABLE',
  };
}

/**
 * A path no route has: REST's 404 'Not found', or under /trpc what tRPC answers for a procedure it does not
 * have (`No procedure found on path "…"`, NOT_FOUND), per call of a batch.
 */
export function notFoundRefusal(request: { url: string; query: unknown }): Refusal {
  if (!isTrpcPath(request.url)) return refusalFor(request.url, notFound(MESSAGES.notFound));
  const pathPart = request.url.split('?')[0]!.slice('/trpc/'.length);
  let path: string;
  try {
    path = decodeURIComponent(pathPart);
  } catch {
    path = pathPart;
  }
  const batch = queryParam(request.query as Record<string, string | string[] | undefined>, 'batch') === '1';
  const paths = batch ? path.split(',') : [path];
  return trpcRefusal(
    paths.map((call) => ({ error: new TRPCError({ code: 'NOT_FOUND', message: `No procedure found on path "${call}"` }), path: call })),
    batch,
  );
}

/** How much of an over-long (or unread) body is read and dropped before its refusal is answered, and for how long. */
export interface BodyDiscard {
  bytes: number;
  ms: number;
}

/**
 * The default bound: a few megabytes, several times anything the API reads (100 KB), within 10 seconds.
 * A client sending more, or slower, has its connection closed (a slow sender cannot hold one open).
 */
export const BODY_DISCARD: BodyDiscard = { bytes: 8 * 1024 * 1024, ms: 10_000 };

/**
 * Reads and drops the rest of a request's body, so that its refusal can be answered and the connection
 * closed cleanly: a server that closes while the client is still sending resets the connection, and the
 * client, still writing, meets a broken pipe instead of the answer. True once the body has ended. False
 * when the client left, when the body takes longer than `limits.ms` (the answer then goes out and the
 * connection is closed: a slow sender cannot hold it), or when it is declared longer than `limits.bytes`
 * (answered at once, for a client that waits to read it). One sent past `limits.bytes` is not read further:
 * its connection is closed there and then.
 */
export function discardRestOfBody(request: IncomingMessage, limits: BodyDiscard): Promise<boolean> {
  if (request.complete || request.readableEnded) return Promise.resolve(true);
  if (Number(request.headers['content-length']) > limits.bytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    const done = (whole: boolean) => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('close', onClose);
      resolve(whole);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read <= limits.bytes) return;
      request.socket.destroy();
      done(false);
    };
    const onEnd = () => done(true);
    const onClose = () => done(request.complete || request.readableEnded);
    const timer = setTimeout(() => done(false), limits.ms);
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('close', onClose);
    request.resume();
  });
}

/** The request target at the start of the bytes Node's parser refused, when they start with a request line. */
function requestTarget(raw: unknown): string {
  const line = Buffer.isBuffer(raw) ? raw.subarray(0, 512).toString('latin1') : '';
  return /^[A-Z]+ (\/\S*)/.exec(line)?.[1] ?? '';
}

const refusedSockets = new WeakSet<Socket>();

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before any request exists, answered in
 * the shape of the path the request was for, when the refused bytes hold its request line (they do when
 * the request arrived in one piece, as nearly all do; otherwise REST's shape). Then the connection is
 * ended (FIN after the answer) and closed a moment later: the parser reads and drops what the client is
 * still sending (each new piece refused again, answered once), so the answer is not lost to a reset.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket, lingerMs = 2000): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || refusedSockets.has(socket)) return;
  refusedSockets.add(socket);
  // An answer already under way on this connection (a request pipelined behind it was refused): nothing can
  // be written without corrupting it, so the connection goes, as Node itself does.
  if (answerUnderWay(socket)) {
    socket.destroy();
    return;
  }
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, MESSAGES.requestHeadersTooLarge]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, MESSAGES.requestTooSlow]
        : [400, MESSAGES.requestUnreadable];
  const refusal = refusalFor(requestTarget(error.rawPacket), Object.assign(new Error(message), { statusCode: status }));
  const body = typeof refusal.body === 'string' ? refusal.body : JSON.stringify(refusal.body);
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${refusal.contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
