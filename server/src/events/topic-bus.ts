import { EventEmitter } from 'node:events';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { DraftChange } from '@first-round/shared/schemas';
import type { Orm } from '../db/orm.js';
import { OwnConnection } from '../db/own-connection.js';
import { sql } from '../db/sql.js';
import { afterCommit } from '../db/after-commit.js';
import { CACHE_TOPICS, TOPICS, TOPICS_OF_CHANNEL, type Invalidation, type Topic, type TopicMessage } from './topics.js';

export { TOPICS, type Topic, type TopicMessage, type Invalidation } from './topics.js';

/** Heard on this instance only: after a reconnect, whatever was read meanwhile may be stale. */
type LocalTopic = 'resync';

/** The listening connection's `application_name`. */
export const LISTENER_NAME = 'first-round topic bus';

/** How much of a refused payload a warning quotes: enough to recognise it, never a flood. */
const QUOTED_PAYLOAD = 200;

/** The draft changes logged after an id, oldest first: what a reconnected bus delivers (draft.repository.ts). */
export type MissedDraftChanges = (em: EntityManager, afterId: number, limit: number) => Promise<DraftChange[]>;

/** This process's buses by the ORM they serve (its configuration, which every fork of it shares). */
const busesOf = new WeakMap<object, Set<TopicBus>>();

/**
 * The one way to announce a change: after the write, inside its transaction. Every instance hears it once
 * that commits, and none if it rolls back; this process's buses for `em`'s database apply it as it commits,
 * not only when the NOTIFY comes back, so the writer's own next read already sees it (listeners hear the
 * echo too: what a listener does must be harmless twice). A draft change reaches listeners only from
 * PostgreSQL, in the log's order; as it commits here only the draft's version moves. Written from the
 * command line (no bus in the process), it is only notified.
 */
export async function publish<T extends Topic>(em: EntityManager, topic: T, message: TopicMessage<T>): Promise<void> {
  // Raw: NOTIFY, which the ORM has no words for.
  await sql(em, `select pg_notify($1, $2)`, [TOPICS[topic].channel, JSON.stringify(message)]);
  const buses = busesOf.get(em.config);
  if (buses) afterCommit(em, () => buses.forEach((bus) => bus.committed(topic, message)));
}

/**
 * This instance's end of the topic bus: one PostgreSQL connection that LISTENs on every topic's channel
 * (events/topics.ts) and hands each message, once its payload is checked, to the listeners of its topic in
 * this process. What one instance (or the operator's command line) publishes, every instance hears.
 *
 * Each topic has a version, moved by every message of it this instance hears (and every topic's by a
 * resync): a cache keeps what it read with the versions of the topics it is made from, and only those
 * topics make it stale (`versionOf`).
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
export class TopicBus {
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
  /** Messages heard per topic. */
  private readonly versions = new Map<Topic, number>();
  /** Resyncs: each makes every topic's version move. */
  private resyncs = 0;

  constructor(
    private readonly orm: Orm,
    private readonly log: FastifyBaseLogger,
    private readonly missedDraftChanges: MissedDraftChanges = async () => [],
  ) {
    this.emitter.setMaxListeners(0);
    const buses = busesOf.get(orm.config) ?? new Set();
    busesOf.set(orm.config, buses.add(this));
  }

  get isConnected() {
    return this.connected;
  }

  /** The newest draft change this instance has delivered. */
  get lastHeardEventId() {
    return this.lastEventId;
  }

  /** Moves whenever one of `topics` changes here or anywhere (or after a resync): a cache of them kept at another version is stale. */
  versionOf(topics: readonly Topic[]): number {
    let version = this.resyncs;
    for (const topic of topics) version += this.versions.get(topic) ?? 0;
    return version;
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

  /** Every topic of the cache channel, with the message's `kind` naming which. */
  onInvalidate(listener: (message: Invalidation) => void): () => void {
    const offs = CACHE_TOPICS.map((topic) => this.on(topic, listener));
    return () => offs.forEach((off) => off());
  }

  onResync(listener: () => void): () => void {
    return this.on('resync', listener);
  }

  /** A cache channel message to this instance's listeners, as when heard from PostgreSQL (tests stand in for one with it). */
  invalidate(message: Invalidation) {
    this.receive(message.kind, message);
  }

  /** What `publish` applies here as the write commits. */
  committed<T extends Topic>(topic: T, message: TopicMessage<T>) {
    if (topic === 'draft') this.logAhead((message as DraftChange).event_id);
    else this.receive(topic, message);
  }

  /**
   * The audit log holds change `eventId`, which this instance has not heard yet (it is on its way): what
   * was kept from before it is stale at once. Heard, it already was.
   */
  logAhead(eventId: number) {
    if (this.heard.has(eventId)) return;
    this.bump('draft');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.connected = false;
    await client?.close();
  }

  private bump(topic: Topic) {
    this.versions.set(topic, (this.versions.get(topic) ?? 0) + 1);
  }

  /** A message of `topic`, checked, to this instance's listeners, its topic's version moved first. */
  private receive<T extends Topic>(topic: T, message: TopicMessage<T>) {
    if (topic === 'draft') {
      const change = message as DraftChange;
      this.heard.add(change.event_id);
      this.lastEventId = Math.max(this.lastEventId, change.event_id);
    }
    this.bump(topic);
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

  /** A notification as PostgreSQL delivered it: a payload that is no message of its channel's topics is logged and skipped. */
  private heardNotification(channel: string, payload: string | undefined) {
    const topics = TOPICS_OF_CHANNEL.get(channel);
    if (!topics) return;
    let value: unknown;
    try {
      value = JSON.parse(payload ?? '');
    } catch {
      this.log.warn({ channel, payload: payload?.slice(0, QUOTED_PAYLOAD) }, 'topic bus: skipped a notification that is not JSON');
      return;
    }
    for (const topic of topics) {
      const parsed = TOPICS[topic].schema.safeParse(value);
      if (!parsed.success) continue;
      if (topic === 'draft' && this.heard.has((parsed.data as DraftChange).event_id)) return;
      this.receive(topic, parsed.data as TopicMessage<typeof topic>);
      return;
    }
    const issues = TOPICS[topics[0]!].schema.safeParse(value).error?.issues.slice(0, 3);
    this.log.warn({ channel, payload: payload?.slice(0, QUOTED_PAYLOAD), issues }, `topic bus: skipped a notification that is not a ${topics.join(' or ')} message`);
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
      for (const channel of TOPICS_OF_CHANNEL.keys()) await connection.query(`listen ${channel}`);
      const missed = this.everConnected ? await this.missedDraftChanges(this.orm.em.fork(), this.lastEventId, 500) : [];
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
        this.resyncs++;
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
