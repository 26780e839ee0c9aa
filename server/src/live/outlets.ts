import { tracked } from '@trpc/server';
import type { DraftChange, LiveMessage } from '@first-round/shared/schemas';
import type { ByteSink } from '../responses/gzip-stream.js';
import { changeFrame, PING, trackedFrame } from '../trpc/sse.js';
import { TrackedQueue } from './parts.js';

/** A change as the hub hands it to every stream: one object per change, its frame made once (by the first SSE stream that sends it). */
export interface Delivery {
  change: DraftChange;
  frame?: Buffer;
}

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
 * Where one stream's messages go: an SSE response, as frames (SseOutlet), or tRPC's own machinery, as
 * values it serialises and frames itself (IteratorOutlet). Everything else about a stream is the same
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
}

/**
 * Frames written straight to the response (or its gzip stream): a change's and a page's as the one buffer
 * every stream shares, the reader's own part as text. Ended with `failed`'s frame on a failure.
 */
export class SseOutlet implements Outlet {
  /** Opened just now, after the stream's `connected` frame. */
  lastWriteAt = performance.now();

  constructor(
    private readonly out: ByteSink,
    private readonly failed: (error: unknown) => string,
  ) {}

  change(delivery: Delivery) {
    this.write((delivery.frame ??= Buffer.from(changeFrame(delivery.change))));
  }

  standings(page: SharedPage, mine: string | undefined) {
    if (mine !== undefined) this.write(trackedFrame(mine, page.eventId));
    this.write((page.frame ??= Buffer.from(trackedFrame(page.json, page.eventId))));
  }

  ping() {
    this.write(PING);
  }

  /** Without a `return` event: the client reconnects (to another instance, on shutdown). */
  end(error?: unknown) {
    if (error === undefined) this.out.end();
    else this.out.end(this.failed(error));
  }

  cork() {
    this.out.cork();
  }

  uncork() {
    this.out.uncork();
  }

  private write(chunk: string | Buffer) {
    this.lastWriteAt = performance.now();
    this.out.write(chunk);
  }
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
}
