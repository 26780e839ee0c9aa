import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import { LIVE_REFRESH_JITTER_MS, STANDINGS_PUSH_WAIT_MS } from '@first-round/shared/constants';
import type { DraftChange, DraftStatus, Leaderboard, PlayerDto, StandingsUpdate } from '@first-round/shared/schemas';
import { jitterDelay, LiveRefresh, playersAfter, statusAfter } from './live-refresh';

const status = (over: Partial<DraftStatus> = {}): DraftStatus => ({
  draftHasStarted: true,
  deadline: '2027-04-30T00:00:00.000Z',
  started_at: '2027-04-20T00:00:00.000Z',
  picks_made: 2,
  round_one_complete: false,
  round_one_picks: 32,
    last_change_at: '2027-04-30T00:00:00.000Z',
  last_event_id: 8,
  round_one_order: [{ slot: 1, team: 'TEN' }, { slot: 2, team: 'JAX' }, { slot: 3, team: 'NYG' }],
  ...over,
});
const player = (id: number, over: Partial<PlayerDto> = {}): PlayerDto => ({
  id,
  rank: id,
  player_name: `Player ${id}`,
  position: 'QB',
  school: 'State',
  draft_round: null,
  draft_pick: null,
  band: 'safe',
  ...over,
});
const board = () => [player(1, { draft_round: 1, draft_pick: 1 }), player(2, { draft_round: 1, draft_pick: 2 }), player(3), player(4)];
const pick = (event_id: number, slot: number, p: PlayerDto): DraftChange => ({
  event_id,
  kind: 'pick',
  slot,
  player: { ...p, draft_round: 1, draft_pick: slot },
  at: '2027-04-30T01:00:00.000Z',
});
const change = (event_id: number, kind: DraftChange['kind'], over: Partial<DraftChange> = {}): DraftChange => ({
  event_id,
  kind,
  at: '2027-04-30T01:00:00.000Z',
  ...over,
});

describe('statusAfter', () => {
  it('counts a pick and an undo, and completes round one when every slot is filled', () => {
    expect(statusAfter(status(), pick(9, 3, player(3)))?.data).toEqual(status({ picks_made: 3, last_event_id: 9, last_change_at: '2027-04-30T01:00:00.000Z' }));
    expect(statusAfter(status({ picks_made: 31 }), pick(9, 32, player(3)))?.data).toMatchObject({ picks_made: 32, round_one_complete: true });
    expect(statusAfter(status({ picks_made: 32, round_one_complete: true }), change(9, 'undo', { slot: 32 }))?.data).toMatchObject({
      picks_made: 31,
      round_one_complete: false,
      last_event_id: 9,
    });
  });

  it('marks and reopens round one', () => {
    expect(statusAfter(status(), change(9, 'complete_round'))?.data.round_one_complete).toBe(true);
    expect(statusAfter(status({ round_one_complete: true }), change(9, 'reopen_round'))?.data.round_one_complete).toBe(false);
    expect(statusAfter(status({ picks_made: 32, round_one_complete: true }), change(9, 'reopen_round'))?.data.round_one_complete).toBe(true);
  });

  it('locks the draft on a start, with started_at to be confirmed by a read', () => {
    const patched = statusAfter(status({ draftHasStarted: false, started_at: null, picks_made: 0 }), change(9, 'start'));
    expect(patched).toEqual({ data: status({ started_at: '2027-04-30T01:00:00.000Z', picks_made: 0, last_event_id: 9, last_change_at: '2027-04-30T01:00:00.000Z' }), exact: false });
    expect(statusAfter(status({ draftHasStarted: false, started_at: null }), change(9, 'auto_start'))?.data.draftHasStarted).toBe(true);
  });

  it('resets to not started, unless the deadline has passed', () => {
    const before = statusAfter(status({ picks_made: 5, round_one_complete: true }), change(9, 'reset', { at: '2027-04-29T23:59:59.000Z' }));
    expect(before).toEqual({ data: status({ draftHasStarted: false, started_at: null, picks_made: 0, last_event_id: 9, last_change_at: '2027-04-29T23:59:59.000Z' }), exact: true });
    expect(statusAfter(status(), change(9, 'reset', { at: '2027-04-30T00:00:00.000Z' }))?.data.draftHasStarted).toBe(true);
  });

  it('gives a traded slot its new team, and back on undo; other changes keep the order', () => {
    const traded = statusAfter(status(), change(9, 'team', { slot: 2, team: 'CLE', team_before: 'JAX' }));
    expect(traded).toEqual({ data: status({ last_event_id: 9, last_change_at: '2027-04-30T01:00:00.000Z', round_one_order: [{ slot: 1, team: 'TEN' }, { slot: 2, team: 'CLE' }, { slot: 3, team: 'NYG' }] }), exact: true });
    const back = statusAfter(traded!.data, change(10, 'undo_team', { slot: 2, team: 'JAX', team_before: 'CLE' }));
    expect(back).toEqual({ data: status({ last_event_id: 10, last_change_at: '2027-04-30T01:00:00.000Z' }), exact: true });
    expect(statusAfter(status(), change(9, 'undo_team', { slot: 3, team: null }))?.data.round_one_order[2]).toEqual({ slot: 3, team: null });
    expect(statusAfter(status(), pick(9, 3, player(3)))?.data.round_one_order).toEqual(status().round_one_order);
  });

  it('ignores a change the status already includes', () => {
    expect(statusAfter(status(), pick(8, 3, player(3)))).toBeNull();
    expect(statusAfter(status(), pick(7, 3, player(3)))).toBeNull();
  });
});

describe('playersAfter', () => {
  it('drafts the picked player into the slot, clears it on undo, clears all on reset', () => {
    const picked = playersAfter(board(), pick(9, 3, player(3)));
    expect(picked[2]).toEqual(player(3, { draft_round: 1, draft_pick: 3 }));
    expect(picked[3]).toEqual(player(4));
    expect(playersAfter(picked, change(10, 'undo', { slot: 3, player: player(3, { draft_round: 1, draft_pick: 3 }) }))[2]).toEqual(player(3));
    expect(playersAfter(picked, change(10, 'reset')).every((p) => p.draft_round === null && p.draft_pick === null)).toBe(true);
    expect(playersAfter(board(), change(10, 'complete_round'))).toEqual(board());
  });
});

describe('jitterDelay', () => {
  it('stays within [0, LIVE_REFRESH_JITTER_MS)', () => {
    expect(LIVE_REFRESH_JITTER_MS).toBe(1000);
    expect(jitterDelay(() => 0)).toBe(0);
    expect(jitterDelay(() => 0.5)).toBe(500);
    expect(jitterDelay(() => 0.9999999)).toBe(999);
    for (let i = 0; i < 1000; i++) {
      const d = jitterDelay();
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(LIVE_REFRESH_JITTER_MS);
    }
  });
});

// tRPC's query keys: [path, { input?, type }] per entry; a bare [path] matches a whole router.
const STATUS: QueryKey = [['draft', 'status'], { type: 'query' }];
const PLAYERS: QueryKey = [['players', 'list'], { type: 'query' }];
const GLOBAL_BOARD: QueryKey = [['leaderboard', 'group'], { input: { group_id: 1, limit: 100 }, type: 'query' }];
const GROUP_BOARD: QueryKey = [['leaderboard', 'group'], { input: { group_id: 7, limit: 100 }, type: 'query' }];
const MY_PICKS: QueryKey = [['picks', 'mine'], { input: {}, type: 'query' }];
const USER_STATUS: QueryKey = [['users', 'status'], { type: 'query' }];
const FIELD: QueryKey = [['leaderboard', 'field'], { type: 'query' }];
const KEYS = {
  status: STATUS,
  players: PLAYERS,
  dependents: [[['draft', 'auditLog']], [['leaderboard']], [['picks']], [['groups']]],
  standings: [['leaderboard', 'group']],
  lockedOnly: [[['leaderboard', 'field']]],
};
/** A pushed standings page (the content is whatever the test recognises). */
const pushed = (event_id: number, group_id = 1, name = `after ${event_id}`): StandingsUpdate => ({
  kind: 'standings',
  event_id,
  leaderboard: { group_id, draft_started: true, entries: 1, alive: 1, clinched_by: null, me: null, matches: 1, me_position: null, benchmarks: [], rankings: [{ rank: 1, participant_id: 'p', participant_name: name, correct_picks: 1, busted: false, tiebreak_rank: 3, picks: 1, hits: 1, misses: 0, max_possible: 1, can_win: true }] },
});

describe('LiveRefresh', () => {
  let client: QueryClient;
  let live: LiveRefresh;
  const reads = new Map<string, number>();
  const unsubscribes: Array<() => void> = [];
  // What the server answers now (changed by the tests as the draft moves).
  let serverStatus = status();
  let serverPlayers = board();
  // When set, the board's read answers this instead (a read under way while a change arrives).
  let hold: Promise<PlayerDto[]> | null = null;

  /** A query as a screen holds it: an observer with a fetch function that counts its reads. */
  function onScreen(key: QueryKey, answer: () => unknown, staleTime = 60_000) {
    const name = JSON.stringify(key);
    const observer = new QueryObserver(client, {
      queryKey: key,
      queryFn: async () => {
        reads.set(name, (reads.get(name) ?? 0) + 1);
        return answer();
      },
      staleTime,
    });
    unsubscribes.push(observer.subscribe(() => undefined));
    return observer;
  }
  const readsOf = (key: QueryKey) => reads.get(JSON.stringify(key)) ?? 0;
  /** Cached, not on screen (a page visited before). */
  const offScreen = (key: QueryKey, data: unknown) => client.setQueryData(key, data);

  beforeEach(async () => {
    vi.useFakeTimers();
    reads.clear();
    serverStatus = status();
    serverPlayers = board();
    hold = null;
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // random() = 0.5: this client's jitter is 500 ms.
    live = new LiveRefresh(client, KEYS, { random: () => 0.5 });
    onScreen(STATUS, () => serverStatus, Infinity);
    onScreen(PLAYERS, () => hold ?? serverPlayers, Infinity);
    onScreen(GLOBAL_BOARD, () => ({ rows: 'global' }));
    await vi.advanceTimersByTimeAsync(0);
    reads.clear();
  });
  afterEach(() => {
    for (const u of unsubscribes.splice(0)) u();
    live.dispose();
    client.clear();
    vi.useRealTimers();
  });

  it('a pick updates draft.status and the board without a request, and refetches the standings on screen after the jitter', async () => {
    offScreen(GROUP_BOARD, { rows: 'group' });
    offScreen(USER_STATUS, { is_first_login: false });
    expect(live.applyChange(pick(9, 3, player(3)))).toBe(true);

    expect(client.getQueryData(STATUS)).toEqual(status({ picks_made: 3, last_event_id: 9, last_change_at: '2027-04-30T01:00:00.000Z' }));
    expect((client.getQueryData(PLAYERS) as PlayerDto[])[2]).toEqual(player(3, { draft_round: 1, draft_pick: 3 }));
    // Off screen: marked stale, not fetched. Not depending on the draft: untouched.
    expect(client.getQueryState(GROUP_BOARD)?.isInvalidated).toBe(true);
    expect(client.getQueryState(USER_STATUS)?.isInvalidated).toBe(false);

    await vi.advanceTimersByTimeAsync(499);
    expect(readsOf(GLOBAL_BOARD)).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(readsOf(GLOBAL_BOARD)).toBe(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(readsOf(GLOBAL_BOARD)).toBe(1);
    expect(readsOf(STATUS)).toBe(0);
    expect(readsOf(PLAYERS)).toBe(0);
    expect(readsOf(GROUP_BOARD)).toBe(0);
    expect(client.getQueryState(GROUP_BOARD)?.isInvalidated).toBe(true);
  });

  it('leaves the field alone on a recorded pick (picks are locked), and reads it again after a reset and a start', async () => {
    onScreen(FIELD, () => [{ player_id: 3, share: 0.5 }], Infinity);
    await vi.advanceTimersByTimeAsync(0);
    reads.clear();
    live.applyChange(pick(9, 3, player(3)));
    await vi.advanceTimersByTimeAsync(2000);
    expect(client.getQueryState(FIELD)?.isInvalidated).toBe(false);
    expect(readsOf(FIELD)).toBe(0);
    live.applyChange(change(10, 'reset'));
    expect(client.getQueryState(FIELD)?.isInvalidated).toBe(true);
    await vi.advanceTimersByTimeAsync(2000);
    expect(readsOf(FIELD)).toBe(1);
    live.applyChange(change(11, 'start'));
    await vi.advanceTimersByTimeAsync(2000);
    expect(readsOf(FIELD)).toBe(2);
  });

  it('refetches within [0, LIVE_REFRESH_JITTER_MS) whatever the random draw', async () => {
    for (const draw of [0, 0.999999]) {
      live.dispose();
      live = new LiveRefresh(client, KEYS, { random: () => draw });
      const before = readsOf(GLOBAL_BOARD);
      live.applyChange(pick(live.version() + 1, 3, player(3)));
      await vi.advanceTimersByTimeAsync(LIVE_REFRESH_JITTER_MS);
      expect(readsOf(GLOBAL_BOARD)).toBe(before + 1);
    }
  });

  it('an undo and a reset are applied from the event too', async () => {
    live.applyChange(change(9, 'undo', { slot: 2, player: player(2, { draft_round: 1, draft_pick: 2 }) }));
    expect(client.getQueryData<DraftStatus>(STATUS)).toMatchObject({ picks_made: 1, last_event_id: 9 });
    expect(client.getQueryData<PlayerDto[]>(PLAYERS)?.[1]).toEqual(player(2));
    live.applyChange(change(10, 'reset', { at: '2027-04-29T00:00:00.000Z' }));
    expect(client.getQueryData<DraftStatus>(STATUS)).toMatchObject({ draftHasStarted: false, started_at: null, picks_made: 0, last_event_id: 10 });
    expect(client.getQueryData<PlayerDto[]>(PLAYERS)?.every((p) => p.draft_pick === null)).toBe(true);
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_JITTER_MS);
    expect(readsOf(STATUS) + readsOf(PLAYERS)).toBe(0);
    expect(readsOf(GLOBAL_BOARD)).toBe(1);
  });

  it('a burst (a catch-up after a reconnect) refreshes once', async () => {
    live.applyChange(pick(9, 3, player(3)));
    await vi.advanceTimersByTimeAsync(100);
    live.applyChange(pick(10, 4, player(4)));
    live.applyChange(change(11, 'complete_round'));
    await vi.advanceTimersByTimeAsync(2 * LIVE_REFRESH_JITTER_MS);
    expect(readsOf(GLOBAL_BOARD)).toBe(1);
    expect(client.getQueryData(STATUS)).toEqual(status({ picks_made: 4, round_one_complete: true, last_event_id: 11, last_change_at: '2027-04-30T01:00:00.000Z' }));
  });

  it('a change the cache already shows changes nothing', async () => {
    const players = client.getQueryData(PLAYERS);
    expect(live.applyChange(pick(8, 3, player(3)))).toBe(false);
    expect(live.applyChange(pick(5, 3, player(3)))).toBe(false);
    expect(client.getQueryData(STATUS)).toEqual(status());
    expect(client.getQueryData(PLAYERS)).toBe(players);
    expect(client.getQueryState(GLOBAL_BOARD)?.isInvalidated).toBe(false);
    await vi.advanceTimersByTimeAsync(2 * LIVE_REFRESH_JITTER_MS);
    expect(readsOf(GLOBAL_BOARD)).toBe(0);
    // Once a change is applied, its replay is old news as well.
    live.applyChange(pick(9, 3, player(3)));
    expect(live.applyChange(pick(9, 3, player(3)))).toBe(false);
  });

  it('a start locks the draft at once and confirms started_at with one jittered read', async () => {
    serverStatus = status({ draftHasStarted: false, started_at: null, picks_made: 0 });
    client.setQueryData(STATUS, serverStatus);
    live.applyChange(change(9, 'start'));
    expect(client.getQueryData<DraftStatus>(STATUS)?.draftHasStarted).toBe(true);
    serverStatus = status({ picks_made: 0, started_at: '2027-04-30T00:59:59.990Z', last_event_id: 9 });
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_JITTER_MS);
    expect(readsOf(STATUS)).toBe(1);
    expect(client.getQueryData<DraftStatus>(STATUS)?.started_at).toBe('2027-04-30T00:59:59.990Z');
  });

  it('an answer being fetched when the change arrives is not patched but read again', async () => {
    // The board's read is under way (sent before the pick was recorded): its answer would be stale.
    let release: () => void = () => undefined;
    const before = board();
    hold = new Promise<void>((r) => (release = r)).then(() => before);
    const slowRead = client.refetchQueries({ queryKey: PLAYERS });
    await vi.advanceTimersByTimeAsync(0);
    expect(client.getQueryState(PLAYERS)?.fetchStatus).toBe('fetching');
    live.applyChange(pick(9, 3, player(3)));
    hold = null;
    serverPlayers = playersAfter(board(), pick(9, 3, player(3)));
    release();
    await slowRead;
    expect(client.getQueryData<PlayerDto[]>(PLAYERS)?.[2]?.draft_pick).toBeNull();
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_JITTER_MS);
    expect(readsOf(PLAYERS)).toBe(2);
    expect(client.getQueryData<PlayerDto[]>(PLAYERS)?.[2]?.draft_pick).toBe(3);
  });

  it('a screen that read the standings after the change is not refetched again', async () => {
    live.applyChange(pick(9, 3, player(3)));
    await client.refetchQueries({ queryKey: GLOBAL_BOARD });
    expect(readsOf(GLOBAL_BOARD)).toBe(1);
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_JITTER_MS);
    expect(readsOf(GLOBAL_BOARD)).toBe(1);
  });

  it('a status read that finds the draft moved stores it and refreshes the rest once', async () => {
    offScreen(MY_PICKS, []);
    serverPlayers = playersAfter(board(), pick(11, 3, player(3)));
    live.applyStatus(status({ picks_made: 3, last_event_id: 11 }));
    expect(client.getQueryData<DraftStatus>(STATUS)?.last_event_id).toBe(11);
    expect(client.getQueryState(MY_PICKS)?.isInvalidated).toBe(true);
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_JITTER_MS);
    expect(readsOf(STATUS)).toBe(0);
    expect(readsOf(PLAYERS)).toBe(1);
    expect(readsOf(GLOBAL_BOARD)).toBe(1);
    expect(readsOf(MY_PICKS)).toBe(0);
    // The replayed events it already covers change nothing.
    expect(live.applyChange(pick(10, 3, player(3)))).toBe(false);
  });

  it('a status read older than the cache does not turn it back', () => {
    live.applyChange(pick(9, 3, player(3)));
    live.applyStatus(status({ last_event_id: 8 }));
    expect(client.getQueryData<DraftStatus>(STATUS)).toMatchObject({ picks_made: 3, last_event_id: 9 });
  });

  it('a status read with no screen holding draft.status becomes the baseline', () => {
    const bare = new QueryClient();
    const refresh = new LiveRefresh(bare, KEYS);
    refresh.applyStatus(status({ last_event_id: 12 }));
    expect(bare.getQueryData(STATUS)).toEqual(status({ last_event_id: 12 }));
    expect(refresh.applyChange(pick(12, 3, player(3)))).toBe(false);
    refresh.dispose();
  });

  describe('the standings page carried by the stream', () => {
    const nameOn = (key: QueryKey) => client.getQueryData<Leaderboard>(key)?.rankings?.[0]?.participant_name;

    it('watches the standings page on screen, the one opened last when there are two', () => {
      offScreen(GROUP_BOARD, { rows: 'group' });
      expect(live.watchedStandings()).toEqual({ group_id: 1, limit: 100 });
      onScreen(GROUP_BOARD, () => ({ rows: 'group' }));
      expect(live.watchedStandings()).toEqual({ group_id: 7, limit: 100 });
      for (const u of unsubscribes.splice(3)) u();
      expect(live.watchedStandings()).toEqual({ group_id: 1, limit: 100 });
    });

    it('a pick shows the pushed page and the page is never read', async () => {
      live.watchedStandings();
      live.applyChange(pick(9, 3, player(3)));
      await vi.advanceTimersByTimeAsync(LIVE_REFRESH_JITTER_MS);
      expect(readsOf(GLOBAL_BOARD)).toBe(0);
      expect(live.applyStandings(pushed(9))).toBe(true);
      expect(nameOn(GLOBAL_BOARD)).toBe('after 9');
      expect(client.getQueryState(GLOBAL_BOARD)?.isInvalidated).toBe(false);
      await vi.advanceTimersByTimeAsync(STANDINGS_PUSH_WAIT_MS * 2);
      expect(readsOf(GLOBAL_BOARD)).toBe(0);
    });

    it('reads the page itself when the push does not come in time', async () => {
      live.watchedStandings();
      live.applyChange(pick(9, 3, player(3)));
      await vi.advanceTimersByTimeAsync(STANDINGS_PUSH_WAIT_MS + 499);
      expect(readsOf(GLOBAL_BOARD)).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(readsOf(GLOBAL_BOARD)).toBe(1);
    });

    it('never shows a page older than the newest change, nor another group\'s page', async () => {
      live.watchedStandings();
      live.applyChange(pick(9, 3, player(3)));
      live.applyChange(pick(10, 4, player(4)));
      expect(live.applyStandings(pushed(9))).toBe(false);
      expect(live.applyStandings(pushed(10, 7))).toBe(false);
      expect(nameOn(GLOBAL_BOARD)).toBeUndefined();
      expect(live.applyStandings(pushed(10))).toBe(true);
      expect(nameOn(GLOBAL_BOARD)).toBe('after 10');
      await vi.advanceTimersByTimeAsync(STANDINGS_PUSH_WAIT_MS * 2);
      expect(readsOf(GLOBAL_BOARD)).toBe(0);
    });

    it("a spectator's public top 100 (a query without input) is the page its stream carries: shown, never read", async () => {
      const PUBLIC: QueryKey = [['leaderboard', 'public'], { type: 'query' }];
      const spectator = new LiveRefresh(client, { ...KEYS, standings: [['leaderboard', 'public']], standingsInput: { group_id: 1, limit: 100, offset: 0 } }, { random: () => 0.5 });
      onScreen(PUBLIC, () => ({ rows: 'public' }));
      await vi.advanceTimersByTimeAsync(0);
      reads.clear();
      expect(spectator.watchedStandings()).toEqual({ group_id: 1, limit: 100, offset: 0 });
      spectator.applyChange(pick(9, 3, player(3)));
      await vi.advanceTimersByTimeAsync(LIVE_REFRESH_JITTER_MS);
      expect(readsOf(PUBLIC)).toBe(0);
      expect(spectator.applyStandings(pushed(9))).toBe(true);
      expect(nameOn(PUBLIC)).toBe('after 9');
      await vi.advanceTimersByTimeAsync(STANDINGS_PUSH_WAIT_MS * 2);
      expect(readsOf(PUBLIC)).toBe(0);
      spectator.dispose();
    });

    it('pages not watched are read after the jitter as before', async () => {
      onScreen(GROUP_BOARD, () => ({ rows: 'group' }));
      await vi.advanceTimersByTimeAsync(0);
      reads.clear();
      expect(live.watchedStandings()).toEqual({ group_id: 7, limit: 100 });
      live.applyChange(pick(9, 3, player(3)));
      await vi.advanceTimersByTimeAsync(LIVE_REFRESH_JITTER_MS);
      expect(readsOf(GLOBAL_BOARD)).toBe(1);
      expect(readsOf(GROUP_BOARD)).toBe(0);
    });
  });
});
