import { EventEmitter, on } from 'node:events';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { draftChange, type DraftChange } from '@first-round/shared/schemas';
import type { Orm } from '../../db/orm.js';
import { tooManyRequests } from '../../errors.js';
import { CACHE_CHANNEL, invalidation, type Invalidation, type InvalidationSink } from '../../cache/invalidation.js';
import { DRAFT_CHANNEL } from './draft.service.js';
import { changesSince } from './draft.stream.js';

/** The listening connection's `application_name`. */
export const LISTENER_NAME = 'first-round draft events';

/** At most this many live streams per player on one instance: several tabs and devices, with room for reconnects. */
export const MAX_STREAMS_PER_USER = 20;

/**
 * Hears every draft change through PostgreSQL LISTEN/NOTIFY — from this process, another server instance,
 * or the operator's command line — and fans it out in process. A dropped connection (the database
 * restarting, say) is re-established with backoff; then the changes logged meanwhile, whose notifications
 * never arrived, are read from the audit log and delivered like live ones, and listeners get a `resync`
 * so they re-read state they may have missed.
 *
 * It also hears cache invalidations (CACHE_CHANNEL): every instance's in-memory caches subscribe here.
 * A cache may serve from memory only while `isConnected`: a missed invalidation would otherwise keep a
 * wrong answer (a signed-out token, an old name) alive; a resync tells every cache to start over.
 */
export class DraftEventHub implements InvalidationSink {
  private readonly emitter = new EventEmitter();
  private client: pg.Client | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private connected = false;
  /** Connection attempts failed in a row: the backoff grows with it and starts over after a success. */
  private failures = 0;
  private everConnected = false;
  /** The newest audit-log id delivered, or existing when listening began: where a catch-up starts. */
  private lastEventId = 0;
  /** Ids delivered on the current connection: a change both notified and read back is delivered once. */
  private heard = new Set<number>();
  private readonly openStreams = new Map<string, number>();
  streamsClosed = false;
  /** Increases with every change heard, board change or resync; caches compare it to know they are stale. */
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

  /** The newest draft change this instance has delivered. */
  get lastHeardEventId() {
    return this.lastEventId;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  private deliver(change: DraftChange) {
    this.heard.add(change.event_id);
    this.lastEventId = Math.max(this.lastEventId, change.event_id);
    this.version++;
    this.emitter.emit('change', change);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.heard = new Set();
    const client = new pg.Client({
      connectionString: this.orm.config.get('clientUrl'),
      connectionTimeoutMillis: 10_000,
      // Named in pg_stat_activity, for operators (and tests) looking for it.
      application_name: LISTENER_NAME,
    });
    client.on('error', (error) => {
      this.log.warn({ err: error.message }, 'draft event listener lost its connection');
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    client.on('notification', (message) => {
      if (!message.payload) return;
      if (message.channel === DRAFT_CHANNEL) {
        const parsed = draftChange.safeParse(JSON.parse(message.payload));
        if (parsed.success) this.deliver(parsed.data);
      } else if (message.channel === CACHE_CHANNEL) {
        const parsed = invalidation.safeParse(JSON.parse(message.payload));
        if (parsed.success) this.invalidate(parsed.data);
      }
    });
    try {
      await client.connect();
      // Listening first, then reading the log: nothing falls between the two (a change in both is
      // delivered once, see below).
      await client.query(`listen ${DRAFT_CHANNEL}`);
      await client.query(`listen ${CACHE_CHANNEL}`);
      const missed = this.everConnected ? await changesSince(this.orm.em.fork(), this.lastEventId) : [];
      if (!this.everConnected) {
        const newest = await client.query<{ id: string | null }>('select max(id) as id from draft_event');
        this.lastEventId = Math.max(this.lastEventId, Number(newest.rows[0]?.id ?? 0));
      }
      // After a drop, or a first connection that took several tries: what was read meanwhile may be stale.
      const resync = this.everConnected || this.failures > 0;
      this.client = client;
      this.connected = true;
      this.failures = 0;
      this.everConnected = true;
      for (const change of missed) if (!this.heard.has(change.event_id)) this.deliver(change);
      if (resync) {
        this.version++;
        this.emitter.emit('resync');
      }
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'draft event listener could not connect; retrying');
      this.reconnect(client);
    }
  }

  private reconnect(client: pg.Client) {
    client.removeAllListeners('end');
    client.end().catch(() => {});
    if (this.client && this.client !== client) return; // a late event of a connection already replaced
    this.client = undefined;
    this.connected = false;
    if (this.stopped || this.retryTimer) return;
    this.failures++;
    const delay = Math.min(5000, 100 * 2 ** Math.min(this.failures, 6));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
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

  /**
   * Every change from this call on, as an async iterator, until `signal` aborts (the caller's job once it
   * stops reading: that removes the listener) or the hub closes its streams (shutdown), which ends it.
   */
  changes(signal: AbortSignal): AsyncIterable<DraftChange> {
    const closed = new AbortController();
    const until = AbortSignal.any([signal, closed.signal]);
    const offClose = this.onClose(() => closed.abort());
    until.addEventListener('abort', offClose, { once: true });
    if (this.streamsClosed) closed.abort();
    const iterator = on(this.emitter, 'change', { signal: until });
    return (async function* () {
      try {
        for await (const [change] of iterator) yield change as DraftChange;
      } catch (error) {
        if (!until.aborted) throw error;
      }
    })();
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

  /** Applies an invalidation to this instance's caches (heard from the channel, or from a local write). */
  invalidate(message: Invalidation) {
    // The board is versioned with the draft: caches of the players and the draft state start over.
    if (message.kind === 'board') this.version++;
    this.emitter.emit('invalidate', message);
  }

  onInvalidate(listener: (message: Invalidation) => void): () => void {
    this.emitter.on('invalidate', listener);
    return () => this.emitter.off('invalidate', listener);
  }

  onResync(listener: () => void): () => void {
    this.emitter.on('resync', listener);
    return () => this.emitter.off('resync', listener);
  }

  /**
   * Marks local state stale without a database round trip (used when this process itself changed it):
   * unless change `eventId` was already heard, which did that (a second bump would only re-rank again).
   */
  touch(eventId?: number) {
    if (eventId !== undefined && this.heard.has(eventId)) return;
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
