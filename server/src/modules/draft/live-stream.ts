import { tracked, type TrackedEnvelope } from '@trpc/server';
import type { DraftChange, DraftChangesInput, LeaderboardInput, LiveMessage, StandingsMine, StandingsPage } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { tooManyRequests } from '../../errors.js';
import type { ByteSink } from '../../responses/gzip-stream.js';
import { changeFrame, trackedFrame } from '../../trpc/sse.js';
import { toTrpcError } from '../../trpc/trpc.js';
import { mayReadStandings, ownStandingJson, standingsMineJson, standingsPageJson, standingsView, type StandingsView } from '../leaderboard/leaderboard.service.js';
import { draftChangesAfter } from './draft.repository.js';
import { HOLD_FOR_PAGE_MS, holdPlace, QuietPings, SseWriter, TrackedQueue } from './stream-parts.js';

/** At most this many live streams per player on one instance: several tabs and devices, with room for reconnects. */
export const MAX_STREAMS_PER_USER = 20;

/** The most changes a reconnecting stream replays (a whole draft night is a few hundred). */
export const REPLAY_MAX = 500;

/** Watched pages whose newest frame is kept for the streams that open next (a page's key: group, size, filter). */
const MAX_KEPT_PAGES = 1_000;

export type LiveDeps = Pick<AppDeps, 'events' | 'orm' | 'log' | 'draftStatus' | 'leaderboards' | 'benchmarks' | 'liveFanOut'>;

/**
 * Where one subscriber's messages go: an SSE response, as frames (SseOutlet), or tRPC's own machinery,
 * as values it serialises and frames itself (IteratorOutlet). Everything else about a stream is the
 * same whichever it is, and lives in LiveStream.
 */
interface Outlet {
  /** A draft change; `shared` is its frame when the very same bytes go to every stream (a live change). */
  change(change: DraftChange, shared?: Buffer): void;
  /**
   * The watched page as of a change: the reader's own part first when it is sent (`mine`, a
   * `standings_me` message's JSON), then the page shared by all its watchers.
   */
  standings(page: SharedPage, mine: string | undefined): void;
  /** When bytes last went out (QuietPings pings a stream only after a quiet spell). */
  readonly lastWriteAt: number;
  ping(): void;
  /** No more messages: the server is shutting down (no error), or the stream failed. */
  end(error?: unknown): void;
  cork(): void;
  uncork(): void;
}

/**
 * A watched page's `standings_page` message as of one change, made once for all its watchers: whoever
 * reads it (the SSE route, tRPC, a public stream) gets the very same bytes.
 */
export interface SharedPage {
  eventId: number;
  json: string;
  /** Its SSE frame, one buffer for every stream (so a gzip stream compresses it once for all). */
  frame: Buffer;
  /** Parsed once, for the streams tRPC serialises itself. */
  value?: StandingsPage;
}

/** A watched page's message as of change `eventId`, once for all its watchers. */
function sharedPage(json: string, eventId: number): SharedPage {
  return { eventId, json, frame: Buffer.from(trackedFrame(json, eventId)) };
}

/** Whether two views of a page are made of the very same cached pieces (so their pages are the same bytes). */
function sameView(a: StandingsView, b: StandingsView): boolean {
  if (!a.started || !b.started) return a.started === b.started;
  return a.standings === b.standings && a.rows === b.rows && a.page === b.page && a.benchmarks === b.benchmarks;
}

/** What sendStandings did: when the standings it sent were ranked (performance.now()), if they were, and how many own parts went. */
interface Sent {
  rankedAt?: number;
  ownParts: number;
}

/** A change and its frame, made once per change for every stream. */
interface Delivery {
  change: DraftChange;
  frame: Buffer;
}

interface Subscriber {
  outlet: Outlet;
  participantId: string;
  /** The standings page on the client's screen, sent again after every change (draftChangesInput). */
  watch?: LeaderboardInput;
  /** The watched page's key: its watchers share one SharedPage. */
  watchKey?: string;
  /** The reader's own part of the page as last sent on this stream (ownStandingJson): not sent again unchanged. */
  lastMine?: string;
  /** Whether the caller may read the watched group; unknown until checked, and again after a join/leave. */
  allowed?: boolean;
  /** The newest change sent (or, before anything is, the client's last event id): nothing at or below it is sent. */
  lastSent: number;
  /** Changes waiting to go out with the page re-ranked after them (HOLD_FOR_PAGE_MS). */
  held?: Delivery[];
  /** While the replay after a reconnect is read: live changes, sent once the replay has been. */
  pending?: Delivery[];
  /** Gives the player's stream place back (any number of calls). */
  release: () => void;
  /** Its turn for a ping when quiet (QuietPings), given when it opens. */
  pingTurn: number;
}

/**
 * `draft.changes`, the live stream of every open page, in one implementation for both ways it is read:
 *
 * - the web app's EventSource, through the hand-written SSE route (draft.sse.ts): a change is serialised
 *   once into an SSE frame and that same buffer is written to every open stream (compressed once for all
 *   gzip streams, responses/gzip-stream.ts), so a pick reaches 5,000 pages in milliseconds; through tRPC's
 *   web streams each stream cost ~0.35 ms per change;
 * - tRPC itself (its SSE adapter, a server-side caller): the same messages as values, which tRPC frames.
 *
 * Either way the rules are these. The caller is signed in (the procedure checks) and holds one of their
 * MAX_STREAMS_PER_USER places. A stream listens first, then replays what the client missed after its
 * last event id from the audit log, then sends live changes in order, each with its audit-log id, never
 * one twice. A stream that names the standings page on its screen also gets that page when it first
 * opens, after every change (and after a replay), once re-ranked: the answer leaderboard.group gives, in two messages. The page
 * less the reader's own part (`standings_page`) is made once per change for all its watchers, the same
 * bytes to each (SharedPage); the reader's own row and place (`standings_me`) go before it on a stream's
 * first page and whenever they changed (the client keeps the last one: shared/src/live-standings.ts). The
 * change waits for them (HOLD_FOR_PAGE_MS at most) and all go out in one write. A group's standings go
 * only to its members (checked on the first page, and again after the group announces a join or leave). An SSE stream
 * quiet for a while gets a ping, in turns (QuietPings, SSE_OPTIONS' interval); tRPC pings its own. On shutdown every stream ends.
 */
export class LiveStream {
  private readonly subscribers = new Set<Subscriber>();
  private readonly places = new Map<string, number>();
  /** Each watched page's newest SharedPage and the view it was made from: streams opening between two changes share its frame. */
  private readonly keptPages = new Map<string, { view: StandingsView; page: SharedPage }>();
  private readonly pings: QuietPings;
  private closed = false;

  constructor(
    private readonly deps: LiveDeps,
    pingMs: number,
  ) {
    this.pings = new QuietPings(pingMs, this.subscribers);
    deps.events.onChange((change) => this.broadcast(change));
    deps.events.onInvalidate((message) => {
      // A member joined or left: whether each watcher of that group may read it is checked again.
      if (message.kind !== 'group') return;
      for (const sub of this.subscribers) if (sub.watch?.group_id === message.group_id) sub.allowed = undefined;
    });
  }

  /** Streams open on this instance. */
  get size() {
    return this.subscribers.size;
  }

  /**
   * A stream for the caller, holding one of their places (429 once all are in use) until it ends, the
   * caller stops reading or `signal` aborts (the client went away), whichever comes first; also if the
   * client leaves before the stream has started, which would otherwise keep the place until a restart.
   */
  subscribe(participantId: string, input: DraftChangesInput, signal?: AbortSignal): LiveSubscription {
    return new LiveSubscription(this, participantId, input, signal, this.takePlace(participantId, signal));
  }

  /** How many live streams the player holds open on this instance. */
  streamsOpenBy(participantId: string): number {
    return this.places.get(participantId) ?? 0;
  }

  /** Server shutdown: every stream ends (SSE ones without a `return` event, so clients reconnect elsewhere). */
  close() {
    this.closed = true;
    this.pings.stop();
    for (const sub of this.subscribers) {
      sub.outlet.end();
      sub.release();
    }
    this.subscribers.clear();
  }

  private takePlace(participantId: string, signal?: AbortSignal): () => void {
    if ((this.places.get(participantId) ?? 0) >= MAX_STREAMS_PER_USER) {
      throw tooManyRequests(`Too many live connections for this account (${MAX_STREAMS_PER_USER}). Close some tabs and try again.`);
    }
    return holdPlace(this.places, participantId, signal);
  }

  /** @internal Starts a subscription's stream on its outlet (LiveSubscription does). */
  open(sub: Subscriber, signal: AbortSignal | undefined) {
    if (signal?.aborted) return sub.release();
    if (this.closed) {
      sub.release();
      return sub.outlet.end();
    }
    sub.pingTurn = this.pings.nextTurn();
    this.subscribers.add(sub);
    signal?.addEventListener('abort', () => this.remove(sub), { once: true });
    this.pings.start();
    if (sub.lastSent > 0) void this.replay(sub);
    else if (sub.watch) void this.sendOpeningPage(sub);
  }

  /**
   * A page's first stream (no last event id) gets its standings page at once, as of the newest change this
   * instance heard, its reader's own part with it: the page is current from its first moment on the stream
   * instead of only from the next change, and a first pick after thousands of pages connected costs what
   * any other does (each stream's first page, its reader's first own part and its socket's first large
   * write otherwise all fell on that pick: docs/benchmarks.md). The web app holds it as it holds a read's
   * answer (client/src/lib/hold-gate.ts), so a viewer with a viewing delay sees nothing early. A reconnect
   * gets the page after its replay, as before; a stream before any change gets the first change's.
   */
  private async sendOpeningPage(sub: Subscriber) {
    const eventId = this.deps.events.lastHeardEventId;
    if (eventId > 0) await this.sendStandings([sub], eventId);
  }

  /** @internal The stream ended on the subscriber's side: it hears nothing more, and its place is free. */
  remove(sub: Subscriber) {
    this.subscribers.delete(sub);
    sub.release();
  }

  /**
   * What the client missed after its last event id, from the audit log. Live changes keep arriving
   * meanwhile (the stream listens first, so none falls between): they wait until the replay has gone out,
   * for a client reads its changes in order and resumes after the newest it saw.
   */
  private async replay(sub: Subscriber) {
    sub.pending = [];
    let missed: DraftChange[];
    try {
      missed = await draftChangesAfter(this.deps.orm.em.fork(), sub.lastSent, REPLAY_MAX);
    } catch (error) {
      // Sent as a failure (the database out of reach is a 503): the client reconnects from the same
      // event id, and nothing is skipped.
      if (!this.subscribers.has(sub)) return;
      this.deps.log.warn({ err: error }, 'live stream: replay not read');
      this.remove(sub);
      return sub.outlet.end(toTrpcError(error) ?? error);
    }
    const pending = sub.pending;
    sub.pending = undefined;
    if (!this.subscribers.has(sub)) return;
    const caughtUp = sub.lastSent;
    sub.outlet.cork();
    for (const change of missed) this.send(sub, change);
    for (const { change, frame } of pending) this.send(sub, change, frame);
    sub.outlet.uncork();
    // Caught up: the standings as of the newest change sent. The log can be ahead of this instance's bus
    // (a notification still on its way): then the caches are marked stale first, so the page is ranked
    // with that change; its notification, when it comes, goes past this stream (already sent) and would
    // otherwise leave the page one change behind until the next.
    if (sub.lastSent > caughtUp && sub.watch) {
      if (this.deps.events.lastHeardEventId < sub.lastSent) this.deps.events.touch(sub.lastSent);
      await this.sendStandings([sub], sub.lastSent);
    }
  }

  private send(sub: Subscriber, change: DraftChange, frame?: Buffer) {
    if (change.event_id <= sub.lastSent) return;
    sub.lastSent = change.event_id;
    sub.outlet.change(change, frame);
  }

  private broadcast(change: DraftChange) {
    const delivery: Delivery = { change, frame: Buffer.from(changeFrame(change)) };
    const watchers: Subscriber[] = [];
    for (const sub of this.subscribers) {
      if (sub.pending) sub.pending.push(delivery);
      else if (change.event_id <= sub.lastSent) continue;
      else if (sub.watch) {
        sub.lastSent = change.event_id;
        (sub.held ??= []).push(delivery);
        watchers.push(sub);
      } else {
        sub.lastSent = change.event_id;
        sub.outlet.change(change, delivery.frame);
      }
    }
    if (watchers.length === 0) return;
    const done = this.deps.liveFanOut.begin();
    const heardAt = performance.now();
    const late = setTimeout(() => watchers.forEach((sub) => this.releaseHeld(sub)), HOLD_FOR_PAGE_MS);
    const written = ({ rankedAt, ownParts }: Sent = { ownParts: 0 }) => {
      done();
      clearTimeout(late);
      for (const sub of watchers) this.releaseHeld(sub);
      // One line per change: on draft night, how long this instance took from hearing a pick to its
      // standings ranked and to the last open page written, and how many readers' own parts went with the
      // pages; `npm run bench:draft` reads it from the log.
      const since = (at: number | undefined) => (at === undefined ? undefined : Math.round(at - heardAt));
      this.deps.log.info({ eventId: change.event_id, streams: watchers.length, ownParts, rankedMs: since(rankedAt), ms: since(performance.now()) }, 'live fan-out written');
    };
    void this.sendStandings(watchers, change.event_id).then(written, () => written());
  }

  /** Sends the changes a stream holds for its page (with the page when the caller corked it). */
  private releaseHeld(sub: Subscriber) {
    const held = sub.held;
    sub.held = undefined;
    if (held && this.subscribers.has(sub)) for (const { change, frame } of held) sub.outlet.change(change, frame);
  }

  /**
   * The watched standings as of change `eventId`, once ranked (the global ranking started with the
   * change): each page once for all its watchers, and to each watcher its own part when it changed. Given up when a newer change
   * arrives meanwhile: it sends its own, newer standings, and a page never goes back to older ones.
   */
  private async sendStandings(watchers: Subscriber[], eventId: number): Promise<Sent> {
    // Not the cache version: that also moves when this instance marks its own change (touch) before or after
    // hearing it, and the standings read below are the newest whatever the version.
    const overtaken = () => this.deps.events.lastHeardEventId > eventId;
    const em = this.deps.orm.em.fork();
    const sent: Sent = { ownParts: 0 };
    try {
      await Promise.all([...new Set(watchers.map((s) => s.watch!.group_id))].map((groupId) => this.deps.leaderboards.get(groupId)));
      sent.rankedAt = performance.now();
      // Reads that came while the ranking was made are answered first, from it: resumed on the ranking
      // before them, the 5,000 writes below kept them waiting (docs/decisions.md, "National scale: the
      // fan-out"). One turn of the event loop; the writes then go in one go (yielding between slices of
      // them made the first pick after the pages connect slower, twice, on a busy machine).
      await new Promise((resolve) => setImmediate(resolve));
      const pages = new Map<string, { view: StandingsView; page: SharedPage }>();
      for (const sub of watchers) {
        if (overtaken()) return sent;
        if (!this.subscribers.has(sub) || sub.lastSent > eventId) continue;
        const watch = sub.watch!;
        if (sub.allowed === undefined) {
          const allowed = mayReadStandings(em, watch.group_id, sub.participantId);
          sub.allowed = typeof allowed === 'boolean' ? allowed : await allowed;
        }
        if (!sub.allowed) {
          this.releaseHeld(sub);
          continue;
        }
        let shared = pages.get(sub.watchKey!);
        if (!shared) {
          const view = await standingsView(this.deps, watch);
          pages.set(sub.watchKey!, (shared = { view, page: this.pageOf(sub.watchKey!, view, watch, eventId) }));
        }
        if (overtaken()) return sent;
        if (!this.subscribers.has(sub)) continue;
        const own = ownStandingJson(shared.view, sub.participantId);
        const mine = own === sub.lastMine ? undefined : standingsMineJson(watch.group_id, eventId, own);
        sub.lastMine = own;
        if (mine !== undefined) sent.ownParts += 1;
        sub.outlet.cork();
        this.releaseHeld(sub);
        sub.outlet.standings(shared.page, mine);
        sub.outlet.uncork();
      }
    } catch (error) {
      // The pages fall back to reading the standings themselves (the web app waits only so long).
      this.deps.log.warn({ err: error }, 'live standings not sent');
    }
    return sent;
  }

  /**
   * The watched page as of change `eventId`: the kept one when it is of the same change and made from the
   * same cached pieces (one frame for every stream opening between two changes, and no 18 KB of JSON put
   * together for each of them).
   */
  private pageOf(key: string, view: StandingsView, watch: LeaderboardInput, eventId: number): SharedPage {
    const kept = this.keptPages.get(key);
    if (kept && kept.page.eventId === eventId && sameView(kept.view, view)) return kept.page;
    if (this.keptPages.size >= MAX_KEPT_PAGES) this.keptPages.clear();
    const page = sharedPage(standingsPageJson(view, watch, eventId), eventId);
    this.keptPages.set(key, { view, page });
    return page;
  }
}

/**
 * One caller's `draft.changes` stream, as the procedure returns it: read as an async iterable of tracked
 * values by tRPC (its SSE adapter, or a server-side caller), or sent as frames by the SSE route
 * (`sendTo`). One or the other, once.
 */
export class LiveSubscription implements AsyncIterable<TrackedEnvelope<LiveMessage>> {
  private started = false;

  constructor(
    private readonly live: LiveStream,
    private readonly participantId: string,
    private readonly input: DraftChangesInput,
    private readonly signal: AbortSignal | undefined,
    private readonly release: () => void,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<TrackedEnvelope<LiveMessage>> {
    const outlet = new IteratorOutlet();
    const sub = this.start(outlet);
    outlet.onReturn = () => this.live.remove(sub);
    // The client went away: a read waiting for the next message ends instead of waiting forever.
    this.signal?.addEventListener('abort', () => outlet.end(), { once: true });
    if (this.signal?.aborted) outlet.end();
    return outlet;
  }

  /** Writes the stream to `out` (the response, or its gzip stream) as SSE frames; `failed` frames an error. */
  sendTo(out: ByteSink, failed: (error: unknown) => string) {
    this.start(new SseOutlet(out, failed));
  }

  private start(outlet: Outlet): Subscriber {
    if (this.started) throw new Error('a live subscription is read once');
    this.started = true;
    const watch = this.input?.standings;
    const sub: Subscriber = {
      outlet,
      participantId: this.participantId,
      watch,
      watchKey: watch && JSON.stringify(watch),
      lastSent: Number(this.input?.lastEventId ?? 0),
      release: this.release,
      pingTurn: 0,
    };
    this.live.open(sub, this.signal);
    return sub;
  }
}

/** Frames written straight to the response: a live change as its shared buffer, everything else as text. */
class SseOutlet extends SseWriter implements Outlet {
  change(change: DraftChange, shared?: Buffer) {
    this.write(shared ?? changeFrame(change));
  }

  standings(page: SharedPage, mine: string | undefined) {
    if (mine !== undefined) this.write(trackedFrame(mine, page.eventId));
    this.write(page.frame);
  }

  cork() {
    this.out.cork();
  }

  uncork() {
    this.out.uncork();
  }
}

/**
 * Messages as tRPC's tracked values, for tRPC to serialise: a standings page is parsed back from its
 * JSON once for all such streams (a rare path: the web app reads the SSE route). Pings are tRPC's own business there.
 */
class IteratorOutlet extends TrackedQueue implements Outlet {
  change(change: DraftChange) {
    this.push(tracked(String(change.event_id), change));
  }

  standings(page: SharedPage, mine: string | undefined) {
    const id = String(page.eventId);
    if (mine !== undefined) this.push(tracked(id, JSON.parse(mine) as StandingsMine));
    this.push(tracked(id, (page.value ??= Object.freeze(JSON.parse(page.json) as StandingsPage))));
  }

  cork() {}

  uncork() {}
}
