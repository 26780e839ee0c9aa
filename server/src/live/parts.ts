import type { TrackedEnvelope } from '@trpc/server';
import type { LiveMessage } from '@first-round/shared/schemas';

/*
 * The pieces of the live hub (hub.ts) that stand on their own: the places callers hold while their streams
 * are open, how long a change waits for its page, the pings of quiet streams, and the queue tRPC reads a
 * stream from.
 */

/** How many streams one caller may hold (`perKey`) and one instance (`total`), and what a refusal says. */
export interface PlaceLimits {
  perKey: number;
  total?: number;
  /** The 429 for a caller holding `perKey` already. */
  fullForKey(limit: number): Error;
  /** The 429 for an instance holding `total` already. */
  fullForAll?(limit: number): Error;
}

/**
 * The places of one channel's streams: per caller (a player, an address) and in all. A place is held from
 * `take` until its release is called or the signal aborts, whichever comes first; any number of calls
 * release once.
 */
export class PlaceBook {
  private readonly held = new Map<string, number>();
  private taken = 0;

  constructor(private readonly limits: PlaceLimits) {}

  /** How many places `key` holds. */
  count(key: string): number {
    return this.held.get(key) ?? 0;
  }

  /** One of `key`'s places (the limit's 429 when none is left), and its release. */
  take(key: string, signal: AbortSignal | undefined): () => void {
    const { perKey, total, fullForKey, fullForAll } = this.limits;
    if (this.count(key) >= perKey) throw fullForKey(perKey);
    if (total !== undefined && this.taken >= total) throw fullForAll?.(total) ?? fullForKey(perKey);
    this.taken += 1;
    this.held.set(key, this.count(key) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      signal?.removeEventListener('abort', release);
      this.taken -= 1;
      const left = this.count(key) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
    if (signal?.aborted) release();
    else signal?.addEventListener('abort', release, { once: true });
    return release;
  }
}

/** The live streams' SSE settings, for tRPC (trpc/trpc.ts) and the frames written by hand (wire/sse-frames.ts) alike. */
export const SSE_OPTIONS = {
  // A ping keeps proxies from closing idle streams (the live hub pings a quiet one in its turn, once an
  // interval: QuietPings below); clients reconnect after this much silence.
  ping: { enabled: true, intervalMs: 15_000 },
  client: { reconnectAfterInactivityMs: 40_000 },
} as const;

/**
 * How long a change waits for the page re-ranked after it (every channel: the players' watched page, the
 * spectators' top 100), to go out with it in one write; past this it goes alone. A write to a socket costs
 * tens of µs on a busy machine however small it is, so one write per stream and pick instead of two is a
 * fifth of the fan-out; and the page never shows a pick before its standings. Ranking 100,000 entries
 * takes 100–250 ms, the first pick after thousands of pages connect up to ~500 ms on a slow two-core
 * machine, a million entries ~1 s: at 400 ms (as it was) such a pick wrote every change alone and then
 * every page, 5,000 more writes while the pages waited (docs/benchmarks.md).
 */
export const HOLD_FOR_PAGE_MS = 1_000;

/** How many turns a ping interval is cut into: each turn looks at one slice of the streams. */
export const PING_TURNS = 15;

/** A stream as QuietPings sees it. */
export interface PingedStream {
  /** Which of the PING_TURNS turns looks at it (QuietPings.nextTurn, when it opens). */
  readonly pingTurn: number;
  readonly outlet: {
    /** When bytes last went out on it (performance.now()); Infinity for a stream tRPC pings itself. */
    readonly lastWriteAt: number;
    ping(): void;
  };
}

/**
 * Pings the open SSE streams that have been quiet, so that proxies keep them open and a client knows its
 * stream is alive (it reconnects after SSE_OPTIONS' inactivity). Two rules matter with thousands of
 * streams (docs/decisions.md, "National scale: the fan-out", pings in turns):
 * - **Only the quiet ones:** a stream that carried anything in the last half interval needs no ping (as
 *   tRPC's own pings, which follow silence). A stream is pinged at most once an interval, and is never
 *   quiet for much more than an interval and a half.
 * - **In turns:** each stream belongs to one of PING_TURNS turns, and a tick, every interval / PING_TURNS,
 *   looks only at its turn's streams. Pinging 5,000 streams at once was 5,000 socket writes in one go
 *   (~230 ms on the benchmark's machine), and a pick heard meanwhile waited behind them.
 */
export class QuietPings {
  private timer: NodeJS.Timeout | undefined;
  private turn = 0;
  private opened = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly streams: Iterable<PingedStream>,
  ) {}

  /** The turn of a stream opening now: streams take turns in the order they open. */
  nextTurn(): number {
    const turn = this.opened;
    this.opened = (turn + 1) % PING_TURNS;
    return turn;
  }

  /** Starts the ticks, once (they never keep the process alive). */
  start() {
    this.timer ??= setInterval(() => this.tick(), this.intervalMs / PING_TURNS).unref();
  }

  stop() {
    clearInterval(this.timer);
  }

  private tick() {
    const turn = this.turn;
    this.turn = (turn + 1) % PING_TURNS;
    const quietSince = performance.now() - this.intervalMs / 2;
    for (const stream of this.streams) if (stream.pingTurn === turn && stream.outlet.lastWriteAt <= quietSince) stream.outlet.ping();
  }
}

/**
 * A stream's messages as tRPC's tracked values, for tRPC to serialise (its SSE adapter, a server-side
 * caller): pushed as they come, read in order. A read waits for the next message; after `end` the reads
 * get what was queued, then the end (a failure, once, after what came before it). `return` (the reader
 * stopped) drops the queue and calls `onReturn`. Pings are tRPC's own business here.
 */
export class TrackedQueue implements AsyncIterator<TrackedEnvelope<LiveMessage>> {
  private readonly queue: TrackedEnvelope<LiveMessage>[] = [];
  /** Reads waiting for a message, oldest first (a reader may ask for several before any has come). */
  private readonly waiting: Array<{ resolve: (result: IteratorResult<TrackedEnvelope<LiveMessage>>) => void; reject: (error: unknown) => void }> = [];
  private ended = false;
  /** Why the stream ended, until a read has been told. */
  private failure: { error: unknown } | undefined;
  onReturn: () => void = () => {};
  /** tRPC pings its own streams: QuietPings never finds this one quiet. */
  readonly lastWriteAt = Infinity;

  ping() {}

  end(error?: unknown) {
    if (this.ended) return;
    this.ended = true;
    if (error !== undefined) this.failure = { error };
    this.settle();
  }

  next(): Promise<IteratorResult<TrackedEnvelope<LiveMessage>>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.settle();
    });
  }

  return(): Promise<IteratorResult<TrackedEnvelope<LiveMessage>>> {
    this.onReturn();
    this.queue.length = 0;
    this.end();
    return Promise.resolve({ done: true, value: undefined });
  }

  protected push(value: TrackedEnvelope<LiveMessage>) {
    if (this.ended) return;
    this.queue.push(value);
    this.settle();
  }

  /** Answers waiting reads: the next messages, then the end. */
  private settle() {
    while (this.waiting.length > 0 && this.queue.length > 0) this.waiting.shift()!.resolve({ done: false, value: this.queue.shift()! });
    if (!this.ended || this.waiting.length === 0) return;
    for (const waiting of this.waiting.splice(0)) {
      const failure = this.failure;
      this.failure = undefined;
      if (failure) waiting.reject(failure.error);
      else waiting.resolve({ done: true, value: undefined });
    }
  }
}
