import { tracked, type TrackedEnvelope } from '@trpc/server';
import { MAX_PUBLIC_STREAMS, MAX_PUBLIC_STREAMS_PER_IP } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import type { DraftChange, LiveMessage, PublicChangesInput } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { notFound, tooManyRequests } from '../../errors.js';
import { jsonText } from '../../responses/json-body.js';
import type { ByteSink } from '../../responses/gzip-stream.js';
import { sseFrame } from '../../trpc/sse.js';
import { toTrpcError } from '../../trpc/trpc.js';
import { publicStandingsUpdate } from '../leaderboard/leaderboard.service.js';
import { draftChangesAfter } from './draft.repository.js';
import { REPLAY_MAX } from './live-stream.js';
import { HOLD_FOR_PAGE_MS, holdPlace, QuietPings, SseWriter, TrackedQueue } from './stream-parts.js';

export type PublicLiveDeps = Pick<AppDeps, 'events' | 'orm' | 'log' | 'draftStatus' | 'leaderboards' | 'benchmarks' | 'config' | 'liveFanOut'>;

export interface PublicStreamLimits {
  perIp: number;
  total: number;
}

/** One message of a delivery: its SSE id and its JSON (framed as tRPC frames a tracked value: trpc/sse.ts). */
interface Message {
  id: number;
  json: string;
}

/** What every spectator gets at once: the messages, and their frames as one buffer written to every stream. */
interface Delivery {
  /** The draft change these messages are about (the standings after it carry its id). */
  eventId: number;
  /** Whether the draft change itself is in it (else: only the standings after it, sent late). */
  hasChange: boolean;
  messages: Message[];
  frame: Buffer;
}

/** Where one spectator's messages go: the SSE response (frames) or tRPC's machinery (values). */
interface Outlet {
  send(delivery: Delivery): void;
  /** When bytes last went out (QuietPings pings a stream only after a quiet spell). */
  readonly lastWriteAt: number;
  ping(): void;
  end(error?: unknown): void;
}

interface Spectator {
  outlet: Outlet;
  /** The newest change sent (or, before anything is, the client's last event id). */
  lastSent: number;
  /** While the replay after a reconnect is read: live deliveries, sent once it has been. */
  pending?: Delivery[];
  release: () => void;
  /** Its turn for a ping when quiet (QuietPings), given when it opens. */
  pingTurn: number;
}

const changeMessage = (change: DraftChange): Message => ({ id: change.event_id, json: JSON.stringify(change) });
const deliveryOf = (eventId: number, hasChange: boolean, messages: Message[]): Delivery => ({
  eventId,
  hasChange,
  messages,
  frame: Buffer.from(messages.map((m) => sseFrame([['data', m.json], ['id', String(m.id)]])).join('')),
});

/**
 * `draft.publicChanges`, the spectators' live stream (/live, no sign-in): every draft change (all of them
 * public: the picks recorded, the start, an undo, a team; no actor, no entry) and after each the public
 * top 100 re-ranked, `leaderboard.public`'s answer. What every stream gets is the same, so each change and
 * its page are serialised once into one buffer, written to every stream (compressed once for all gzip
 * streams, responses/gzip-stream.ts): one write per stream and pick. A page late past HOLD_FOR_PAGE_MS
 * lets its change go alone, and follows unless a newer change overtook it.
 *
 * Like the players' stream (live-stream.ts, which it shares the events bus with but nothing else): listen
 * first, replay what the client missed after its last event id from the audit log (then the current top
 * 100), live changes in order, never one twice, quiet streams pinged in turns, every stream ended on shutdown.
 * Bounded for callers nobody can name: `limits.perIp` streams per address and `limits.total` per instance
 * (429 past either). Off with PUBLIC_STANDINGS=false: 404, as leaderboard.public.
 */
export class PublicLiveStream {
  private readonly spectators = new Set<Spectator>();
  private readonly places = new Map<string, number>();
  private taken = 0;
  private readonly pings: QuietPings;
  private closed = false;
  /** Deliveries go out in the order of their changes. */
  private chain: Promise<void> = Promise.resolve();
  /** The newest change delivered: a late page goes out only while its change is still the newest. */
  private lastDelivered = 0;

  constructor(
    private readonly deps: PublicLiveDeps,
    pingMs: number,
    private readonly limits: PublicStreamLimits = { perIp: MAX_PUBLIC_STREAMS_PER_IP, total: MAX_PUBLIC_STREAMS },
  ) {
    this.pings = new QuietPings(pingMs, this.spectators);
    if (deps.config.PUBLIC_STANDINGS) deps.events.onChange((change) => this.broadcast(change));
  }

  /** Spectators' streams open on this instance. */
  get size() {
    return this.spectators.size;
  }

  /**
   * A stream for a spectator at `ip`, holding one of the address's places and one of the instance's (429
   * once either is full) until it ends or `signal` aborts; 404 when the standings are not public.
   */
  subscribe(ip: string, input: PublicChangesInput, signal?: AbortSignal): PublicLiveSubscription {
    if (!this.deps.config.PUBLIC_STANDINGS) throw notFound(MESSAGES.publicStandingsOff);
    return new PublicLiveSubscription(this, Number(input?.lastEventId ?? 0), signal, this.takePlace(ip, signal));
  }

  /** Server shutdown: every stream ends without a `return` event, so clients reconnect elsewhere. */
  close() {
    this.closed = true;
    this.pings.stop();
    for (const sub of this.spectators) {
      sub.outlet.end();
      sub.release();
    }
    this.spectators.clear();
  }

  private takePlace(ip: string, signal?: AbortSignal): () => void {
    if ((this.places.get(ip) ?? 0) >= this.limits.perIp) throw tooManyRequests(MESSAGES.publicStreamsPerIp(this.limits.perIp));
    if (this.taken >= this.limits.total) throw tooManyRequests(MESSAGES.publicStreamsFull(this.limits.total));
    this.taken += 1;
    return holdPlace(this.places, ip, signal, () => (this.taken -= 1));
  }

  /** @internal Starts a subscription's stream on its outlet. */
  open(sub: Spectator, signal: AbortSignal | undefined) {
    if (signal?.aborted) return sub.release();
    if (this.closed) {
      sub.release();
      return sub.outlet.end();
    }
    sub.pingTurn = this.pings.nextTurn();
    this.spectators.add(sub);
    signal?.addEventListener('abort', () => this.remove(sub), { once: true });
    this.pings.start();
    if (sub.lastSent > 0) void this.replay(sub);
  }

  /** @internal The stream ended on the spectator's side. */
  remove(sub: Spectator) {
    this.spectators.delete(sub);
    sub.release();
  }

  /** What the client missed after its last event id, then the top 100 as of the newest; live changes wait meanwhile. */
  private async replay(sub: Spectator) {
    sub.pending = [];
    let missed: DraftChange[];
    try {
      missed = await draftChangesAfter(this.deps.orm.em.fork(), sub.lastSent, REPLAY_MAX);
    } catch (error) {
      // A failure the client reconnects after, from the same event id: nothing is skipped.
      if (!this.spectators.has(sub)) return;
      this.deps.log.warn({ err: error }, 'public live stream: replay not read');
      this.remove(sub);
      return sub.outlet.end(toTrpcError(error) ?? error);
    }
    const caughtUp = sub.lastSent;
    const replayed = missed.filter((c) => c.event_id > sub.lastSent);
    const newest = replayed.at(-1)?.event_id ?? caughtUp;
    let page: Message | null = null;
    if (newest > caughtUp) {
      // The log can be ahead of this instance's bus (a notification on its way): the caches are marked
      // stale first, so the page is ranked with that change.
      if (this.deps.events.lastHeardEventId < newest) this.deps.events.touch(newest);
      page = await this.pageMessage(newest);
    }
    const pending = sub.pending;
    sub.pending = undefined;
    if (!this.spectators.has(sub)) return;
    const messages = replayed.map(changeMessage);
    if (page !== null && !pending.some((d) => d.eventId > newest)) messages.push(page);
    if (replayed.length > 0) this.send(sub, deliveryOf(newest, true, messages));
    for (const delivery of pending) this.send(sub, delivery);
  }

  private send(sub: Spectator, delivery: Delivery) {
    if (delivery.hasChange ? delivery.eventId <= sub.lastSent : delivery.eventId !== sub.lastSent) return;
    sub.lastSent = delivery.eventId;
    sub.outlet.send(delivery);
  }

  private deliver(delivery: Delivery) {
    if (delivery.hasChange) this.lastDelivered = delivery.eventId;
    for (const sub of this.spectators) {
      if (sub.pending) sub.pending.push(delivery);
      else this.send(sub, delivery);
    }
  }

  private broadcast(change: DraftChange) {
    // Nobody watching: no page to build (a reconnecting spectator's replay reads the log and ranks its own).
    if (this.spectators.size === 0) return;
    const done = this.deps.liveFanOut.begin();
    const page = this.pageMessage(change.event_id);
    const publish = async () => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), HOLD_FOR_PAGE_MS)));
      const first = await Promise.race([page, late]);
      clearTimeout(timer);
      const ready = first === 'late' ? null : first;
      this.deliver(deliveryOf(change.event_id, true, ready === null ? [changeMessage(change)] : [changeMessage(change), ready]));
      if (first !== 'late') return;
      // The page follows its change, unless a newer change went out meanwhile (its own page is newer).
      void page.then((message) => {
        if (message !== null && this.lastDelivered === change.event_id) this.deliver(deliveryOf(change.event_id, false, [message]));
      });
    };
    // A failure is logged and the chain goes on: a rejected chain would silence every later change.
    this.chain = this.chain
      .then(publish)
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'public live change not sent'))
      .finally(done);
  }

  /** The top 100 as of change `eventId` (a `standings` message); null when a newer change overtook the ranking. */
  private async pageMessage(eventId: number): Promise<Message | null> {
    try {
      const update = await publicStandingsUpdate(this.deps, eventId);
      if (this.deps.events.lastHeardEventId > eventId) return null;
      return { id: eventId, json: jsonText(update) };
    } catch (error) {
      // The page falls back to reading the standings itself (the web app waits only so long).
      this.deps.log.warn({ err: error }, 'public live standings not sent');
      return null;
    }
  }
}

/** One spectator's stream, as the procedure returns it: iterated by tRPC, or sent as frames by the SSE route. */
export class PublicLiveSubscription implements AsyncIterable<TrackedEnvelope<LiveMessage>> {
  private started = false;

  constructor(
    private readonly live: PublicLiveStream,
    private readonly lastEventId: number,
    private readonly signal: AbortSignal | undefined,
    private readonly release: () => void,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<TrackedEnvelope<LiveMessage>> {
    const outlet = new ValuesOutlet();
    const sub = this.start(outlet);
    outlet.onReturn = () => this.live.remove(sub);
    this.signal?.addEventListener('abort', () => outlet.end(), { once: true });
    if (this.signal?.aborted) outlet.end();
    return outlet;
  }

  /** Writes the stream to `out` (the response, or its gzip stream) as SSE frames; `failed` frames an error. */
  sendTo(out: ByteSink, failed: (error: unknown) => string) {
    this.start(new SpectatorSseOutlet(out, failed));
  }

  private start(outlet: Outlet): Spectator {
    if (this.started) throw new Error('a live subscription is read once');
    this.started = true;
    const sub: Spectator = { outlet, lastSent: this.lastEventId, release: this.release, pingTurn: 0 };
    this.live.open(sub, this.signal);
    return sub;
  }
}

/** Frames written to the response: each delivery as the buffer every spectator gets. */
class SpectatorSseOutlet extends SseWriter implements Outlet {
  send(delivery: Delivery) {
    this.write(delivery.frame);
  }
}

/** Messages as tRPC's tracked values (its own SSE adapter, a server-side caller). */
class ValuesOutlet extends TrackedQueue implements Outlet {
  send(delivery: Delivery) {
    for (const m of delivery.messages) this.push(tracked(String(m.id), JSON.parse(m.json) as LiveMessage));
  }
}
