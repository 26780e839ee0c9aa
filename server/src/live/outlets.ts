import { tracked } from '@trpc/server';
import type { DraftChange, LiveMessage } from '@first-round/shared/schemas';
import { TrackedQueue } from './parts.js';

/** A change as the hub hands it to every stream: one object per change, its frame made once (by the first SSE stream that sends it). */
export interface Delivery {
  change: DraftChange;
  frame?: Buffer;
  /** Its JSON's length, once asked (what a stream that owes it holds: hub.ts, OwedLimits). */
  bytes?: number;
}

/** What a change held for a stream costs it, about: its JSON's length (measured once per change). */
export const bytesOf = (delivery: Delivery) => (delivery.bytes ??= JSON.stringify(delivery.change).length);

/**
 * A page as of one change, made once for all its watchers: whoever reads it (the SSE route, tRPC) gets the
 * very same bytes. Its frame is made by the first SSE stream that sends it, its value by the first tRPC one.
 */
export interface SharedPage {
  eventId: number;
  json: string;
  frame?: Buffer;
  value?: LiveMessage;
}

/**
 * Where one stream's messages go: an SSE response, as frames (wire/sse-outlet.ts), or tRPC's own machinery, as
 * values it serialises and frames itself (IteratorOutlet, below). Everything else about a stream is the same
 * whichever it is, and lives in the hub.
 */
export interface Outlet {
  change(delivery: Delivery): void;
  /** A page as of a change: the reader's own part first when it is sent (`mine`, its message's JSON), then the page. */
  standings(page: SharedPage, mine: string | undefined): void;
  /** When bytes last went out (QuietPings pings a stream only after a quiet spell). */
  readonly lastWriteAt: number;
  ping(): void;
  /** No more messages: the server is shutting down (no error), or the stream failed. */
  end(error?: unknown): void;
  cork(): void;
  uncork(): void;
  /**
   * Holds what is written from here on in the stream's own buffer, its socket corked, until `release`: the
   * fan-out makes every stream's bytes of a change first and then lets every socket go back to back (hub.ts,
   * sendStandings). Nested as cork is; a stream that ends meanwhile lets its socket go itself.
   */
  hold(): void;
  release(): void;
  /**
   * Whether the stream is behind: its socket took no more (a write found its buffer full) and has not
   * drained since. The hub then writes nothing more to it until `onDrain` calls back.
   */
  readonly behind: boolean;
  /** Bytes written to the stream and not yet taken by its socket. */
  readonly buffered: number;
  /** Calls `then` once, when a stream that is behind drains. */
  onDrain(then: () => void): void;
}

/**
 * Messages as tRPC's tracked values, for tRPC to serialise (its SSE adapter, a server-side caller): a page is
 * parsed back from its JSON once for all such streams. Pings are tRPC's own business there.
 */
export class IteratorOutlet extends TrackedQueue implements Outlet {
  change({ change }: Delivery) {
    this.push(tracked(String(change.event_id), change));
  }

  standings(page: SharedPage, mine: string | undefined) {
    const id = String(page.eventId);
    if (mine !== undefined) this.push(tracked(id, JSON.parse(mine) as LiveMessage));
    this.push(tracked(id, (page.value ??= Object.freeze(JSON.parse(page.json) as LiveMessage))));
  }

  cork() {}

  uncork() {}

  hold() {}

  release() {}

  /** tRPC reads the queue at its own pace: never behind here. */
  readonly behind = false;
  readonly buffered = 0;
  onDrain() {}
}
