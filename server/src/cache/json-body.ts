import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A response body as sent, and its entity tag (a hash of exactly those bytes). */
export interface JsonBody {
  json: string;
  etag: string;
}

const prepared = new WeakMap<object, JsonBody>();

export function etagOf(text: string): string {
  return `"${crypto.createHash('sha1').update(text).digest('base64url')}"`;
}

/**
 * Serialises a value once, now, and remembers the bytes with it: a cache calls this when it builds an
 * answer (a standings page, the board, the draft status), and every response that sends the same value
 * reuses the bytes and their ETag instead of serialising it again. The value is frozen, because the
 * bytes would no longer match it if it changed.
 */
export function prepareJson<T extends object>(value: T): T {
  prepared.set(value, toBody(JSON.stringify(value)));
  return Object.freeze(value);
}

function toBody(json: string): JsonBody {
  return { json, etag: etagOf(json) };
}

/**
 * The body of a response. A prepared value gives its bytes as they are; a plain object holding prepared
 * values (a standings page plus the caller's own row) is put together from their bytes, and its ETag from
 * their ETags, so the big part is neither serialised nor hashed again. Anything else is serialised.
 */
export function jsonBody(value: unknown): JsonBody {
  if (value === null || typeof value !== 'object') return toBody(JSON.stringify(value) ?? 'null');
  const whole = prepared.get(value);
  if (whole) return whole;
  if (Array.isArray(value) || !Object.values(value).some((v) => v !== null && typeof v === 'object' && prepared.has(v))) {
    return toBody(JSON.stringify(value));
  }
  const parts: string[] = [];
  const identity: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || typeof v === 'function') continue;
    const part = v !== null && typeof v === 'object' ? prepared.get(v) : undefined;
    const json = part ? part.json : JSON.stringify(v);
    parts.push(`${JSON.stringify(key)}:${json}`);
    identity.push(part ? `${key}#${part.etag}` : `${key}=${json}`);
  }
  return { json: `{${parts.join(',')}}`, etag: etagOf(identity.join('\n')) };
}

/** Whether an `If-None-Match` header names this ETag (a list, `*`, or weak forms of it). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** The same entity tag for another representation of the same answer (tRPC's envelope, a batch of one). */
export function etagVariant(etag: string, variant: string): string {
  return `${etag.slice(0, -1)}-${variant}"`;
}

/**
 * A read's answer with its ETag: `304 Not Modified` when the client already holds these bytes. `private,
 * no-cache`: a browser may keep it but must ask each time (the answer depends on who asks and on the
 * draft), and shared caches must not keep it at all.
 */
export function sendRead(request: FastifyRequest, reply: FastifyReply, body: JsonBody) {
  // Added to what is there: CORS has already said the answer varies by Origin.
  const vary = reply.getHeader('vary');
  reply.header('etag', body.etag).header('cache-control', 'private, no-cache').header('vary', vary ? `${String(vary)}, authorization` : 'authorization');
  if (etagMatches(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(body.json);
}
