import { EventEmitter } from 'node:events';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { draftChange, type DraftChange } from '@first-round/shared/schemas';
import type { Orm } from '../db/orm.js';
import { OwnConnection } from '../db/own-connection.js';
import { sql } from '../db/sql.js';
import { afterCommit } from '../db/after-commit.js';
import { CACHE_CHANNEL, invalidation, type Invalidation, type InvalidationSink } from '../cache/invalidation.js';
import { DRAFT_CHANNEL, draftChangesAfter } from '../modules/draft/draft.repository.js';
import { PICKS_CHANNEL, picksChange } from '../modules/picks/picks.events.js';
import { PUSH_CHANNEL, pushQueued } from '../modules/push/push.events.js';

/**
 * What instances tell each other, each topic on its own PostgreSQL NOTIFY channel, its payload checked by
 * its schema. Named here, all of them, so that what crosses between instances can be read in one place.
 */
export const TOPICS = {
  /** A draft change (the operator, the feed, the deadline): the audit-log event itself. */
  draft: { channel: DRAFT_CHANNEL, schema: draftChange },
  /** A cache invalidation: sessions ended, a participant renamed, a group's members, the board. */
  cache: { channel: CACHE_CHANNEL, schema: invalidation },
  /** A player saved picks: rankings made from the old ones are stale. */
  picks: { channel: PICKS_CHANNEL, schema: picksChange },
  /** Pushes waiting in push_delivery that the sending instance has not queued (the reminder wrote them). */
  push: { channel: PUSH_CHANNEL, schema: pushQueued },
} as const;

export type Topic = keyof typeof TOPICS;
export type TopicMessage<T extends Topic> = z.output<(typeof TOPICS)[T]['schema']>;
/** Heard on this instance only: after a reconnect, whatever was read meanwhile may be stale. */
type LocalTopic = 'resync';

const TOPIC_OF_CHANNEL = new Map<string, Topic>(Object.entries(TOPICS).map(([topic, { channel }]) => [channel, topic as Topic]));

/** The listening connection's `application_name`. */
export const LISTENER_NAME = 'first-round topic bus';

/** How much of a refused payload a warning quotes: enough to recognise it, never a flood. */
const QUOTED_PAYLOAD = 200;

/**
 * This instance's end of the topic bus: one PostgreSQL connection that LISTENs on every topic's channel
 * (TOPICS) and hands each message, once its payload is checked, to the listeners of its topic in this
 * process. What one instance (or the operator's command line) publishes, every instance hears.
 *
 * A payload that is not JSON, or not its topic's shape, is logged and skipped; a listener that throws is
 * logged: either way the connection keeps listening, because a deaf instance would serve stale answers.
 *
 * A dropped connection (the database restarting, say) is re-established with backoff; then the draft
 * changes logged meanwhile, whose notifications never arrived, are read from the audit log and delivered
 * like live ones (draft changes are the one topic with a log), and `resync` listeners are told to start
 * over. A cache may serve from memory only while `isConnected`: a missed invalidation would otherwise keep
 * a wrong answer (a signed-out token, an old name) alive.
 */
export class TopicBus implements InvalidationSink {
  private readonly emitter = new EventEmitter();
  private client: OwnConnection | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private connected = false;
  /** Connection attempts failed in a row: the backoff grows with it and starts over after a success. */
  private failures = 0;
  private everConnected = false;
  /** The newest audit-log id delivered, or existing when listening began: where a catch-up starts. */
  private lastEventId = 0;
  /** Draft change ids delivered on the current connection: a change both notified and read back is delivered once. */
  private heard = new Set<number>();
  /** Increases with every draft change heard, board change or resync; caches compare it to know they are stale. */
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

  /** Listens to a topic on this instance; returns what stops listening. */
  on<T extends Topic>(topic: T | LocalTopic, listener: (message: TopicMessage<T>) => void): () => void {
    this.emitter.on(topic, listener);
    return () => this.emitter.off(topic, listener);
  }

  /** Draft changes (the caches' name for `on('draft')`). */
  onChange(listener: (change: DraftChange) => void): () => void {
    return this.on('draft', listener);
  }

  /** Cache invalidations (the caches' name for `on('cache')`). */
  onInvalidate(listener: (message: Invalidation) => void): () => void {
    return this.on('cache', listener);
  }

  onResync(listener: () => void): () => void {
    return this.on('resync', listener);
  }

  /**
   * Publishes on `em`'s connection: inside a transaction every instance hears it once that commits, and
   * none if it rolls back. This instance's listeners hear it as soon as it commits, not only when the
   * NOTIFY comes back: the writer's own next read must already see it (they hear the echo too, so what a
   * listener does must be harmless twice). Draft changes are published by the draft service with their
   * audit-log entry (draft.repository.ts).
   */
  async publish<T extends Exclude<Topic, 'draft'>>(em: EntityManager, topic: T, message: TopicMessage<T>): Promise<void> {
    await sql(em, `select pg_notify($1, $2)`, [TOPICS[topic].channel, JSON.stringify(message)]);
    afterCommit(em, () => this.receive(topic, message));
  }

  /** Applies an invalidation to this instance's caches (heard from the channel, or from a local write). */
  invalidate(message: Invalidation) {
    this.receive('cache', message);
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
    await client?.close();
  }

  /** A message of `topic`, checked, to this instance's listeners (with what the topic itself implies). */
  private receive<T extends Topic>(topic: T, message: TopicMessage<T>) {
    if (topic === 'draft') {
      const change = message as DraftChange;
      this.heard.add(change.event_id);
      this.lastEventId = Math.max(this.lastEventId, change.event_id);
      this.version++;
    } else if (topic === 'cache' && (message as Invalidation).kind === 'board') {
      // The board is versioned with the draft: caches of the players and the draft state start over.
      this.version++;
    }
    this.emit(topic, message);
  }

  /** To every listener, even when one of them throws: the others (and the listening connection) carry on. */
  private emit(topic: Topic | LocalTopic, message?: unknown) {
    for (const listener of this.emitter.listeners(topic) as Array<(message: unknown) => void>) {
      try {
        listener(message);
      } catch (error) {
        this.log.error({ err: error, topic }, 'a topic listener failed');
      }
    }
  }

  /** A notification as PostgreSQL delivered it: a payload that is not its topic's message is logged and skipped. */
  private heardNotification(channel: string, payload: string | undefined) {
    const topic = TOPIC_OF_CHANNEL.get(channel);
    if (!topic) return;
    let value: unknown;
    try {
      value = JSON.parse(payload ?? '');
    } catch {
      this.log.warn({ channel, payload: payload?.slice(0, QUOTED_PAYLOAD) }, 'topic bus: skipped a notification that is not JSON');
      return;
    }
    const parsed = TOPICS[topic].schema.safeParse(value);
    if (!parsed.success) {
      this.log.warn({ channel, payload: payload?.slice(0, QUOTED_PAYLOAD), issues: parsed.error.issues.slice(0, 3) }, `topic bus: skipped a notification that is not a ${topic} message`);
      return;
    }
    if (topic === 'draft' && this.heard.has((parsed.data as DraftChange).event_id)) return;
    this.receive(topic, parsed.data as TopicMessage<typeof topic>);
  }

  /** Opens the listening connection (db/own-connection.ts), or schedules the next try. */
  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.heard = new Set();
    const connection = new OwnConnection(
      // Named in pg_stat_activity, for operators (and tests) looking for it.
      { connectionString: this.orm.config.get('clientUrl'), application_name: LISTENER_NAME },
      (error) => {
        // Lost while still starting to listen: the start fails too, and says so.
        if (this.client === connection) this.log.warn({ err: error.message }, 'topic bus lost its connection');
        this.reconnect(connection);
      },
    );
    connection.onNotification((message) => this.heardNotification(message.channel, message.payload));
    try {
      await connection.connect();
      // Listening first, then reading the log: nothing falls between the two (a change in both is
      // delivered once, see heardNotification).
      for (const { channel } of Object.values(TOPICS)) await connection.query(`listen ${channel}`);
      const missed = this.everConnected ? await draftChangesAfter(this.orm.em.fork(), this.lastEventId, 500) : [];
      if (!this.everConnected) {
        const newest = await connection.query<{ id: string | null }>('select max(id) as id from draft_event');
        this.lastEventId = Math.max(this.lastEventId, Number(newest.rows[0]?.id ?? 0));
      }
      if (this.stopped) {
        await connection.close();
        return;
      }
      // Lost meanwhile (its loss scheduled the next try): not listening, so not connected.
      if (!connection.isOpen) return;
      // After a drop, or a first connection that took several tries: what was read meanwhile may be stale.
      const resync = this.everConnected || this.failures > 0;
      this.client = connection;
      this.connected = true;
      this.failures = 0;
      this.everConnected = true;
      for (const change of missed) if (!this.heard.has(change.event_id)) this.receive('draft', change);
      if (resync) {
        this.version++;
        this.emit('resync');
      }
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'topic bus could not connect; retrying');
      this.reconnect(connection);
    }
  }

  /** Lets `connection` go and, unless a newer one is in use or stopping, tries again with backoff. */
  private reconnect(connection: OwnConnection) {
    void connection.close();
    if (this.client && this.client !== connection) return; // a late event of a connection already replaced
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
}
