import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { draftChange, type DraftChange } from '@first-round/shared/schemas';
import type { Orm } from '../../db/orm.js';
import { tooManyRequests } from '../../errors.js';
import { DRAFT_CHANNEL } from './draft.service.js';

/** At most this many live streams per player on one instance: several tabs and devices, with room for reconnects. */
export const MAX_STREAMS_PER_USER = 20;

/**
 * Hears every draft change through PostgreSQL LISTEN/NOTIFY — from this process, another server instance,
 * or the operator's command line — and fans it out in process. A dropped connection is re-established
 * with backoff; after a reconnect listeners get a `resync` so they re-read state they may have missed.
 */
export class DraftEventHub {
  private readonly emitter = new EventEmitter();
  private client: pg.Client | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private connected = false;
  private readonly openStreams = new Map<string, number>();
  streamsClosed = false;
  /** Increases with every change heard or resync; caches compare it to know they are stale. */
  version = 0;

  constructor(
    private readonly orm: Orm,
    private readonly log: FastifyBaseLogger,
  ) {
    this.emitter.setMaxListeners(0);
  }

  get isConnected() {
    return this.connected;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect(0);
  }

  private async connect(attempt: number): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.orm.config.get('clientUrl') });
    client.on('error', (error) => {
      this.log.warn({ err: error.message }, 'draft event listener lost its connection');
      this.reconnect(client, attempt + 1);
    });
    client.on('end', () => this.reconnect(client, attempt + 1));
    client.on('notification', (message) => {
      if (message.channel !== DRAFT_CHANNEL || !message.payload) return;
      const parsed = draftChange.safeParse(JSON.parse(message.payload));
      if (!parsed.success) return;
      this.version++;
      this.emitter.emit('change', parsed.data);
    });
    try {
      await client.connect();
      await client.query(`listen ${DRAFT_CHANNEL}`);
      this.client = client;
      const wasReconnect = attempt > 0;
      this.connected = true;
      if (wasReconnect) {
        this.version++;
        this.emitter.emit('resync');
      }
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'draft event listener could not connect; retrying');
      this.reconnect(client, attempt + 1);
    }
  }

  private reconnect(client: pg.Client, attempt: number) {
    if (this.client === client) this.client = undefined;
    this.connected = false;
    client.removeAllListeners('end');
    client.end().catch(() => {});
    if (this.stopped || this.retryTimer) return;
    const delay = Math.min(5000, 100 * 2 ** Math.min(attempt, 6));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect(attempt);
    }, delay);
    this.retryTimer.unref();
  }

  /**
   * Takes one of the player's live-stream places (429 once all are in use); returns the release, which
   * may be called any number of times. The place is also given back when `signal` aborts (the client went
   * away), even if the stream itself never got to run: a client that leaves while the stream is still
   * being set up must not keep its place until the server restarts.
   */
  openStream(participantId: string, signal?: AbortSignal): () => void {
    const open = this.openStreams.get(participantId) ?? 0;
    if (open >= MAX_STREAMS_PER_USER) {
      throw tooManyRequests(`Too many live connections for this account (${MAX_STREAMS_PER_USER}). Close some tabs and try again.`);
    }
    this.openStreams.set(participantId, open + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      signal?.removeEventListener('abort', release);
      const left = (this.openStreams.get(participantId) ?? 1) - 1;
      if (left > 0) this.openStreams.set(participantId, left);
      else this.openStreams.delete(participantId);
    };
    if (signal?.aborted) release();
    else signal?.addEventListener('abort', release, { once: true });
    return release;
  }

  /** How many live streams the player holds open on this instance. */
  streamsOpenBy(participantId: string): number {
    return this.openStreams.get(participantId) ?? 0;
  }

  onChange(listener: (change: DraftChange) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }

  /** Ends every open subscription stream (server shutdown): SSE clients reconnect to another instance. */
  closeStreams() {
    this.streamsClosed = true;
    this.emitter.emit('close');
  }

  onClose(listener: () => void): () => void {
    this.emitter.on('close', listener);
    return () => this.emitter.off('close', listener);
  }

  onResync(listener: () => void): () => void {
    this.emitter.on('resync', listener);
    return () => this.emitter.off('resync', listener);
  }

  /** Marks local state stale without a database round trip (used when this process itself changed it). */
  touch() {
    this.version++;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.connected = false;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
    }
  }
}
