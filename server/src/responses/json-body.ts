import type { FastifyReply, FastifyRequest } from 'fastify';
import crypto from 'node:crypto';

/** A value serialised once: its JSON text and its ETag (made at the first answer that needs it). */
interface Prepared {
  json: string;
  etag?: string;
}

/**
 * Prepared values at least this long stay pieces of their own in a composed body (written as their shared
 * bytes, named by their ETag in its ETag); shorter ones join the text around them.
 */
const SHARED_PIECE_MIN = 1024;

/**
 * A response body: its pieces in order (text of its own, or a prepared value whose JSON every answer
 * shares), put together into one text when sent, and its entity tag. A standings page is one piece however
 * many callers read it; the caller's own part is a few hundred bytes around it, and the ETag names the page
 * by its own tag instead of hashing its 18 KB again. The ETag is hashed at its first use: a read needs it,
 * a live frame (5,000 of them after each pick) never does.
 */
export class JsonBody {
  private tag: string | undefined;

  constructor(
    readonly pieces: readonly (string | Prepared)[],
    /** For an envelope: the body inside and the variant its ETag adds to that body's. */
    private readonly inner?: { body: JsonBody; variant: string },
  ) {}

  get etag(): string {
    return (this.tag ??= this.computeTag());
  }

  private computeTag(): string {
    if (this.inner) return `${this.inner.body.etag.slice(0, -1)}-${this.inner.variant}"`;
    const [only] = this.pieces;
    if (this.pieces.length === 1 && only !== undefined && typeof only !== 'string') return tagOf(only);
    // The text of the answer, with each shared piece stood in for by its own ETag.
    return etagOf(this.pieces.map((p) => (typeof p === 'string' ? p : `\u0000${tagOf(p)}\u0000`)).join(''));
  }
}

const prepared = new WeakMap<object, Prepared>();

export function etagOf(text: string): string {
  // One-shot hash (Node ≥ 20.12): half the cost of a Hash object.
  return `"${crypto.hash('sha1', text, 'base64url')}"`;
}

const tagOf = (piece: Prepared) => (piece.etag ??= etagOf(piece.json));

/**
 * Serialises a value once, now, and remembers the bytes with it: a cache calls this when it builds an
 * answer (a standings page, the board, the draft status), and every response that sends the same value
 * reuses the bytes and their ETag instead of serialising it again. The value is frozen, because the
 * bytes would no longer match it if it changed.
 */
export function prepareJson<T extends object>(value: T): T {
  prepared.set(value, { json: JSON.stringify(value) });
  return Object.freeze(value);
}

/**
 * The body of a response. A prepared value gives its bytes as they are; a plain object holding prepared
 * values (a standings page plus the caller's own row) is put together around their bytes, so the big part
 * is neither serialised, hashed nor copied into a string again. Anything else is serialised.
 */
export function jsonBody(value: unknown): JsonBody {
  if (value === null || typeof value !== 'object') return new JsonBody([JSON.stringify(value) ?? 'null']);
  const whole = prepared.get(value);
  if (whole) return new JsonBody([whole]);
  if (Array.isArray(value) || !Object.values(value).some((v) => v !== null && typeof v === 'object' && prepared.has(v))) {
    return new JsonBody([JSON.stringify(value)]);
  }
  const body = new BodyBuilder('{');
  let first = true;
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || typeof v === 'function') continue;
    body.text(`${first ? '' : ','}${JSON.stringify(key)}:`);
    body.value(v);
    first = false;
  }
  body.text('}');
  return body.done();
}

/**
 * A body whose shape the caller knows, as a tagged template: the literal parts are JSON text as they are,
 * each value is serialised. What a hot path uses instead of jsonBody's walk over an object's keys, e.g.
 * the live frame sent to 5,000 streams.
 */
export function jsonTemplate(text: TemplateStringsArray, ...values: unknown[]): JsonBody {
  const body = new BodyBuilder(text[0]!);
  values.forEach((value, i) => {
    body.value(value);
    body.text(text[i + 1]!);
  });
  return body.done();
}

/** Puts a composed body together: its own text, and values serialised or, when prepared, as their shared pieces. */
class BodyBuilder {
  private readonly pieces: (string | Prepared)[] = [];

  constructor(private pending: string) {}

  text(json: string) {
    this.pending += json;
  }

  value(value: unknown) {
    const part = value !== null && typeof value === 'object' ? prepared.get(value) : undefined;
    if (!part) this.pending += typeof value === 'number' && Number.isFinite(value) ? String(value) : (JSON.stringify(value) ?? 'null');
    else if (part.json.length < SHARED_PIECE_MIN) this.pending += part.json;
    else {
      this.pieces.push(this.pending, part);
      this.pending = '';
    }
  }

  done(): JsonBody {
    this.pieces.push(this.pending);
    return new JsonBody(this.pieces);
  }
}

/** The same answer inside an envelope (tRPC's `{"result":{"data":…}}`, a batch of one), with its own ETag. */
export function enveloped(body: JsonBody, before: string, after: string, variant: string): JsonBody {
  return new JsonBody([before, ...body.pieces, after], { body, variant });
}

/** The body as text (a composed answer as one string; the tRPC live subscription parses it). */
export function jsonText(body: JsonBody): string {
  return body.pieces.map((p) => (typeof p === 'string' ? p : p.json)).join('');
}

/** Whether an `If-None-Match` header names this ETag (a list, `*`, or weak forms of it). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
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
  return reply.type('application/json; charset=utf-8').send(jsonText(body));
}
