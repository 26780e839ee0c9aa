import type { ByteSink } from '../event-streams.js';
import { changeFrame, PING, trackedFrame } from './sse-frames.js';
import type { Delivery, Outlet, SharedPage } from '../live/outlets.js';

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

