import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { draftChangesInput, type DraftChange, type DraftChangesInput, type LeaderboardInput } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { createContextInner, type Context } from '../../trpc/context.js';
import { refuseNulInput, signedIn, toTrpcError } from '../../trpc/trpc.js';
import { appRouter } from '../../trpc/root.js';
import { parseConnectionParams, parseQueryInput, trpcErrorAnswer } from '../../trpc/wire.js';
import { parseInputWith } from '../../trpc/hot-read.js';
import { mayReadStandings, standingsFrame, standingsView, type StandingsView } from '../leaderboard/leaderboard.service.js';
import { enveloped, writeJson } from '../../cache/json-body.js';
import { acceptsGzip, GzipStream, type ByteSink } from '../../cache/gzip-stream.js';
import { changesSince } from './draft.stream.js';

const PATH = 'draft.changes';
/** The same headers tRPC sends with a subscription stream. */
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no', connection: 'keep-alive' };
/** tRPC's SSE framing: one field per line, then a blank line (tRPC adds one more; kept identical). */
const frame = (fields: Array<[string, string]>) => `${fields.map(([k, v]) => `${k}: ${v}\n`).join('')}\n\n`;
export const changeFrame = (change: DraftChange) => frame([['data', JSON.stringify(change)], ['id', String(change.event_id)]]);
/** Written to every stream alike: one buffer, so a gzip stream sends it compressed once for all (gzip-stream.ts). */
const PING = Buffer.from(frame([['event', 'ping'], ['data', '']]));
/**
 * How long a change waits for the page re-ranked after it, to go out with it in one write; past this it
 * goes alone. A write to a socket costs tens of µs on a busy machine however small it is, so one write per
 * stream and pick instead of two is a fifth of the fan-out; and the page never shows a pick before its
 * standings. Ranking 100,000 entries takes ~200 ms.
 */
const HOLD_FOR_PAGE_MS = 400;

interface Stream {
  res: ServerResponse;
  /** What the stream writes to: the response itself, or its gzip stream when the client accepts gzip. */
  out: ByteSink;
  lastSent: number;
  participantId: string;
  /** The standings page on the client's screen, sent again after every change (draftChangesInput). */
  watch?: LeaderboardInput;
  /** Whether the caller may read the watched group; unknown until checked, and again after a join/leave. */
  allowed?: boolean;
  /** Changes waiting to go out with the page re-ranked after them (HOLD_FOR_PAGE_MS). */
  held?: Buffer[];
}

/**
 * Live draft changes to every open page, over tRPC's own SSE wire format (the web app's
 * httpSubscriptionLink reads it unchanged), without tRPC's per-stream machinery: a change is serialised
 * once into an SSE frame and that same string is written to every open stream, so a pick reaches 5,000
 * pages in milliseconds instead of seconds (each stream through tRPC's web streams cost ~0.35 ms).
 *
 * A stream that names the standings page on its screen also gets that page after every change, once the
 * standings are re-ranked: the same answer leaderboard.group gives (the page serialised once for all, the
 * caller's own row added), so 5,000 open leaderboards show a pick without 5,000 requests. Its change waits
 * for that page (HOLD_FOR_PAGE_MS at most) and both go out in one write.
 *
 * Same rules as the `draft.changes` procedure: the token may come in `connectionParams` (EventSource
 * cannot send headers), the caller must be signed in, each player has at most MAX_STREAMS_PER_USER
 * streams, a reconnect with `lastEventId` replays what was missed from the audit log first, nothing is
 * delivered twice, and a group's standings go only to its members. A refusal is sent as tRPC sends it:
 * a `serialized-error` event.
 */
export class DraftChangeFanOut {
  private readonly streams = new Set<Stream>();
  private readonly pingTimer: NodeJS.Timeout;

  constructor(
    private readonly deps: AppDeps,
    pingMs: number,
  ) {
    const hub = deps.events;
    hub.onChange((change) => this.broadcast(change));
    hub.onClose(() => this.endAll());
    hub.onInvalidate((message) => {
      // A member joined or left: whether each watcher of that group may read it is checked again.
      if (message.kind !== 'group') return;
      for (const stream of this.streams) if (stream.watch?.group_id === message.group_id) stream.allowed = undefined;
    });
    this.pingTimer = setInterval(() => this.writeAll(PING), pingMs);
    this.pingTimer.unref();
  }

  get size() {
    return this.streams.size;
  }

  private broadcast(change: DraftChange) {
    const bytes = Buffer.from(changeFrame(change));
    const watchers: Stream[] = [];
    for (const stream of this.streams) {
      if (change.event_id <= stream.lastSent) continue;
      stream.lastSent = change.event_id;
      if (stream.watch) {
        (stream.held ??= []).push(bytes);
        watchers.push(stream);
      } else stream.out.write(bytes);
    }
    if (watchers.length === 0) return;
    const late = setTimeout(() => watchers.forEach((stream) => this.release(stream)), HOLD_FOR_PAGE_MS);
    void this.sendStandings(watchers, change.event_id).finally(() => {
      clearTimeout(late);
      for (const stream of watchers) this.release(stream);
    });
  }

  /** Writes the changes a stream holds for its page (with the page when the caller corked it). */
  private release(stream: Stream) {
    const held = stream.held;
    stream.held = undefined;
    if (held && this.streams.has(stream)) for (const bytes of held) stream.out.write(bytes);
  }

  /**
   * The watched standings as of change `eventId`, once ranked (each group once for all its watchers; the
   * global ranking started with the change). Given up when a newer change arrives meanwhile: it sends its
   * own, newer standings, and a page never goes back to older ones.
   */
  private async sendStandings(watchers: Stream[], eventId: number) {
    if (watchers.length === 0) return;
    // Not the cache version: that also moves when this instance marks its own change (touch) before or after
    // hearing it, and the standings read below are the newest whatever the version.
    const overtaken = () => this.deps.events.lastHeardEventId > eventId;
    const em = this.deps.orm.em.fork();
    try {
      await Promise.all([...new Set(watchers.map((s) => s.watch!.group_id))].map((groupId) => this.deps.leaderboards.get(groupId)));
      // Each watched page is read once for all its watchers; a watcher's frame is then only its own row
      // around the page's shared bytes, made without waiting on anything.
      const views = new Map<string, StandingsView>();
      for (const stream of watchers) {
        if (overtaken()) return;
        if (!this.streams.has(stream) || stream.lastSent > eventId) continue;
        stream.allowed ??= await mayReadStandings(em, stream.watch!.group_id, stream.participantId);
        if (!stream.allowed) {
          this.release(stream);
          continue;
        }
        const key = JSON.stringify(stream.watch);
        let view = views.get(key);
        if (!view) views.set(key, (view = await standingsView(this.deps, stream.watch!)));
        if (overtaken()) return;
        const update = standingsFrame(this.deps, view, stream.watch!, stream.participantId, eventId);
        if (!this.streams.has(stream)) continue;
        stream.out.cork();
        this.release(stream);
        writeJson(stream.out, enveloped(update, 'data: ', `\nid: ${eventId}\n\n\n`, 'frame'));
        stream.out.uncork();
      }
    } catch (error) {
      // The pages fall back to reading the standings themselves (the web app waits only so long).
      this.deps.log.warn({ err: error }, 'live standings not sent');
    }
  }

  private writeAll(bytes: Buffer) {
    for (const stream of this.streams) stream.out.write(bytes);
  }

  /** Server shutdown: streams end without a `return` event, so clients reconnect (to another instance). */
  private endAll() {
    clearInterval(this.pingTimer);
    for (const stream of this.streams) stream.out.end();
    this.streams.clear();
  }

  /** Starts a stream on `res` (headers already written), writing to `out`: replays after `lastEventId`, then live. */
  async open(res: ServerResponse, out: ByteSink, participantId: string, input: DraftChangesInput, release: () => void) {
    const lastEventId = Number(input?.lastEventId ?? 0);
    const stream: Stream = { res, out, lastSent: lastEventId, participantId, watch: input?.standings };
    if (res.destroyed) return release();
    // Listening before the replay is read: a change landing in between is in one or the other, and
    // `lastSent` keeps it from being sent twice.
    const missed = lastEventId > 0 ? changesSince(this.deps.orm.em.fork(), lastEventId) : Promise.resolve([]);
    this.streams.add(stream);
    res.on('close', () => {
      this.streams.delete(stream);
      release();
    });
    const replay = await missed.catch(() => []);
    let replayed = 0;
    for (const change of replay) {
      if (change.event_id <= stream.lastSent) continue;
      stream.lastSent = change.event_id;
      out.write(changeFrame(change));
      replayed = change.event_id;
    }
    // Caught up after a reconnect: the standings as of the last change replayed.
    if (replayed > 0 && stream.watch) await this.sendStandings([stream], replayed);
  }
}

export function registerDraftChangesSse(app: FastifyInstance, deps: AppDeps) {
  const sse = appRouter._def._config.sse;
  const fanOut = new DraftChangeFanOut(deps, sse?.ping?.intervalMs ?? 15_000);
  const connected = frame([['event', 'connected'], ['data', JSON.stringify(sse?.client ?? {})]]);

  app.get(`/trpc/${PATH}`, async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Record<string, string | undefined>;
    let ctx: Context | undefined;
    let input: unknown;
    let out: ByteSink | undefined;
    // Listened for first: a client that leaves while its token is still being checked must give its
    // place back (a 'close' that happened before a listener was added would never be heard).
    const left = new AbortController();
    reply.raw.on('close', () => left.abort());
    // Compressed when the client accepts it (browsers do): the fan-out's pages are shared pieces,
    // compressed once for all streams (gzip-stream.ts).
    const gzip = acceptsGzip(request.headers['accept-encoding']);
    const start = (): ByteSink => {
      reply.hijack();
      const headers = reply.getHeaders() as Record<string, string>;
      const vary = headers.vary ? `${headers.vary}, accept-encoding` : 'accept-encoding';
      reply.raw.writeHead(200, { ...headers, ...SSE_HEADERS, vary, ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
      const out = gzip ? new GzipStream(reply.raw) : reply.raw;
      out.write(connected);
      return out;
    };
    try {
      const params = parseConnectionParams(query.connectionParams);
      const token = params?.token;
      const raw = parseQueryInput(query.input, false) as Record<string, unknown> | undefined;
      // tRPC's rule: a Last-Event-ID (header, or query for EventSource polyfills) joins the input.
      const lastEventIdHeader = request.headers['last-event-id'] ?? query.lastEventId ?? query['Last-Event-Id'];
      input = lastEventIdHeader ? { ...raw, lastEventId: lastEventIdHeader } : raw;
      refuseNulInput([params, input]);
      ctx = await createContextInner({
        deps,
        authorization: request.headers.authorization ?? (token ? `Bearer ${token}` : undefined),
        ip: request.ip,
        headers: request.headers,
      });
      const { participant } = await signedIn({ ...ctx, em: deps.orm.em.fork() });
      const parsed = parseInputWith(draftChangesInput, input);
      const release = deps.events.openStream(participant.id, left.signal);
      if (left.signal.aborted) return reply.hijack();
      out = start();
      await fanOut.open(reply.raw, out, participant.id, parsed, release);
    } catch (cause) {
      const { shape } = trpcErrorAnswer(toTrpcError(cause) ?? cause, { type: 'subscription', path: PATH, input, ctx });
      if (!out && !reply.sent && !reply.raw.headersSent) out = start();
      (out ?? reply.raw).end(frame([['event', 'serialized-error'], ['data', JSON.stringify(shape)]]));
    }
  });
  return fanOut;
}
