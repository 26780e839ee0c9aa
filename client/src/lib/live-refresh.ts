import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { LIVE_REFRESH_JITTER_MS, STANDINGS_PUSH_WAIT_MS } from '@first-round/shared/constants';
import type { DraftChange, DraftStatus, LeaderboardInput, PlayerDto, StandingsUpdate } from '@first-round/shared/schemas';

/*
 * Draft night without a refetch storm. A live change carries the new draft version and the pick itself,
 * which is enough to bring draft.status and the big board up to date in the cache with no request. What
 * the event cannot say (standings, picks, group pages, the audit log) is marked stale at once and, where
 * it is on screen, refetched once after a random delay in [0, LIVE_REFRESH_JITTER_MS): thousands of open
 * pages arrive spread over a second, not in the same millisecond. The standings page on screen is the
 * exception: the live stream brings it re-ranked after each change (`watchedStandings`, `applyStandings`),
 * and it is read only if that does not come within STANDINGS_PUSH_WAIT_MS. No React here: it works on a
 * QueryClient.
 */

/** A cache update computed from an event; `exact: false` means a read must still confirm it. */
export interface Patched<T> {
  data: T;
  exact: boolean;
}

/**
 * draft.status after a change, or null when the change is not newer than the status (an event the cached
 * answer already includes). Mirrors the server's getDraftStatus: round one is complete when marked so or
 * when every slot is filled; a pick is refused while it is marked, so a pick or an undo never had the mark.
 * A team change carries the slot's new team, so round one's order is patched too, with no read.
 */
export function statusAfter(status: DraftStatus, change: DraftChange): Patched<DraftStatus> | null {
  if (change.event_id <= status.last_event_id) return null;
  const next: DraftStatus = { ...status, last_event_id: change.event_id, last_change_at: change.at };
  const filled = (picks: number) => picks >= status.round_one_picks;
  switch (change.kind) {
    case 'pick':
      next.picks_made = status.picks_made + 1;
      next.round_one_complete = filled(next.picks_made);
      return { data: next, exact: true };
    case 'undo':
      next.picks_made = Math.max(0, status.picks_made - 1);
      next.round_one_complete = filled(next.picks_made);
      return { data: next, exact: true };
    case 'complete_round':
      next.round_one_complete = true;
      return { data: next, exact: true };
    case 'reopen_round':
      next.round_one_complete = filled(status.picks_made);
      return { data: next, exact: true };
    case 'start':
    case 'auto_start':
      // The lock is what matters and it is exact; started_at is the server's clock at the start, which
      // the event's log time only approximates (milliseconds apart): one read corrects it.
      next.draftHasStarted = true;
      next.started_at = status.started_at ?? change.at;
      return { data: next, exact: status.started_at !== null };
    case 'team':
    case 'undo_team':
      // A traded pick: the slot's team is in the change (a reset keeps the order as it stands).
      next.round_one_order = status.round_one_order.map((o) => (o.slot === change.slot ? { slot: o.slot, team: change.team ?? null } : o));
      return { data: next, exact: true };
    case 'reset':
      // Not started any more, unless the deadline (which starts the draft by itself) has passed.
      next.draftHasStarted = Date.parse(change.at) >= Date.parse(status.deadline);
      next.started_at = null;
      next.picks_made = 0;
      next.round_one_complete = false;
      return { data: next, exact: true };
  }
}

/** The big board after a change: a pick drafts its player into its slot, an undo clears it, a reset clears all. */
export function playersAfter(players: PlayerDto[], change: DraftChange): PlayerDto[] {
  const cleared = (p: PlayerDto): PlayerDto => (p.draft_round === null && p.draft_pick === null ? p : { ...p, draft_round: null, draft_pick: null });
  switch (change.kind) {
    case 'pick': {
      const id = change.player?.id;
      if (id === undefined || change.slot === undefined) return players;
      return players.map((p) => (p.id === id ? { ...p, draft_round: 1, draft_pick: change.slot ?? null } : p));
    }
    case 'undo': {
      const id = change.player?.id;
      return id === undefined ? players : players.map((p) => (p.id === id ? cleared(p) : p));
    }
    case 'reset':
      return players.map(cleared);
    default:
      return players;
  }
}

/** A delay in [0, LIVE_REFRESH_JITTER_MS) for this client's refetch after a change. */
export function jitterDelay(random: () => number = Math.random): number {
  return Math.min(LIVE_REFRESH_JITTER_MS - 1, Math.floor(random() * LIVE_REFRESH_JITTER_MS));
}

export interface LiveKeys {
  /** draft.status: the key of its one cache entry (it takes no input). */
  status: QueryKey;
  /** players.list. */
  players: QueryKey;
  /** Everything else whose answer depends on the draft: refreshed by a read, never patched. */
  dependents: QueryKey[];
  /** leaderboard.group: the page on screen is carried by the stream. */
  standings: QueryKey;
  /**
   * The page the standings query shows when it takes no input (leaderboard.public, the spectators' top
   * 100, which their stream carries after every change).
   */
  standingsInput?: LeaderboardInput;
  /**
   * Answers that change only when picks lock or unlock (leaderboard.field: who picked whom): among the
   * dependents, but marked stale only by a start or a reset, not by every recorded pick.
   */
  lockedOnly?: QueryKey[];
}

export interface LiveRefreshOptions {
  random?: () => number;
}

export class LiveRefresh {
  /** The newest change applied to the cache. */
  private seen = 0;
  /** Queries marked stale that wait for the jittered refetch; `wasFetching`: a read was under way at the change. */
  private readonly pending = new Map<string, { wasFetching: boolean }>();
  /** The watched standings, marked stale, waiting for the stream to bring them (see awaitPush). */
  private readonly held = new Map<string, { wasFetching: boolean }>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly random: () => number;
  /** The standings query the stream carries, and the change its pushed page must include. */
  private watched: { hash: string; input: LeaderboardInput } | undefined;
  private pushTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly client: QueryClient,
    private readonly keys: LiveKeys,
    options: LiveRefreshOptions = {},
  ) {
    this.random = options.random ?? Math.random;
  }

  /** The draft version the cache shows: the newest change applied, or the cached draft.status if newer. */
  version(): number {
    let version = this.seen;
    for (const q of this.queries(this.keys.status)) {
      const status = q.state.data as DraftStatus | undefined;
      if (status) version = Math.max(version, status.last_event_id);
    }
    return version;
  }

  /**
   * A live change: patches draft.status and the board from the event, marks the rest stale and schedules
   * the refetch of what is on screen. Returns false, changing nothing, for a change the cache already shows.
   */
  applyChange(change: DraftChange): boolean {
    if (change.event_id <= this.version()) return false;
    this.seen = change.event_id;
    this.patch(this.keys.status, (data: DraftStatus) => statusAfter(data, change) ?? { data, exact: true });
    this.patch(this.keys.players, (data: PlayerDto[]) => ({ data: playersAfter(data, change), exact: true }));
    const locking = change.kind === 'start' || change.kind === 'auto_start' || change.kind === 'reset';
    const lockedOnly = locking ? new Set<string>() : new Set((this.keys.lockedOnly ?? []).flatMap((key) => this.queries(key).map((q) => q.queryHash)));
    for (const key of this.keys.dependents) for (const q of this.queries(key)) if (!lockedOnly.has(q.queryHash)) this.markStale(q);
    this.awaitPush();
    this.schedule();
    return true;
  }

  /**
   * The standings page on screen, for the stream to carry: the newest active leaderboard query (a page
   * showing two takes the one opened last), or undefined. Its input as the page asked for it.
   */
  watchedStandings(): LeaderboardInput | undefined {
    const active = this.queries(this.keys.standings).filter((q) => q.isActive());
    const q = active.at(-1);
    const input = (q?.queryKey[1] as { input?: LeaderboardInput } | undefined)?.input ?? this.keys.standingsInput;
    this.watched = q && input ? { hash: q.queryHash, input } : undefined;
    return this.watched?.input;
  }

  /**
   * The stream brought the watched page as of change `event_id`: stored as the answer, and no read is
   * made for it. Ignored when the cache has seen a newer change since (its own page follows), or when the
   * page is being read right now (that answer, possibly older, would overwrite it: the read stays due).
   */
  applyStandings(update: StandingsUpdate): boolean {
    const watched = this.watched;
    if (!watched || update.event_id < this.seen || update.leaderboard.group_id !== watched.input.group_id) return false;
    const q = this.client.getQueryCache().get(watched.hash);
    if (!q || q.state.fetchStatus === 'fetching') return false;
    this.client.setQueryData(q.queryKey, update.leaderboard);
    this.pending.delete(watched.hash);
    this.stopAwaiting();
    return true;
  }

  /**
   * A draft.status read (polling, or a stream that just opened) found the draft moved without a change
   * event telling how: the status is stored as read, everything else depending on the draft is refreshed.
   */
  applyStatus(status: DraftStatus): void {
    this.seen = Math.max(this.seen, status.last_event_id);
    const cached = this.queries(this.keys.status);
    // Kept even when no screen asked yet: the baseline that later changes and reads are compared with.
    if (cached.length === 0) this.client.setQueryData(this.keys.status, status);
    for (const q of cached) {
      const old = q.state.data as DraftStatus | undefined;
      if (q.state.fetchStatus === 'fetching') this.markStale(q);
      else if (!old || old.last_event_id <= status.last_event_id) this.client.setQueryData(q.queryKey, status);
    }
    for (const key of [this.keys.players, ...this.keys.dependents]) for (const q of this.queries(key)) this.markStale(q);
    this.schedule();
  }

  /** Forgets the scheduled refetch (the live layer unmounts). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.stopAwaiting();
    this.pending.clear();
  }

  /**
   * The watched page is marked stale like the rest, but held back from the jittered read: the stream
   * brings it. If it has not come after STANDINGS_PUSH_WAIT_MS (a server without it, a lost frame), it is
   * read after all.
   */
  private awaitPush(): void {
    if (!this.watched || !this.pending.has(this.watched.hash)) return;
    this.held.set(this.watched.hash, this.pending.get(this.watched.hash)!);
    this.pending.delete(this.watched.hash);
    if (this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = undefined;
      for (const [hash, entry] of this.held) this.pending.set(hash, entry);
      this.held.clear();
      this.schedule();
    }, STANDINGS_PUSH_WAIT_MS);
  }

  private stopAwaiting(): void {
    if (this.pushTimer) clearTimeout(this.pushTimer);
    this.pushTimer = undefined;
    this.held.clear();
  }

  private queries(key: QueryKey): Query[] {
    return this.client.getQueryCache().findAll({ queryKey: key });
  }

  /**
   * Applies `next` to every cached answer under `key`. An answer being fetched right now is not patched
   * (the response, possibly read before the change, would overwrite it): it is refetched instead, as is
   * an answer the event cannot bring exactly up to date.
   */
  private patch<T>(key: QueryKey, next: (data: T) => Patched<T>): void {
    for (const q of this.queries(key)) {
      const data = q.state.data as T | undefined;
      if (data === undefined || q.state.fetchStatus === 'fetching') {
        this.markStale(q);
        continue;
      }
      const patched = next(data);
      if (patched.data !== data) this.client.setQueryData(q.queryKey, patched.data);
      if (!patched.exact) this.markStale(q);
    }
  }

  private markStale(q: Query): void {
    const before = this.pending.get(q.queryHash);
    this.pending.set(q.queryHash, { wasFetching: (before?.wasFetching ?? false) || q.state.fetchStatus === 'fetching' });
    // Stale at once: a screen that opens before the refetch reads it fresh; nothing is fetched here.
    void this.client.invalidateQueries({ queryKey: q.queryKey, exact: true, refetchType: 'none' });
  }

  /** One refetch per burst of changes (a catch-up after a reconnect), after this client's jitter. */
  private schedule(): void {
    if (this.timer || this.pending.size === 0) return;
    this.timer = setTimeout(() => this.flush(), jitterDelay(this.random));
  }

  private flush(): void {
    this.timer = undefined;
    const due = [...this.pending];
    this.pending.clear();
    for (const [hash, { wasFetching }] of due) {
      const q = this.client.getQueryCache().get(hash);
      // Off screen: stays marked stale and is read when a screen needs it. Already read again since the
      // change (a screen that opened meanwhile): nothing to do.
      if (!q || !q.isActive()) continue;
      if (!q.state.isInvalidated && !wasFetching) continue;
      void this.client.refetchQueries({ queryKey: q.queryKey, exact: true, type: 'active' });
    }
  }
}
