import webPush from 'web-push';
import type { FastifyBaseLogger } from 'fastify';
import type { DraftChange } from '@first-round/shared/schemas';
import type { Orm } from '../../db/orm.js';
import { OwnConnection } from '../../db/own-connection.js';
import type { TopicBus } from '../../events/topic-bus.js';
import type { LiveFanOut } from '../../events/live-fan-out.js';
import { draftChangesByIds } from '../draft/draft.repository.js';
import type { VapidKeys } from './vapid-keys.js';
import { PushTransport } from './push.transport.js';
import { checkEndpoint, PushEndpointRefused, type PushEndpointPolicy, type PushLookup } from './endpoint-policy.js';
import { fanOut, type FanOutStandings } from './push.fanout.js';
import {
  deleteDeliveries,
  dropDeliveriesOf,
  pendingDeliveries,
  removeGoneSubscription,
  retryDelivery,
  unclaimedRecentChanges,
  type DeliveryRow,
} from './push.repository.js';

/** The session-level advisory lock the sending instance holds (every other instance stands by). */
export const PUSH_LOCK = 'first-round:push';
/** The lock connection's `application_name`. */
export const PUSH_SENDER_NAME = 'first-round push sender';

export interface PushSenderOptions {
  orm: Orm;
  log: FastifyBaseLogger;
  events: TopicBus;
  vapid: VapidKeys;
  /** The open pages' fan-outs on this instance: a change's pushes are written, and new pushes started, after them. */
  liveFanOut?: Pick<LiveFanOut, 'busy' | 'idle'>;
  /** Round-one slots (the draft's settings): when a pick fills round one, the final result is told. */
  roundOnePicks: number;
  /** The entry book and the rankings a change's news is read from (push.fanout.ts). */
  standings: FanOutStandings;
  /** VAPID `sub`: a mailto: or https: address the push services can reach the operator at. */
  subject: string;
  /** Where pushes may go (endpoint-policy.ts): checked before each push and at each connection. */
  policy: PushEndpointPolicy;
  /** How push services' names are resolved (`dns.lookup` by default; tests answer for the DNS). */
  lookup?: PushLookup;
  /** Pushes waiting or in flight at most; past it new ones are dropped (and logged), never the process. */
  maxQueue?: number;
  /** Requests to push services at once, all services together. */
  concurrency?: number;
  /** Requests to one push service (origin) at once: its share of `concurrency` (a quarter by default). */
  perOrigin?: number;
  /** How long one request may take, connecting to the end of the answer, before it counts as failed. */
  requestTimeoutMs?: number;
  /** Tries per push on a 429, 5xx or network error, with backoff RETRY_BASE_MS · 4^n between them. */
  attempts?: number;
  retryBaseMs?: number;
  /** How often a standing-by instance tries to take over sending. */
  leaderRetryMs?: number;
}

/** A push in the queue: its push_delivery row. */
type Job = DeliveryRow;

/**
 * One push service's (origin's) waiting pushes, in due order, and its requests in flight. A lane is in one
 * place at a time: `ready` (its head is due and it has room: in the ring), `waiting` (its head is not due
 * yet: in the heap, keyed by `waitingAt`), `full` (its share in flight) or `idle` (nothing waiting).
 */
interface Lane {
  origin: string;
  jobs: Job[];
  inFlight: number;
  state: 'ready' | 'waiting' | 'full' | 'idle';
  waitingAt: number;
}

/** A lane's place in the heap of waiting lanes; stale once the lane moved or its head changed (`waitingAt`). */
interface HeapEntry {
  at: number;
  seq: number;
  lane: Lane;
}

/** A new sender fans out the picks nobody did from this far back: the longest viewing delay and some. */
const CATCH_UP_SECONDS = 15 * 60;

/**
 * Sends push notifications off the request path. Every instance hears every recorded pick (the topic bus's
 * `draft` topic, after the pick's transaction commits); the one holding PUSH_LOCK writes each device's push
 * into push_delivery (push.fanout.ts), due at pick time + that device's delay, and queues it. The queue is
 * kept per push service (origin) in due order, with one timer for the earliest head (not a timer per
 * device); it sends `concurrency` at a time, at most `perOrigin` of them to one service, taking due pushes
 * from the services in turn, so a service that hangs holds its share and no more (each request ends after
 * `requestTimeoutMs`). It retries with backoff, forgets a device its push service says is gone (404/410),
 * and never sends to an endpoint the policy refuses (endpoint-policy.ts). A push leaves the table once done
 * with, so a sender taking over (a restart, another instance) starts from what is left, and fans out the
 * recent picks nobody did. The `push` topic tells it of pushes others wrote (the reminder).
 */
export class PushSender {
  private readonly lanes = new Map<string, Lane>();
  /** Lanes whose head is due and that have room, taken in turn. */
  private ring: Lane[] = [];
  /** Lanes whose head is not due yet, earliest first (a binary heap; stale entries skipped). */
  private heap: HeapEntry[] = [];
  private heapSeq = 0;
  /** Pushes in the lanes (not in flight). */
  private waiting = 0;
  /** Ids of the rows in the queue or in flight: a row is loaded once. */
  private readonly queued = new Set<number>();
  /** Rows done with, deleted in batches (one statement per flush, not one per push). */
  private done: number[] = [];
  private flushing: Promise<void> | undefined;
  private idle: (() => void) | undefined;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private lockClient: OwnConnection | undefined;
  private leaderTimer: NodeJS.Timeout | undefined;
  private unlisten: (() => void) | undefined;
  private stopped = false;
  /** The pump waits for a live fan-out to end (LiveFanOut). */
  private yielding = false;
  private readonly maxQueue: number;
  private readonly concurrency: number;
  /** Requests to one push service at once (its share of `concurrency`). */
  readonly perOrigin: number;
  private readonly requestTimeoutMs: number;
  private readonly attempts: number;
  private readonly retryBaseMs: number;
  private readonly transport: PushTransport;
  /** Hosts whose refused pushes were logged (once each, a bounded number): refusals come by the thousand. */
  private readonly refusedHosts = new Set<string>();
  /**
   * Pushes the push services accepted, gave up on, and the policy refused (tests, the bench).
   */
  readonly counts = { sent: 0, gone: 0, failed: 0, dropped: 0, refused: 0 };

  constructor(private readonly options: PushSenderOptions) {
    this.maxQueue = options.maxQueue ?? 50_000;
    this.concurrency = options.concurrency ?? 128;
    this.perOrigin = options.perOrigin ?? Math.max(1, Math.floor(this.concurrency / 4));
    this.requestTimeoutMs = options.requestTimeoutMs ?? 5000;
    this.attempts = options.attempts ?? 4;
    this.retryBaseMs = options.retryBaseMs ?? 1000;
    this.transport = new PushTransport({ maxSocketsPerOrigin: this.perOrigin, policy: options.policy, lookup: options.lookup });
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
    return this.waiting + this.inFlight;
  }

  start(): void {
    this.stopped = false;
    const offDraft = this.options.events.onChange((change) => void this.heard(change));
    const offPush = this.options.events.on('push', () => void this.loadPending());
    this.unlisten = () => {
      offDraft();
      offPush();
    };
    void this.tryLead();
  }

  /**
   * Stops sending: pushes in flight finish (at most their request timeout) and leave the table before the lock
   * is let go, so the sender taking over never sends them again; the waiting ones stay in the table for it.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    clearTimeout(this.leaderTimer);
    clearTimeout(this.timer);
    this.timerAt = Infinity;
    if (this.isLeader) this.options.log.info({ inFlight: this.inFlight, waiting: this.waiting }, 'push sender stopping: pushes in flight finish, the waiting ones stay for the next sender');
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.idle = resolve));
    await this.flush();
    this.forgetQueue();
    this.transport.close();
    const client = this.lockClient;
    this.lockClient = undefined;
    await client?.close();
  }

  private forgetQueue() {
    for (const lane of this.lanes.values()) lane.jobs = [];
    this.waiting = 0;
    this.queued.clear();
    this.rebuild();
  }

  /** Takes PUSH_LOCK on a connection of its own (db/own-connection.ts); standing by, tries again every leaderRetryMs. */
  private async tryLead(): Promise<void> {
    if (this.stopped || this.lockClient) return;
    const connection = new OwnConnection({ connectionString: this.options.orm.config.get('clientUrl'), application_name: PUSH_SENDER_NAME }, (error) => {
      // A lost connection releases the lock: another sender may take over from the table, so this one
      // forgets its queue (or both would send it), stands by and tries again.
      if (this.lockClient !== connection) return;
      this.options.log.warn({ err: error.message }, 'push sender lost its lock connection; standing by');
      this.lockClient = undefined;
      this.forgetQueue();
      this.scheduleLeaderRetry();
    });
    let leading = false;
    try {
      await connection.connect();
      const result = await connection.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtext($1)) as ok', [PUSH_LOCK]);
      leading = Boolean(result.rows[0]?.ok) && connection.isOpen && !this.stopped;
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, 'push sender could not reach the database; trying again');
    }
    if (leading) {
      this.lockClient = connection;
      await this.takeOver();
      return;
    }
    await connection.close();
    this.scheduleLeaderRetry();
  }

  private scheduleLeaderRetry() {
    if (this.stopped) return;
    clearTimeout(this.leaderTimer);
    this.leaderTimer = setTimeout(() => void this.tryLead(), this.options.leaderRetryMs ?? 5000);
    this.leaderTimer.unref();
  }

  /** Just became the sender: what the previous one left waiting, then the recent changes nobody fanned out. */
  private async takeOver(): Promise<void> {
    await this.loadPending();
    try {
      const em = this.options.orm.em.fork();
      for (const change of await draftChangesByIds(em, await unclaimedRecentChanges(em, CATCH_UP_SECONDS))) await this.heard(change);
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, 'push sender could not catch up on recent picks');
    }
  }

  /** Queues the waiting pushes this sender does not hold yet (taking over; another instance wrote some). */
  private async loadPending(): Promise<void> {
    if (!this.isLeader) return;
    try {
      for (const row of await pendingDeliveries(this.options.orm.em.fork())) if (!this.queued.has(row.id)) this.enqueue(row);
      this.pump();
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, 'push sender could not read the waiting pushes');
    }
  }

  /**
   * A draft change heard: a pick (or round one's end) writes and queues each device's push; an undo or a
   * reset drops the waiting pushes of what it took back.
   */
  private async heard(change: DraftChange): Promise<void> {
    if (!this.isLeader) return;
    try {
      // The open pages first: this change's fan-out to them starts on the same notification.
      await new Promise((resolve) => setImmediate(resolve));
      await this.options.liveFanOut?.idle();
      const em = this.options.orm.em.fork();
      if (change.kind === 'undo' || change.kind === 'reset') {
        const dropped = new Set(await dropDeliveriesOf(em, change.event_id, change.kind === 'undo' ? (change.slot ?? -1) : null));
        if (dropped.size === 0) return;
        for (const lane of this.lanes.values()) lane.jobs = lane.jobs.filter((job) => !dropped.has(job.id));
        this.waiting = [...this.lanes.values()].reduce((n, lane) => n + lane.jobs.length, 0);
        for (const id of dropped) this.queued.delete(id);
        this.rebuild();
        this.pump();
        return;
      }
      // Due from when this instance heard the change (moments after its commit), on this process's clock:
      // the change's own time is the draft's clock, which tests and replays may move.
      for (const row of await fanOut(em, change, this.options.roundOnePicks, Date.now(), this.options.standings)) this.enqueue(row);
      this.pump();
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message, slot: change.slot, kind: change.kind }, 'push notifications for a draft change could not be queued');
    }
  }

  /** Queues one push row (kept in due order in its service's lane). Past maxQueue it stays in the table for a later load. */
  private enqueue(job: Job): void {
    if (this.pending >= this.maxQueue) {
      this.counts.dropped++;
      if (this.counts.dropped === 1 || this.counts.dropped % 1000 === 0) this.options.log.warn({ dropped: this.counts.dropped }, 'push queue full: notifications dropped');
      return;
    }
    const lane = this.laneOf(job.device.endpoint);
    const jobs = lane.jobs;
    // Binary search for the first job due later: equal due times keep their order.
    let lo = 0;
    let hi = jobs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (jobs[mid]!.dueAt <= job.dueAt) lo = mid + 1;
      else hi = mid;
    }
    jobs.splice(lo, 0, job);
    this.waiting++;
    this.queued.add(job.id);
    if (lane.state === 'idle') this.place(lane, Date.now());
    else if (lane.state === 'waiting' && lo === 0) this.waitInHeap(lane, job.dueAt);
  }

  private laneOf(endpoint: string): Lane {
    let origin: string;
    try {
      origin = new URL(endpoint).origin;
    } catch {
      // Refused when sent (checkEndpoint): one lane for every endpoint that is not a URL.
      origin = 'invalid';
    }
    let lane = this.lanes.get(origin);
    if (!lane) {
      lane = { origin, jobs: [], inFlight: 0, state: 'idle', waitingAt: 0 };
      this.lanes.set(origin, lane);
    }
    return lane;
  }

  /** Puts a lane that is in neither the ring nor the heap where it belongs now. */
  private place(lane: Lane, now: number): void {
    const head = lane.jobs[0];
    if (lane.inFlight >= this.perOrigin) lane.state = 'full';
    else if (!head) {
      lane.state = 'idle';
      if (lane.inFlight === 0) this.lanes.delete(lane.origin);
    } else if (head.dueAt <= now) {
      lane.state = 'ready';
      this.ring.push(lane);
    } else this.waitInHeap(lane, head.dueAt);
  }

  private waitInHeap(lane: Lane, at: number): void {
    lane.state = 'waiting';
    lane.waitingAt = at;
    const heap = this.heap;
    heap.push({ at, seq: this.heapSeq++, lane });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      if (!this.earlier(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private earlier(a: HeapEntry, b: HeapEntry): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  /** The earliest waiting lane's entry, stale entries dropped on the way. */
  private heapTop(): HeapEntry | undefined {
    for (;;) {
      const top = this.heap[0];
      if (!top || (top.lane.state === 'waiting' && top.lane.waitingAt === top.at)) return top;
      this.heapPop();
    }
  }

  private heapPop(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && this.earlier(heap[left]!, heap[least]!)) least = left;
      if (right < heap.length && this.earlier(heap[right]!, heap[least]!)) least = right;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least]!, heap[i]!];
      i = least;
    }
  }

  /** Every lane placed afresh (after pushes were taken out of the middle of lanes: an undo, a lost lock). */
  private rebuild(): void {
    this.ring = [];
    this.heap = [];
    const now = Date.now();
    for (const lane of [...this.lanes.values()]) this.place(lane, now);
  }

  /**
   * A push done with: its row goes in the next batch delete. It counts as queued until that delete, so a
   * load meanwhile (the `push` topic) cannot queue it again.
   */
  private finished(id: number, flushInMs = 50) {
    this.done.push(id);
    if (!this.flushing) this.flushing = new Promise<void>((resolve) => setTimeout(resolve, flushInMs).unref()).then(() => this.flush());
  }

  private async flush(): Promise<void> {
    const ids = this.done;
    this.done = [];
    this.flushing = undefined;
    if (ids.length === 0) return;
    try {
      await deleteDeliveries(this.options.orm.em.fork(), ids);
      for (const id of ids) this.queued.delete(id);
    } catch (error) {
      // Kept as queued and tried again with the next batch: a row left behind would be sent again by the
      // sender taking over.
      this.options.log.warn({ err: (error as Error).message, pushes: ids.length }, 'push sender could not clear sent pushes; trying again');
      for (const id of ids) this.finished(id, 1000);
    }
  }

  /**
   * Starts what is due, up to the concurrency limit, one push from each ready service in turn (a service at
   * its share waits for one of its own to finish), and sets the one timer for the earliest waiting head.
   */
  private pump(): void {
    if (this.stopped || this.yielding) return;
    const live = this.options.liveFanOut;
    if (live?.busy) {
      // Pushes in flight finish; new ones start once the pages have their change.
      this.yielding = true;
      void live.idle().then(() => {
        this.yielding = false;
        this.pump();
      });
      return;
    }
    const now = Date.now();
    for (let top = this.heapTop(); top && top.at <= now; top = this.heapTop()) {
      this.heapPop();
      top.lane.state = 'ready';
      this.ring.push(top.lane);
    }
    while (this.inFlight < this.concurrency && this.ring.length > 0) {
      const lane = this.ring.shift()!;
      const job = lane.jobs.shift()!;
      this.waiting--;
      this.inFlight++;
      lane.inFlight++;
      this.place(lane, now);
      void this.send(job).finally(() => {
        this.inFlight--;
        lane.inFlight--;
        if (lane.state === 'full' || (lane.state === 'idle' && lane.inFlight === 0)) this.place(lane, Date.now());
        if (this.inFlight === 0) this.idle?.();
        this.pump();
      });
    }
    const head = this.heapTop();
    if (!head || this.inFlight >= this.concurrency) return;
    if (head.at >= this.timerAt && this.timer) return;
    clearTimeout(this.timer);
    this.timerAt = head.at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.pump();
    }, Math.max(0, head.at - now));
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
      // Refused before any work (the transport checks again, and checks each address it connects to).
      checkEndpoint(this.options.policy, device.endpoint);
      // web-push encrypts; the VAPID header is signed once per service (vapidHeaders); the request goes by
      // push.transport.ts (web-push's own sender speaks https only, and the tests' stand-in is plain http).
      const request = webPush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, JSON.stringify(job.payload), {
        headers: this.vapidHeaders(device.endpoint),
        // Worth nothing an hour later; collapsed at the push service by topic while the device is offline.
        TTL: 3600,
        topic: job.payload.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
        urgency: 'high',
      });
      const status = await this.transport.post(request.endpoint, request.headers as Record<string, string | number>, request.body as Buffer, this.requestTimeoutMs);
      if (status < 200 || status > 299) throw Object.assign(new Error(`push service answered ${status}`), { statusCode: status });
      this.counts.sent++;
      this.finished(job.id);
    } catch (error) {
      if (error instanceof PushEndpointRefused) {
        // Never tried again: the same endpoint is refused the same way. The row goes; the device stays (a
        // setting may change), and each pick refuses it again at no more cost than this.
        this.finished(job.id);
        this.counts.refused++;
        if (!this.refusedHosts.has(error.host) && this.refusedHosts.size < 1000) {
          this.refusedHosts.add(error.host);
          this.options.log.warn({ host: error.host, reason: error.reason }, 'a push notification was refused: its endpoint is not one the server sends to');
        }
        return;
      }
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410) {
        // Its waiting pushes go with it (the table's cascade). Counted once removed: a reader of the count
        // (the tests, a status page) then finds the device gone.
        await removeGoneSubscription(this.options.orm.em.fork(), device.endpoint).catch(() => {});
        this.counts.gone++;
        this.queued.delete(job.id);
        return;
      }
      const retriable = status === undefined || status === 429 || status >= 500;
      if (retriable && job.attempt + 1 < this.attempts) {
        // Stopping: the row stays as it is, for the sender taking over.
        if (this.stopped) return;
        const next = { ...job, attempt: job.attempt + 1, dueAt: Date.now() + this.retryBaseMs * 4 ** job.attempt };
        await retryDelivery(this.options.orm.em.fork(), job.id, next.attempt, next.dueAt).catch(() => {});
        this.enqueue(next);
        return;
      }
      this.finished(job.id);
      this.counts.failed++;
      // The push service's host only: a full endpoint is a capability to push to that device.
      this.options.log.warn({ status, host: new URL(device.endpoint).host, attempts: job.attempt + 1 }, 'a push notification could not be sent');
    }
  }
}
