import type { TrackedEnvelope } from '@trpc/server';
import type { LiveMessage } from '@first-round/shared/schemas';

/*
 * What the players' live stream (live-stream.ts) and the spectators' (public-live-stream.ts) both need and
 * do alike: the places a caller holds while a stream is open, and the queue tRPC reads a stream from.
 */

/**
 * Takes one of `key`'s places in `places` (the caller has checked there is room) until the answer is called
 * or `signal` aborts, whichever comes first; `onRelease` runs once with it. Any number of calls release once.
 */
export function holdPlace(places: Map<string, number>, key: string, signal: AbortSignal | undefined, onRelease?: () => void): () => void {
  places.set(key, (places.get(key) ?? 0) + 1);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    signal?.removeEventListener('abort', release);
    onRelease?.();
    const left = (places.get(key) ?? 1) - 1;
    if (left > 0) places.set(key, left);
    else places.delete(key);
  };
  if (signal?.aborted) release();
  else signal?.addEventListener('abort', release, { once: true });
  return release;
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
