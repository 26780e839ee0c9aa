import type { ServerResponse } from 'node:http';
import type { ByteSink } from '../event-streams.js';
import { changeFrame, PING, trackedFrame } from './sse-frames.js';
import type { Delivery, Outlet, SharedPage } from '../live/outlets.js';

/** The response under a stream's frames, as its outlet watches it: whether it took the last write, and when it drains. */
export type StreamSocket = Pick<ServerResponse, 'writableNeedDrain' | 'writableLength' | 'once' | 'destroy' | 'cork' | 'uncork'>;

/**
 * How long a stream ended while its reader takes nothing (closed for falling behind: live/hub.ts) keeps its
 * socket for the reader to read its last frames; then it is cut, and what waited in it goes with it.
 */
export const BEHIND_END_GRACE_MS = 30_000;

/**
 * Frames written straight to the response (or its gzip stream): a change's and a page's as the one buffer
 * every stream shares, the reader's own part as text. Ended with `failed`'s frame on a failure. Behind while
 * the response's socket does not take what was written (the hub then keeps what it owes the stream).
 */
export class SseOutlet implements Outlet {
  /** Opened just now, after the stream's `connected` frame. */
  lastWriteAt = performance.now();

  constructor(
    private readonly out: ByteSink,
    private readonly failed: (error: unknown) => string,
    private readonly socket?: StreamSocket,
  ) {}

  get behind() {
    return this.socket?.writableNeedDrain ?? false;
  }

  get buffered() {
    return this.socket?.writableLength ?? 0;
  }

  onDrain(then: () => void) {
    this.socket?.once('drain', then);
  }

  change(delivery: Delivery) {
    this.write((delivery.frame ??= Buffer.from(changeFrame(delivery.change))));
  }

  standings(page: SharedPage, mine: string | undefined) {
    if (mine !== undefined) this.write(trackedFrame(mine, page.eventId));
    this.write((page.frame ??= Buffer.from(trackedFrame(page.json, page.eventId))));
  }

  /** Not while behind: the socket is full, and its reader will hear from the stream when it drains. */
  ping() {
    if (!this.behind) this.write(PING);
  }

  /** Without a `return` event: the client reconnects (to another instance, on shutdown). */
  end(error?: unknown) {
    const socket = this.behind ? this.socket : undefined;
    if (error === undefined) this.out.end();
    else this.out.end(this.failed(error));
    if (socket) {
      const cut = setTimeout(() => socket.destroy(), BEHIND_END_GRACE_MS).unref();
      socket.once('close', () => clearTimeout(cut));
    }
  }

  cork() {
    this.out.cork();
  }

  uncork() {
    this.out.uncork();
  }

  /** The response's socket corked: what is written waits in the response's buffer, the kernel not yet asked. */
  hold() {
    this.socket?.cork();
  }

  /** The socket's write (one writev of what waited), once the last hold lets go. */
  release() {
    this.socket?.uncork();
  }

  private write(chunk: string | Buffer) {
    this.lastWriteAt = performance.now();
    this.out.write(chunk);
  }
}
