import pg from 'pg';
import webPush from 'web-push';
import type { FastifyBaseLogger } from 'fastify';
import type { DraftChange, PushPayload } from '@first-round/shared/schemas';
import type { Orm } from '../../db/orm.js';
import type { TopicBus } from '../../events/topic-bus.js';
import type { VapidKeys } from './vapid-keys.js';
import { pickNotification } from './pick-notification.js';
import { pickRecipients, removeGoneSubscription, type DeviceSubscription } from './push.repository.js';

/** The session-level advisory lock the sending instance holds (every other instance stands by). */
export const PUSH_LOCK = 'first-round:push';

export interface PushSenderOptions {
  orm: Orm;
  log: FastifyBaseLogger;
  events: TopicBus;
  vapid: VapidKeys;
  /** VAPID `sub`: a mailto: or https: address the push services can reach the operator at. */
  subject: string;
  /** Pushes waiting or in flight at most; past it new ones are dropped (and logged), never the process. */
  maxQueue?: number;
  /** Requests to push services at once. */
  concurrency?: number;
  /** Tries per push on a 429, 5xx or network error, with backoff RETRY_BASE_MS · 4^n between them. */
  attempts?: number;
  retryBaseMs?: number;
  /** How often a standing-by instance tries to take over sending. */
  leaderRetryMs?: number;
}

interface Job {
  dueAt: number;
  device: DeviceSubscription;
  payload: PushPayload;
  attempt: number;
}

/**
 * Sends push notifications off the request path. Every instance hears every recorded pick (the topic bus's
 * `draft` topic, after the pick's transaction commits); the one holding PUSH_LOCK looks up the devices to
 * tell, renders each one's notification and queues it for pick time + that device's delay. The queue is kept
 * in due order with one timer for its head (not a timer per device), sends CONCURRENCY at a time, retries
 * with backoff, and forgets a device its push service says is gone (404/410).
 */
export class PushSender {
  private readonly queue: Job[] = [];
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private lockClient: pg.Client | undefined;
  private leaderTimer: NodeJS.Timeout | undefined;
  private unlisten: (() => void) | undefined;
  private stopped = false;
  private readonly maxQueue: number;
  private readonly concurrency: number;
  private readonly attempts: number;
  private readonly retryBaseMs: number;
  /** Pushes the push services accepted, and gave up on (tests, the bench). */
  readonly counts = { sent: 0, gone: 0, failed: 0, dropped: 0 };

  constructor(private readonly options: PushSenderOptions) {
    this.maxQueue = options.maxQueue ?? 50_000;
    this.concurrency = options.concurrency ?? 64;
    this.attempts = options.attempts ?? 4;
    this.retryBaseMs = options.retryBaseMs ?? 1000;
  }

  get publicKey(): string {
    return this.options.vapid.publicKey;
  }

  /** Whether this instance holds the lock and sends. */
  get isLeader(): boolean {
    return this.lockClient !== undefined;
  }

  /** Pushes waiting or in flight. */
  get pending(): number {
    return this.queue.length + this.inFlight;
  }

  start(): void {
    this.stopped = false;
    this.unlisten = this.options.events.onChange((change) => void this.heard(change));
    void this.tryLead();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    clearTimeout(this.leaderTimer);
    clearTimeout(this.timer);
    this.timerAt = Infinity;
    const client = this.lockClient;
    this.lockClient = undefined;
    await client?.end().catch(() => {});
  }

  /** Takes PUSH_LOCK on a connection of its own; standing by, tries again every leaderRetryMs. */
  private async tryLead(): Promise<void> {
    if (this.stopped || this.lockClient) return;
    const client = new pg.Client({ connectionString: this.options.orm.config.get('clientUrl'), application_name: 'first-round push sender' });
    try {
      await client.connect();
      const result = await client.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtext($1)) as ok', [PUSH_LOCK]);
      if (result.rows[0]?.ok && !this.stopped) {
        this.lockClient = client;
        // A lost connection releases the lock: stand by and try again.
        client.on('error', () => {});
        client.on('end', () => {
          if (this.lockClient === client) this.lockClient = undefined;
          this.scheduleLeaderRetry();
        });
        return;
      }
      await client.end();
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, 'push sender could not reach the database; trying again');
      await client.end().catch(() => {});
    }
    this.scheduleLeaderRetry();
  }

  private scheduleLeaderRetry() {
    if (this.stopped) return;
    clearTimeout(this.leaderTimer);
    this.leaderTimer = setTimeout(() => void this.tryLead(), this.options.leaderRetryMs ?? 5000);
    this.leaderTimer.unref();
  }

  /** A draft change heard: a pick queues a notification for every device of every player holding him. */
  private async heard(change: DraftChange): Promise<void> {
    if (!this.isLeader || change.kind !== 'pick' || !change.player) return;
    try {
      // Counted from when this instance heard the pick (moments after its commit), on this process's clock:
      // the change's own time is the draft's clock, which tests and replays may move.
      const pickedAt = Date.now();
      for (const device of await pickRecipients(this.options.orm.em.fork(), change.player.id)) {
        const payload = pickNotification(change, device);
        if (payload) this.enqueue({ dueAt: pickedAt + device.delaySeconds * 1000, device, payload, attempt: 0 });
      }
      this.pump();
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message, slot: change.slot }, 'push notifications for a pick could not be queued');
    }
  }

  /** Queues one push (kept in due order); also how the 1-hour reminder and tests hand pushes over. */
  enqueue(job: Job): void {
    if (this.pending >= this.maxQueue) {
      this.counts.dropped++;
      if (this.counts.dropped === 1 || this.counts.dropped % 1000 === 0) this.options.log.warn({ dropped: this.counts.dropped }, 'push queue full: notifications dropped');
      return;
    }
    // Binary search for the first job due later: equal due times keep their order.
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.queue[mid]!.dueAt <= job.dueAt) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, job);
  }

  /** Starts what is due, up to the concurrency limit, and sets the one timer for the next due job. */
  private pump(): void {
    if (this.stopped) return;
    const now = Date.now();
    while (this.inFlight < this.concurrency && this.queue.length > 0 && this.queue[0]!.dueAt <= now) {
      const job = this.queue.shift()!;
      this.inFlight++;
      void this.send(job).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
    const head = this.queue[0];
    if (!head || this.inFlight >= this.concurrency) return;
    if (head.dueAt >= this.timerAt && this.timer) return;
    clearTimeout(this.timer);
    this.timerAt = head.dueAt;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.pump();
    }, Math.max(0, head.dueAt - now));
    this.timer.unref();
  }

  private readonly vapidByAudience = new Map<string, { headers: Record<string, string>; until: number }>();

  /**
   * The VAPID Authorization header for the endpoint's push service, signed once per service and reused for
   * half its 12-hour life: an ECDSA signature per push would double the sender's work at a pick.
   */
  private vapidHeaders(endpoint: string): Record<string, string> {
    const audience = new URL(endpoint).origin;
    const cached = this.vapidByAudience.get(audience);
    if (cached && cached.until > Date.now()) return cached.headers;
    const expiresAt = Math.floor(Date.now() / 1000) + 12 * 3600;
    const headers = webPush.getVapidHeaders(audience, this.options.subject, this.options.vapid.publicKey, this.options.vapid.privateKey, 'aes128gcm', expiresAt) as unknown as Record<string, string>;
    this.vapidByAudience.set(audience, { headers, until: Date.now() + 6 * 3600 * 1000 });
    return headers;
  }

  private async send(job: Job): Promise<void> {
    const { device } = job;
    try {
      // web-push encrypts and signs; the request itself goes by fetch (web-push's own sender speaks https only,
      // and the tests' push service stand-in is plain http on loopback).
      const request = webPush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, JSON.stringify(job.payload), {
        headers: this.vapidHeaders(device.endpoint),
        // Worth nothing an hour later; collapsed at the push service by topic while the device is offline.
        TTL: 3600,
        topic: job.payload.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
        urgency: 'high',
      });
      const response = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: request.body ?? undefined,
        signal: AbortSignal.timeout(10_000),
      });
      await response.body?.cancel();
      if (response.status < 200 || response.status > 299) throw Object.assign(new Error(`push service answered ${response.status}`), { statusCode: response.status });
      this.counts.sent++;
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410) {
        this.counts.gone++;
        await removeGoneSubscription(this.options.orm.em.fork(), device.endpoint).catch(() => {});
        return;
      }
      const retriable = status === undefined || status === 429 || status >= 500;
      if (retriable && job.attempt + 1 < this.attempts) {
        this.enqueue({ ...job, attempt: job.attempt + 1, dueAt: Date.now() + this.retryBaseMs * 4 ** job.attempt });
        return;
      }
      this.counts.failed++;
      // The push service's host only: a full endpoint is a capability to push to that device.
      this.options.log.warn({ status, host: new URL(device.endpoint).host, attempts: job.attempt + 1 }, 'a push notification could not be sent');
    }
  }
}
