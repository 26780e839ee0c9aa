import type { AppDeps } from '../../deps.js';
import { OwnConnection } from '../../db/own-connection.js';
import { getDraftStatus } from '../draft/draft.service.js';
import { feedAdapters, FeedFormatError } from './feed.adapters.js';
import { pollDelaySeconds } from './feed.backoff.js';
import { writeFeedStatus } from './feed.repository.js';
import { applyFeed, type FeedOutcome } from './feed.service.js';

/** The advisory lock key the polling instance holds (any bigint no other lock in the database uses). */
export const FEED_LOCK_KEY = 0x46_52_66_65_65_64n; // "FRfeed"
/** The lock connection's `application_name`. */
export const FEED_POLLER_NAME = 'first-round-feed';
const FETCH_TIMEOUT_MS = 8000;
/** A timer may fire a millisecond early: a poll this close to due counts as due. */
const TIMER_SLACK_MS = 20;

export type FeedFetch = (url: string, init: { signal: AbortSignal; headers: Record<string, string> }) => Promise<Pick<Response, 'ok' | 'status' | 'text'>>;

type PollerDeps = Pick<AppDeps, 'orm' | 'config' | 'draft' | 'log'>;

/**
 * Polls the configured results feed while the draft is live (started, round one not marked complete).
 * Only one instance polls: the one holding a session advisory lock on its own connection; the others try
 * again at each tick and take over when that connection goes. `pollOnce` is the whole of a poll, without
 * the lock or the timer, for tests and the command line.
 */
export class FeedPoller {
  private lockClient: OwnConnection | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running = false;
  /** Failed polls in a row, and when the next poll is due (ms; undefined: at the next tick). */
  private failures = 0;
  private nextPollAt: number | undefined;

  constructor(
    private readonly deps: PollerDeps,
    private readonly fetchFeed: FeedFetch = (url, init) => fetch(url, init),
  ) {}

  get holdsLock(): boolean {
    return this.lockClient !== undefined;
  }

  private now(): number {
    return this.deps.draft.now().getTime();
  }

  /** After a poll: the failure count and when the next poll is due, as the status row will say. */
  private schedule(at: Date, failed: boolean): { consecutiveFailures: number; nextPollAt: Date } {
    this.failures = failed ? this.failures + 1 : 0;
    this.nextPollAt = at.getTime() + pollDelaySeconds(this.deps.config.FEED_INTERVAL_SECONDS, this.failures) * 1000;
    return { consecutiveFailures: this.failures, nextPollAt: new Date(this.nextPollAt) };
  }

  /**
   * Fetches, reads and applies the feed once; the status row records the poll, its error or its success,
   * and when the next poll is due (later and later while the feed keeps failing: `pollDelaySeconds`).
   */
  async pollOnce(): Promise<FeedOutcome | { error: string }> {
    const { FEED_URL, FEED_KIND } = this.deps.config;
    const em = this.deps.orm.em.fork();
    const at = new Date(this.now());
    if (!FEED_URL) return { error: 'FEED_URL is not set' };
    try {
      const res = await this.fetchFeed(FEED_URL, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json', 'user-agent': 'first-round-feed/1' } });
      if (!res.ok) throw new FeedFormatError(`The feed answered HTTP ${res.status}`);
      let document: unknown;
      try {
        document = JSON.parse(await res.text());
      } catch {
        throw new FeedFormatError('The feed did not answer JSON');
      }
      const picks = feedAdapters[FEED_KIND](document);
      const outcome = await applyFeed(em, this.deps.draft, picks);
      await writeFeedStatus(em, { lastPollAt: at, lastSuccessAt: at, lastError: null, picksSeen: outcome.seen, ...this.schedule(at, false) });
      if (outcome.recorded.length || outcome.queued) this.deps.log.info({ recorded: outcome.recorded, queued: outcome.queued }, 'results feed applied');
      return outcome;
    } catch (error) {
      const message = error instanceof FeedFormatError ? error.message : `Feed poll failed: ${(error as Error)?.message ?? String(error)}`;
      const next = this.schedule(at, true);
      await writeFeedStatus(em, { lastPollAt: at, lastError: message.slice(0, 500), ...next }).catch(() => {});
      this.deps.log.warn({ err: message, failures: next.consecutiveFailures, nextPollAt: next.nextPollAt.toISOString() }, 'results feed poll failed');
      return { error: message };
    }
  }

  /** One timer tick: take (or keep) the lock, then poll if the draft is live and a poll is due. */
  async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      if (!(await this.acquireLock())) {
        // Another instance polls, with its own schedule; this one starts afresh should it take over.
        this.failures = 0;
        this.nextPollAt = undefined;
        return;
      }
      if (this.nextPollAt !== undefined && this.now() < this.nextPollAt - TIMER_SLACK_MS) return;
      const status = await getDraftStatus(this.deps.orm.em.fork(), this.deps.draft);
      if (!status.draftHasStarted || status.round_one_complete) return await this.unschedule();
      await this.pollOnce();
    } catch (error) {
      // The database, say: try again at the normal pace, not at once.
      this.nextPollAt = Math.max(this.nextPollAt ?? 0, this.now() + this.deps.config.FEED_INTERVAL_SECONDS * 1000);
      this.deps.log.warn({ err: (error as Error)?.message }, 'results feed tick failed');
    } finally {
      this.running = false;
    }
  }

  /** The draft is not live: nothing is due, and a later run starts without the old failures. */
  private async unschedule(): Promise<void> {
    if (this.failures === 0 && this.nextPollAt === undefined) return;
    this.failures = 0;
    this.nextPollAt = undefined;
    await writeFeedStatus(this.deps.orm.em.fork(), { consecutiveFailures: 0, nextPollAt: null });
  }

  /** How long the timer waits before its next tick: until the next poll is due, else one interval. */
  msUntilNextTick(): number {
    if (this.nextPollAt === undefined) return this.deps.config.FEED_INTERVAL_SECONDS * 1000;
    return Math.max(0, this.nextPollAt - this.now());
  }

  /** True when this instance holds the poller's lock (taken now, on a connection of its own, or held from before). */
  async acquireLock(): Promise<boolean> {
    if (this.lockClient) return true;
    const connection = new OwnConnection({ connectionString: this.deps.orm.config.get('clientUrl'), application_name: FEED_POLLER_NAME }, (error) => {
      // The lock went with the connection: another instance may poll now; this one tries again at its next tick.
      if (this.lockClient !== connection) return;
      this.lockClient = undefined;
      this.deps.log.warn({ err: error.message }, 'results feed lost its lock connection');
    });
    try {
      await connection.connect();
      const { rows } = await connection.query<{ locked: boolean }>('select pg_try_advisory_lock($1::bigint) as locked', [FEED_LOCK_KEY.toString()]);
      if (rows[0]?.locked && connection.isOpen && !this.stopped) {
        this.lockClient = connection;
        return true;
      }
    } catch (error) {
      this.deps.log.warn({ err: (error as Error)?.message }, 'results feed lock unavailable');
    }
    await connection.close();
    return false;
  }

  /**
   * Ticks until `stop`: every FEED_INTERVAL_SECONDS, or when the next poll is due while backing off (one
   * timeout after another, so a slow poll never overlaps the next). Nothing when no feed is configured.
   */
  start(): void {
    if (!this.deps.config.FEED_URL || this.timer) return;
    const loop = async () => {
      await this.tick();
      if (this.stopped) return;
      this.timer = setTimeout(() => void loop(), this.msUntilNextTick());
      this.timer.unref();
    };
    this.timer = setTimeout(() => void loop(), 0);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const client = this.lockClient;
    this.lockClient = undefined;
    await client?.close();
  }
}
