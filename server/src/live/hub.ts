import type { TrackedEnvelope } from '@trpc/server';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DraftChange, LiveMessage } from '@first-round/shared/schemas';
import type { AppDeps } from '../deps.js';
import type { MaybePromise } from '../cache/maybe-promise.js';
import type { ByteSink } from '../event-streams.js';
import { SseOutlet, type StreamSocket } from '../wire/sse-outlet.js';
import { toTrpcError } from '../trpc/trpc.js';
import { tooManyRequests } from '../errors.js';
import { draftChangesAfter } from '../modules/draft/draft.repository.js';
import { HOLD_FOR_PAGE_MS, PlaceBook, QuietPings, type PlaceLimits } from './parts.js';
import { bytesOf, IteratorOutlet, type Delivery, type Outlet, type SharedPage } from './outlets.js';

export type { Delivery, SharedPage } from './outlets.js';

/** The most changes a reconnecting stream replays (a whole draft night is a few hundred). */
export const REPLAY_MAX = 500;

/**
 * What a stream that is behind (its socket not draining) may be owed before it is closed: changes, and bytes
 * (those changes', its newest page's and its own part's, and what waits in its socket's buffer). A reader
 * that comes back within them gets the changes and the newest page; past them, its memory is not worth
 * keeping: it reconnects from its last event id and replays (REPLAY_MAX is larger than `changes`).
 */
export interface OwedLimits {
  changes: number;
  bytes: number;
}

/** A whole draft night is a few hundred changes, a pick every few minutes; a page ~18 KB (100 rows). */
export const OWED_LIMITS: OwedLimits = { changes: 100, bytes: 256 * 1024 };

/** Why a stream that fell behind past OwedLimits was closed: the web app reconnects from its last event id. */
export const fellBehind = () =>
  tooManyRequests('This live stream fell behind: its connection did not take what was sent. Reconnect from the last event id seen.');

export type HubDeps = Pick<AppDeps, 'events' | 'orm' | 'log' | 'liveFanOut'>;

/**
 * What differs between the live streams, passed to the hub: who may open one (its places), which page
 * follows a change for a stream that watches one (`W`, a stream's watch; `P`, its page as of a change), whose
 * own part goes with it, and who may read it.
 */
export interface Channel<W, P extends SharedPage = SharedPage> {
  /** Its log lines' prefix: `<name> fan-out written`, `<name> standings not sent`. */
  readonly name: string;
  readonly places: PlaceLimits;
  /** Whether a stream without a last event id gets its page at once, as of the newest change heard. */
  readonly openingPage: boolean;
  /** Streams whose watches have the same key share one page (the very same bytes). */
  keyOf(watch: W): string;
  /**
   * Who may read a page, when not anyone: asked once per stream, and again after the watched page's group
   * announces a join or leave.
   */
  membership?: {
    mayRead(em: EntityManager, watch: W, reader: string): MaybePromise<boolean>;
    groupOf(watch: W): number;
  };
  /** Makes ready, once per change for all its watchers, what their pages read (the standings ranked). */
  rank(watches: W[]): Promise<unknown>;
  /** The page of `watch` as of change `eventId`, made once for all the streams of its key. */
  page(watch: W, eventId: number): MaybePromise<P>;
  /** The reader's own part of a page (compared with the last one sent: it goes only when it changed), and its message. */
  own?(page: P, reader: string): string;
  ownMessage?(watch: W, eventId: number, own: string): string;
}

/** What a stream is opened with. */
export interface StreamRequest<W> {
  /** Who reads it (a participant id, an address): its places and its own part are theirs. */
  reader: string;
  /** The page it watches, if any: sent after every change. */
  watch?: W;
  /** The last change the client saw: nothing at or below it is sent, what came after it is replayed. */
  lastEventId?: string | null;
}

/**
 * One open stream. Everything the hub knows about it lives here, so that what it has not sent yet stays
 * nameable: the changes held for its page, the live changes waiting behind its replay, and what it is owed
 * while its socket does not drain (only its newest page: older ones are dropped).
 */
interface Stream<W> {
  outlet: Outlet;
  reader: string;
  watch?: W;
  key?: string;
  /** The reader's own part as last sent on this stream: not sent again unchanged. */
  lastMine?: string;
  /** Whether the reader may read the watched page; unknown until checked, and again after a join/leave. */
  allowed?: boolean;
  /** The newest change sent (or, before anything is, the client's last event id): nothing at or below it is sent. */
  lastSent: number;
  /** Changes waiting to go out with the page re-ranked after them (HOLD_FOR_PAGE_MS). */
  held?: Delivery[];
  /** While the replay after a reconnect is read: live changes, sent once the replay has been. */
  pending?: Delivery[];
  /** While it is behind: the changes it missed and its newest page, written when it drains (OwedLimits). */
  owed?: Owed<SharedPage>;
  /** Gives the stream's place back (any number of calls). */
  release: () => void;
  /** Its turn for a ping when quiet (QuietPings), given when it opens. */
  pingTurn: number;
}

/** What a stream that is behind is owed: `bytes` counts the changes' (bytesOf). */
interface Owed<P> {
  changes: Delivery[];
  bytes: number;
  page?: P;
}

/**
 * What sendStandings did: when the standings it sent were ranked and when every stream's bytes were made, before
 * the sockets were let go (performance.now()), if they were, and how many own parts went.
 */
interface Sent {
  rankedAt?: number;
  madeAt?: number;
  ownParts: number;
}

/**
 * The one engine of every live stream (the players' `draft.changes`, the spectators' `draft.publicChanges`,
 * the TV view's), read either way: through the SSE route as frames (SseOutlet: each change's and each
 * page's frame made once and written to every stream, compressed once for all gzip streams), or through
 * tRPC's own machinery as tracked values (IteratorOutlet).
 *
 * The rules, the same for every channel: a caller holds one of the channel's places while a stream is open
 * (429 past its limits). A stream listens first, then replays what the client missed after its last event
 * id from the audit log, then sends live changes in order, each with its audit-log id, never one twice. A
 * stream that watches a page also gets it after every change (and after a replay, and when it opens if the
 * channel says so), once ranked: made once per change for all its watchers (SharedPage), with the reader's
 * own part before it when that changed. The change waits for its page (HOLD_FOR_PAGE_MS at most) and both go
 * out in one write; a page late past that follows its change unless a newer change overtook it. A page the
 * reader may not read never goes (checked on the first page, and again after its group announces a join or
 * leave). A quiet SSE stream gets a ping in its turn (QuietPings); tRPC pings its own. On shutdown every
 * stream ends.
 *
 * A stream that is behind (its socket has not taken what was written: a reader on a bad connection, a
 * frozen tab) is written nothing more until it drains; meanwhile it is owed the changes it missed and only
 * its newest page, and when it drains it gets them in one write (its own part as of that page). A stream
 * owed more than `owedLimits` is closed with a reason (fellBehind): the client reconnects from its last
 * event id and replays. What a slow reader costs is bounded, and it costs no writes while it is stuck.
 */
export class LiveHub<W, P extends SharedPage = SharedPage> {
  private readonly streams = new Set<Stream<W>>();
  private readonly places: PlaceBook;
  private readonly pings: QuietPings;
  private closed = false;
  /** What a stream that is behind may be owed (tests make it small). */
  owedLimits: OwedLimits = OWED_LIMITS;

  constructor(
    private readonly deps: HubDeps,
    pingMs: number,
    private readonly channel: Channel<W, P>,
  ) {
    this.places = new PlaceBook(channel.places);
    this.pings = new QuietPings(pingMs, this.streams);
    deps.events.onChange((change) => this.broadcast(change));
    const { membership } = channel;
    if (membership) {
      deps.events.onInvalidate((message) => {
        // A member joined or left: whether each watcher of that group may read it is checked again.
        if (message.kind !== 'group') return;
        for (const s of this.streams) if (s.watch !== undefined && membership.groupOf(s.watch) === message.group_id) s.allowed = undefined;
      });
    }
  }

  /** Streams open on this instance. */
  get size() {
    return this.streams.size;
  }

  /** How many streams `reader` holds open on this instance. */
  streamsOpenBy(reader: string): number {
    return this.places.count(reader);
  }

  /**
   * A stream for `request.reader`, holding one of their places (429 once all are in use) until it ends, the
   * caller stops reading or `signal` aborts (the client went away), whichever comes first; also if the
   * client leaves before the stream has started, which would otherwise keep the place until a restart.
   */
  protected subscribeAs(request: StreamRequest<W>, signal: AbortSignal | undefined): LiveSubscription {
    const release = this.places.take(request.reader, signal);
    return new LiveSubscription((outlet) => this.open(request, outlet, signal, release), signal);
  }

  /** Server shutdown: every stream ends (SSE ones without a `return` event, so clients reconnect elsewhere). */
  close() {
    this.closed = true;
    this.pings.stop();
    for (const s of this.streams) {
      s.outlet.end();
      s.release();
    }
    this.streams.clear();
  }

  /** Starts a stream on its outlet; its `remove`, for an outlet whose reader stops reading. */
  private open(request: StreamRequest<W>, outlet: Outlet, signal: AbortSignal | undefined, release: () => void): () => void {
    const { watch } = request;
    const s: Stream<W> = {
      outlet,
      reader: request.reader,
      watch,
      key: watch === undefined ? undefined : this.channel.keyOf(watch),
      allowed: this.channel.membership ? undefined : true,
      lastSent: Number(request.lastEventId ?? 0),
      release,
      pingTurn: 0,
    };
    const remove = () => this.remove(s);
    if (signal?.aborted) {
      release();
      return remove;
    }
    if (this.closed) {
      release();
      outlet.end();
      return remove;
    }
    s.pingTurn = this.pings.nextTurn();
    this.streams.add(s);
    signal?.addEventListener('abort', remove, { once: true });
    this.pings.start();
    if (s.lastSent > 0) void this.replay(s);
    else if (s.watch !== undefined && this.channel.openingPage) void this.sendOpeningPage(s);
    return remove;
  }

  /**
   * A page's first stream (no last event id) gets its page at once, as of the newest change this instance
   * heard, its reader's own part with it: the page is current from its first moment on the stream instead
   * of only from the next change, and a first pick after thousands of pages connected costs what any other
   * does (each stream's first page, its reader's first own part and its socket's first large write
   * otherwise all fell on that pick: docs/benchmarks.md). The web app holds it as it holds a read's answer
   * (client/src/lib/hold-gate.ts), so a viewer with a viewing delay sees nothing early.
   */
  private async sendOpeningPage(s: Stream<W>) {
    const eventId = this.deps.events.lastHeardEventId;
    if (eventId > 0) await this.sendStandings([s], eventId);
  }

  /** The stream ended on the reader's side: it hears nothing more, and its place is free. */
  private remove(s: Stream<W>) {
    this.streams.delete(s);
    s.release();
  }

  /**
   * What the client missed after its last event id, from the audit log. Live changes keep arriving
   * meanwhile (the stream listens first, so none falls between): they wait until the replay has gone out,
   * for a client reads its changes in order and resumes after the newest it saw.
   */
  private async replay(s: Stream<W>) {
    s.pending = [];
    let missed: DraftChange[];
    try {
      missed = await draftChangesAfter(this.deps.orm.em.fork(), s.lastSent, REPLAY_MAX);
    } catch (error) {
      // Sent as a failure (the database out of reach is a 503): the client reconnects from the same
      // event id, and nothing is skipped.
      if (!this.streams.has(s)) return;
      this.deps.log.warn({ err: error }, `${this.channel.name} stream: replay not read`);
      this.remove(s);
      return s.outlet.end(toTrpcError(error) ?? error);
    }
    const pending = s.pending;
    s.pending = undefined;
    if (!this.streams.has(s)) return;
    const caughtUp = s.lastSent;
    const changes: Delivery[] = [];
    for (const delivery of [...missed.map((change) => ({ change })), ...pending]) {
      if (delivery.change.event_id <= s.lastSent) continue;
      s.lastSent = delivery.change.event_id;
      changes.push(delivery);
    }
    this.deliver(s, changes);
    // Caught up: the page as of the newest change sent. The log can be ahead of this instance's bus (a
    // notification still on its way): then the caches are marked stale first, so the page is ranked with
    // that change; its notification, when it comes, goes past this stream (already sent) and would
    // otherwise leave the page one change behind until the next.
    if (s.lastSent > caughtUp && s.watch !== undefined) {
      if (this.deps.events.lastHeardEventId < s.lastSent) this.deps.events.logAhead(s.lastSent);
      await this.sendStandings([s], s.lastSent);
    }
  }

  /**
   * Writes changes to a stream, and a page after them (with the reader's own part when it changed), in one
   * write; to a stream that is behind, owes them instead. Whether the own part went.
   */
  private deliver(s: Stream<W>, changes: readonly Delivery[], page?: P): boolean {
    if (s.owed || s.outlet.behind) {
      this.owe(s, changes, page);
      return false;
    }
    const mine = page && this.ownPartOf(s, page);
    s.outlet.cork();
    for (const delivery of changes) s.outlet.change(delivery);
    if (page) s.outlet.standings(page, mine);
    s.outlet.uncork();
    return mine !== undefined;
  }

  /** The reader's own part of `page` as its message, when it changed since the last one sent on the stream. */
  private ownPartOf(s: Stream<W>, page: P): string | undefined {
    const { channel } = this;
    if (!channel.own) return undefined;
    const own = channel.own(page, s.reader);
    if (own === s.lastMine) return undefined;
    s.lastMine = own;
    return channel.ownMessage!(s.watch!, page.eventId, own);
  }

  /** Keeps what a stream that is behind missed, until it drains; closes it past owedLimits. */
  private owe(s: Stream<W>, changes: readonly Delivery[], page?: P) {
    if (!s.owed) {
      s.owed = { changes: [], bytes: 0 };
      s.outlet.onDrain(() => this.drained(s));
    }
    const owed = s.owed as Owed<P>;
    for (const delivery of changes) {
      owed.changes.push(delivery);
      owed.bytes += bytesOf(delivery);
    }
    if (page) owed.page = page;
    const bytes = owed.bytes + (owed.page?.json.length ?? 0) + (s.lastMine?.length ?? 0) + s.outlet.buffered;
    if (owed.changes.length <= this.owedLimits.changes && bytes <= this.owedLimits.bytes) return;
    this.remove(s);
    s.owed = undefined;
    this.deps.log.info({ reader: s.reader, changes: owed.changes.length, bytes }, `${this.channel.name} stream fell behind: closed`);
    s.outlet.end(toTrpcError(fellBehind()));
  }

  /** A stream that was behind took what waited in its socket: what it is owed goes, in one write. */
  private drained(s: Stream<W>) {
    const owed = s.owed as Owed<P> | undefined;
    s.owed = undefined;
    if (owed && this.streams.has(s)) this.deliver(s, owed.changes, owed.page);
  }

  private broadcast(change: DraftChange) {
    // One delivery for every stream: its frame is made once, by the first SSE stream that sends it.
    const delivery: Delivery = { change };
    const watchers: Stream<W>[] = [];
    for (const s of this.streams) {
      if (s.pending) s.pending.push(delivery);
      else if (change.event_id <= s.lastSent) continue;
      else if (s.watch !== undefined) {
        s.lastSent = change.event_id;
        (s.held ??= []).push(delivery);
        watchers.push(s);
      } else {
        s.lastSent = change.event_id;
        this.deliver(s, [delivery]);
      }
    }
    // Nobody watching a page: none is made.
    if (watchers.length === 0) return;
    const done = this.deps.liveFanOut.begin();
    const heardAt = performance.now();
    const late = setTimeout(() => watchers.forEach((s) => this.releaseHeld(s)), HOLD_FOR_PAGE_MS);
    const written = ({ rankedAt, madeAt, ownParts }: Sent = { ownParts: 0 }) => {
      done();
      clearTimeout(late);
      for (const s of watchers) this.releaseHeld(s);
      // One line per change: on draft night, how long this instance took from hearing a pick to its
      // standings ranked and to the last open page written, and how many readers' own parts went with the
      // pages; `npm run bench:draft` reads the players' from the log.
      const since = (at: number | undefined) => (at === undefined ? undefined : Math.round(at - heardAt));
      this.deps.log.info(
        { eventId: change.event_id, streams: watchers.length, ownParts, rankedMs: since(rankedAt), madeMs: since(madeAt), ms: since(performance.now()) },
        `${this.channel.name} fan-out written`,
      );
    };
    void this.sendStandings(watchers, change.event_id).then(written, () => written());
  }

  /** Sends the changes a stream holds for its page (without it: the page is late, or not for this reader). */
  private releaseHeld(s: Stream<W>) {
    const held = this.takeHeld(s);
    if (held.length > 0 && this.streams.has(s)) this.deliver(s, held);
  }

  private takeHeld(s: Stream<W>): Delivery[] {
    const held = s.held ?? [];
    s.held = undefined;
    return held;
  }

  /**
   * The watched pages as of change `eventId`, once ranked (the ranking started with the change): each page
   * once for all its watchers, and to each watcher its own part when it changed. Given up when a newer
   * change arrives meanwhile: that one sends its own, newer pages, and a page never goes back to older ones.
   */
  private async sendStandings(watchers: Stream<W>[], eventId: number): Promise<Sent> {
    // Not the draft topic's version: that also moves when this instance's own change commits, before or after
    // hearing it, and the standings read below are the newest whatever the version.
    const overtaken = () => this.deps.events.lastHeardEventId > eventId;
    const { channel } = this;
    const em = this.deps.orm.em.fork();
    const sent: Sent = { ownParts: 0 };
    // Every stream's bytes are made first, each held in its response (its socket corked), and then the sockets
    // are let go back to back: written stream by stream, each socket's write woke its reader mid-fan-out, and
    // where readers share the cores (a proxy, the bench's clients) the rest of the fan-out waited behind them
    // (docs/benchmarks.md, "Browser-like clients"). Let go before anything is awaited, so no stream waits on another's read.
    const holding: Outlet[] = [];
    const letGo = () => {
      for (const outlet of holding) outlet.release();
      holding.length = 0;
    };
    try {
      await channel.rank(watchers.map((s) => s.watch!));
      sent.rankedAt = performance.now();
      // Reads that came while the ranking was made are answered first, from it: resumed on the ranking
      // before them, the 5,000 writes below kept them waiting (docs/decisions.md, "National scale: the
      // fan-out"). One turn of the event loop; the writes then go in one go (yielding between slices of
      // them made the first pick after the pages connect slower, twice, on a busy machine).
      await new Promise((resolve) => setImmediate(resolve));
      const pages = new Map<string, P>();
      for (const s of watchers) {
        if (overtaken()) return sent;
        if (!this.streams.has(s) || s.lastSent > eventId) continue;
        const watch = s.watch!;
        if (s.allowed === undefined && channel.membership) {
          const allowed = channel.membership.mayRead(em, watch, s.reader);
          if (typeof allowed === 'boolean') s.allowed = allowed;
          else {
            letGo();
            s.allowed = await allowed;
          }
        }
        if (!s.allowed) {
          this.releaseHeld(s);
          continue;
        }
        let page = pages.get(s.key!);
        if (!page) {
          const made = channel.page(watch, eventId);
          if (made instanceof Promise) letGo();
          pages.set(s.key!, (page = made instanceof Promise ? await made : made));
        }
        if (overtaken()) return sent;
        if (!this.streams.has(s)) continue;
        s.outlet.hold();
        holding.push(s.outlet);
        if (this.deliver(s, this.takeHeld(s), page)) sent.ownParts += 1;
      }
      sent.madeAt = performance.now();
    } catch (error) {
      // The pages fall back to reading the standings themselves (the web app waits only so long).
      this.deps.log.warn({ err: error }, `${channel.name} standings not sent`);
    } finally {
      letGo();
    }
    return sent;
  }
}

/**
 * One stream as its procedure returns it: read as an async iterable of tracked values by tRPC (its SSE
 * adapter, or a server-side caller), or sent as frames by the SSE route (`sendTo`). One or the other, once.
 */
export class LiveSubscription implements AsyncIterable<TrackedEnvelope<LiveMessage>> {
  private started = false;

  constructor(
    private readonly start: (outlet: Outlet) => () => void,
    private readonly signal: AbortSignal | undefined,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<TrackedEnvelope<LiveMessage>> {
    const outlet = new IteratorOutlet();
    outlet.onReturn = this.open(outlet);
    // The client went away: a read waiting for the next message ends instead of waiting forever.
    this.signal?.addEventListener('abort', () => outlet.end(), { once: true });
    if (this.signal?.aborted) outlet.end();
    return outlet;
  }

  /**
   * Writes the stream to `out` (the response, or its gzip stream) as SSE frames; `failed` frames an error;
   * `socket` (the response) says whether its socket takes what is written.
   */
  sendTo(out: ByteSink, failed: (error: unknown) => string, socket?: StreamSocket) {
    this.open(new SseOutlet(out, failed, socket));
  }

  private open(outlet: Outlet): () => void {
    if (this.started) throw new Error('a live subscription is read once');
    this.started = true;
    return this.start(outlet);
  }
}
