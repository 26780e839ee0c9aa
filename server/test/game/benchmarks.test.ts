/**
 * Benchmark entries over REST: every leaderboard (global, a group, the live stream's pages) carries the
 * three reference entries with their live scores after the start, computed from the board alone; they
 * never take a rank, a count or a place among the players; BENCHMARK_ENTRIES=false removes them.
 * Rules: shared/src/benchmark-entries.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchmarkRowDto, Leaderboard } from '@first-round/shared/schemas';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { boardIds, createGroup, eventually, expectStatus, joinGroup, operatorStart, savePicks } from './helpers.js';

let t: TestApp;
let admin: TestUser;
let ann: TestUser;
let bob: TestUser;
let ids: number[];
let groupId: number;

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  admin = await t.signUp('benchop', ADMIN_EMAIL);
  [ann, bob] = [await t.signUp('bench_ann'), await t.signUp('bench_bob')];
  ids = await boardIds(t);
  await savePicks(t, ann, [ids[0]!, ids[1]!]); // 2 of the top 10: alive with 2 after the picks below
  await savePicks(t, bob, [ids[0]!, ids[30]!]); // #31 is still pending
  groupId = (await createGroup(t, ann)).id;
  await joinGroup(t, bob, groupId);
});
afterAll(async () => t?.close());

const board = async (group: number, user: TestUser) => expectStatus<Leaderboard>(await t.request('GET', `/api/groups/${group}/leaderboard`, { user }), 200);
const byKey = (rows: BenchmarkRowDto[]) => Object.fromEntries(rows.map((r) => [r.key, r]));

describe('benchmark entries', () => {
  it('are not shown before the start: nothing is', async () => {
    expect((await board(1, ann)).benchmarks).toEqual([]);
  });

  it('score like any entry once picks land, on every leaderboard, and never rank among the players', async () => {
    await operatorStart(t);
    // Slot 1 a reach (#38 on the board), then #1 and #2: the board's top 32 now has 32 - 2 = 30 pending
    // picks for 29 open slots, so it can no longer be perfect (busted early); the others are alive.
    for (const [slot, index] of [[1, 37], [2, 0], [3, 1]] as const) {
      expectStatus(await t.request('POST', '/api/draft/picks', { user: admin, body: { slot, player_id: ids[index] } }), 200);
    }
    await eventually(async () => expect(byKey((await board(1, ann)).benchmarks).top_10?.correct_picks).toBe(2), 5000);
    const global = await board(1, ann);
    expect(byKey(global.benchmarks)).toEqual({
      board_top_32: { key: 'board_top_32', name: 'Big board top 32', picks: 32, correct_picks: 0, pending: 0, busted: true, tiebreak_rank: null, max_possible: 0 },
      chalk_20: { key: 'chalk_20', name: 'Chalk 20', picks: 20, correct_picks: 2, pending: 18, busted: false, tiebreak_rank: 2, max_possible: 20 },
      top_10: { key: 'top_10', name: 'Top 10 only', picks: 10, correct_picks: 2, pending: 8, busted: false, tiebreak_rank: 2, max_possible: 10 },
    });
    // The players' standings are theirs alone: two entries (plus the operator's none), ranked 1 and 2.
    expect(global.entries).toBe(2);
    expect(global.rankings.map((r) => [r.participant_id, r.rank, r.correct_picks])).toEqual([
      [ann.id, 1, 2],
      [bob.id, 2, 1],
    ]);
    expect(global.rankings.some((r) => /Big board|Chalk|Top 10/.test(r.participant_name))).toBe(false);
    // The same rows on a group's leaderboard (they depend on the board only).
    expect((await board(groupId, bob)).benchmarks).toEqual(global.benchmarks);
  });
});

describe('BENCHMARK_ENTRIES=false', () => {
  it('shows none, the standings otherwise the same', async () => {
    const off = await createTestApp({ env: { BENCHMARK_ENTRIES: 'false' } });
    try {
      const carl = await off.signUp('bench_carl');
      const [first] = await boardIds(off);
      expectStatus(await off.request('POST', '/api/picks/', { user: carl, body: { picks: [first] } }), 200);
      await operatorStart(off);
      const answer = expectStatus<Leaderboard>(await off.request('GET', '/api/groups/1/leaderboard', { user: carl }), 200);
      expect(answer).toMatchObject({ draft_started: true, entries: 1, benchmarks: [] });
      expect(answer.rankings.map((r) => r.participant_id)).toEqual([carl.id]);
    } finally {
      await off.close();
    }
  });
});
