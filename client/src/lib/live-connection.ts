import type { DraftChange, DraftChangesInput, DraftStatus, LeaderboardInput, LiveMessage, StandingsMine, StandingsUpdate } from '@first-round/shared/schemas';
import { assembleStandings } from '@first-round/shared/live-standings';

/** How long push may be down (never connected, or dropped) before the app polls instead. */
export const PUSH_GRACE_MS = 10_000;
/** Polling period while push is unavailable. */
export const POLL_INTERVAL_MS = 15_000;
/** Consecutive subscription failures after which polling starts at once. */
export const PUSH_MAX_FAILURES = 3;

/** What polling compares: any difference means the draft moved and cached answers are stale. */
export function statusSignature(
  s: Pick<DraftStatus, 'draftHasStarted' | 'started_at' | 'picks_made' | 'round_one_complete' | 'last_event_id'> | undefined,
): string | null {
  if (!s) return null;
  // last_event_id moves on every change, so an undo followed by a new pick (same count) is seen too.
  return [s.draftHasStarted, s.started_at ?? '', s.picks_made, s.round_one_complete, s.last_event_id].join('|');
}

/**
 * Whether cached answers must be refreshed after a status read. Without a baseline (the page never read
 * draft.status, e.g. the leaderboard) the draft may have moved since its answers were fetched: refresh.
 */
export function statusMoved(before: string | null, now: string | null): boolean {
  return before === null || before !== now;
}

/** Wait before re-subscribing after the n-th consecutive failure: 1 s, 2 s, 4 s, 8 s, then 15 s. */
export function retryDelay(failures: number): number {
  return Math.min(15_000, 1000 * 2 ** Math.max(0, failures - 1));
}

/**
 * Every kind of draft change, by name (a type-checked list: a kind added to the schema must be added
 * here). A plain object, not shared/schemas' draftChangeKind: that module would bring zod into the first load.
 */
const DRAFT_CHANGE_KINDS: Record<DraftChange['kind'], true> = {
  start: true,
  auto_start: true,
  pick: true,
  undo: true,
  complete_round: true,
  reopen_round: true,
  reset: true,
  team: true,
  undo_team: true,
};

const isDraftChange = (message: { kind?: unknown }): message is DraftChange => typeof message.kind === 'string' && Object.hasOwn(DRAFT_CHANGE_KINDS, message.kind);

/** How the connection reaches the server: tRPC's client in the app, a fake in tests. */
export interface LiveTransport {
  subscribe(
    input: DraftChangesInput,
    handlers: {
      onStarted(): void;
      /** A message of this server's stream, or a whole standings page as an older server sends it. */
      onData(id: string, message: LiveMessage | StandingsUpdate): void;
      /** 'pending': the stream is open; 'connecting' with an error: it dropped and tRPC reconnects. */
      onConnectionStateChange(state: 'idle' | 'connecting' | 'pending', error: unknown): void;
      onError(): void;
      onComplete(): void;
    },
  ): { unsubscribe(): void };
  readStatus(): Promise<DraftStatus>;
}

export interface LiveConnectionOptions {
  transport: LiveTransport;
  /** The draft status the cached answers were read with, if any. */
  cachedStatus(): DraftStatus | undefined;
  /** A change pushed by the server (or replayed after a reconnect). */
  onChange(change: DraftChange): void;
  /**
   * The watched standings page, re-ranked after a change (put together from the stream's two parts);
   * `opening` when no change came before it on this stream: the page a new stream brings at once, as of
   * whatever the draft is now, which is as much news as a read's answer.
   */
  onStandings(update: StandingsUpdate, opening: boolean): void;
  /** A status read found the draft moved without a change event saying how (polling, a reconnect). */
  onStale(status: DraftStatus): void;
}

/**
 * Draft night's connection to the server, with no React in it: holds the `draft.changes` stream (SSE),
 * reconnects after failures from the last event id seen, and when push is unavailable (it keeps failing,
 * or is not up within PUSH_GRACE_MS) polls draft.status every POLL_INTERVAL_MS until push works again.
 * `watch` names the standings page on screen; the stream is reopened (from the last event id) to carry it.
 */
export class LiveConnection {
  private lastEventId: string | null = null;
  private watched: LeaderboardInput | undefined;
  private subscription: { unsubscribe(): void } | null = null;
  /** Callbacks of a stream already dropped must not act: each stream has its generation. */
  private generation = 0;
  private running = false;
  private pushUp = false;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private stableTimer: ReturnType<typeof setTimeout> | undefined;
  /** The draft status as of the last time the cached answers were known to be current. */
  private known: string | null = null;
  /** The reader's own part of the watched page last sent on the current stream (it is not sent again unchanged). */
  private mine: StandingsMine | undefined;
  /** Whether a change came on the current stream yet (a page before any is its opening page). */
  private changeOnStream = false;

  constructor(private readonly options: LiveConnectionOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.graceTimer = setTimeout(() => ((this.graceTimer = undefined), this.startPolling()), PUSH_GRACE_MS);
    this.subscribe();
  }

  stop(): void {
    this.running = false;
    this.generation += 1;
    this.subscription?.unsubscribe();
    this.subscription = null;
    for (const t of [this.retryTimer, this.graceTimer, this.stableTimer]) if (t) clearTimeout(t);
    this.retryTimer = this.graceTimer = this.stableTimer = undefined;
    this.stopPolling();
  }

  /** The standings page to carry on the stream (undefined: none); a different page reopens the stream. */
  watch(input: LeaderboardInput | undefined): void {
    if (JSON.stringify(input) === JSON.stringify(this.watched)) return;
    this.watched = input;
    if (!this.running || !this.subscription) return;
    this.generation += 1;
    this.subscription.unsubscribe();
    this.subscription = null;
    // A change made between the two streams reaches neither: the new one must resume from a change, or a
    // stream that brought none yet would start afresh and skip it (its opening page would show the standings
    // after it, while draft.status never heard of it). Push stays up, so no status read covers the gap
    // either (onPushUp reads only after push was down): resume from the draft the cached answers show.
    this.lastEventId ??= this.cachedVersion();
    this.subscribe();
  }

  /** The draft version of the cached draft.status, as a stream's last event id (null: none read, or no change yet). */
  private cachedVersion(): string | null {
    const version = this.options.cachedStatus()?.last_event_id ?? 0;
    return version > 0 ? String(version) : null;
  }

  /** Looks at the draft now when push is down (a tab coming back into view: browsers slow its timers). */
  checkIfDown(): void {
    if (this.running && !this.pushUp) void this.check();
  }

  /** One draft.status read; reports the cache stale when the draft moved since the last look. */
  private async check(): Promise<void> {
    try {
      const status = await this.options.transport.readStatus();
      if (!this.running) return;
      const now = statusSignature(status);
      const before = this.known ?? statusSignature(this.options.cachedStatus());
      this.known = now;
      if (statusMoved(before, now)) this.options.onStale(status);
    } catch {
      // offline too: the next poll (or the push reconnecting) tries again
    }
  }

  private startPolling() {
    if (!this.running || this.pushUp || this.pollTimer) return;
    void this.check();
    this.pollTimer = setInterval(() => void this.check(), POLL_INTERVAL_MS);
  }

  private stopPolling() {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  private onPushDown() {
    this.pushUp = false;
    if (this.stableTimer) clearTimeout(this.stableTimer);
    this.stableTimer = undefined;
    if (this.failures >= PUSH_MAX_FAILURES) this.startPolling();
    else if (!this.graceTimer && !this.pollTimer) {
      this.graceTimer = setTimeout(() => ((this.graceTimer = undefined), this.startPolling()), PUSH_GRACE_MS);
    }
  }

  private onPushUp() {
    const wasDown = !this.pushUp;
    this.pushUp = true;
    // A stream can open and then be refused (an expired token): count it healthy only once it lasts.
    if (wasDown) {
      if (this.stableTimer) clearTimeout(this.stableTimer);
      this.stableTimer = setTimeout(() => (this.failures = 0), 5000);
    }
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.stopPolling();
    // Covers what no event id can: changes between the pages' first reads and this connection.
    if (wasDown) void this.check();
  }

  private subscribe() {
    if (!this.running) return;
    const mine = ++this.generation;
    const current = () => this.running && mine === this.generation;
    // A new stream sends the reader's own part with its first page: nothing of an older stream's holds.
    this.mine = undefined;
    this.changeOnStream = false;
    const input: DraftChangesInput = { lastEventId: this.lastEventId, ...(this.watched ? { standings: this.watched } : {}) };
    this.subscription = this.options.transport.subscribe(input, {
      onStarted: () => {
        if (current()) this.onPushUp();
      },
      onData: (id, message) => {
        if (!current()) return;
        this.failures = 0;
        this.receive(id, message);
      },
      onConnectionStateChange: (state, error) => {
        if (!current()) return;
        if (state === 'pending') this.onPushUp();
        else if (state === 'connecting' && error) {
          this.failures += 1;
          this.onPushDown();
        }
      },
      // Unrecoverable for this stream (a refused token after the 60-second token expired, the server
      // going away): subscribe again with a fresh token, from the last event seen.
      onError: () => {
        if (!current()) return;
        this.failures += 1;
        this.restart();
      },
      onComplete: () => {
        if (current()) this.restart();
      },
    });
  }

  /**
   * One message, by its kind. A kind this version does not know (a newer server's) is left alone: it is
   * neither a change to refresh for nor a place to resume from. A watched page comes as the reader's own
   * part (when it changed), then the page shared by all its readers: shown together, never the page with
   * another stream's or group's own part (then the read after the wait brings it).
   */
  private receive(id: string, message: LiveMessage | StandingsUpdate) {
    if (message.kind === 'standings_me') {
      this.mine = message;
    } else if (message.kind === 'standings_page') {
      const update = assembleStandings(message, this.mine);
      if (!update) return;
      this.lastEventId = id;
      this.options.onStandings(update, !this.changeOnStream);
    } else if (message.kind === 'standings') {
      // An older server's whole page (a rolling deploy).
      this.lastEventId = id;
      this.options.onStandings(message, !this.changeOnStream);
    } else if (isDraftChange(message)) {
      this.changeOnStream = true;
      this.lastEventId = id;
      this.known = null;
      this.options.onChange(message);
    }
  }

  private restart() {
    this.generation += 1;
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.onPushDown();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.subscribe(), retryDelay(this.failures));
  }
}
