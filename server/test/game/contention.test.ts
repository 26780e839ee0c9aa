/**
 * Who can still win, over REST: every standings row (the caller's `me` row too) carries `max_possible` and
 * `can_win`, in a group and globally, on constructed entries (a tie on the bar decided by the tie-break, a
 * shared first, an entry that can reach the bar, an eliminated one, a busted one, a leader who can still
 * bust); and the live stream's standings pages carry the same rows. Rules: shared/src/contention.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Leaderboard, LeaderboardRow, StandingsMine, StandingsPage } from '@first-round/shared/schemas';
import { liveStandingsJson } from '../../src/modules/leaderboard/leaderboard.service.js';
import { assembleStandings } from '@first-round/shared/live-standings';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { boardIds, createGroup, eventually, expectStatus, joinGroup, operatorStart, savePicks } from './helpers.js';

let t: TestApp;
let admin: TestUser;
let ids: number[];
const users: Record<string, TestUser> = {};
let groupId: number;

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  admin = await t.signUp('contentionop', ADMIN_EMAIL);
  ids = await boardIds(t);
  for (const name of ['leader', 'bold', 'bold2', 'timid', 'reach', 'short', 'busted']) users[name] = await t.signUp(`c_${name}`);
  const u = (name: string) => users[name]!;
  const undrafted = (from: number, n: number) => ids.slice(from, from + n);
  // Global picks (big-board indexes; ids[0..7] will be taken in slots 1-8, ids[40…] stay undrafted).
  await savePicks(t, u('leader'), [...ids.slice(0, 5), ids[40]!]); // 5 hits, 1 pending: leads, can still bust
  await savePicks(t, u('bold'), [ids[0]!, ids[1]!, ids[7]!]); // settled: 3 hits, boldest hit rank 8 — the bar
  await savePicks(t, u('bold2'), [ids[1]!, ids[6]!, ids[7]!]); // settled on the bar too: shares it
  await savePicks(t, u('timid'), [ids[0]!, ids[1]!, ids[2]!]); // settled: 3 hits, but boldest hit rank 3
  await savePicks(t, u('reach'), [ids[3]!, ids[41]!, ids[42]!]); // 1 hit, 2 pending: can reach 3
  await savePicks(t, u('short'), [ids[5]!, ids[43]!]); // 1 hit, 1 pending: 2 at best
  await savePicks(t, u('busted'), [ids[0]!, ids[1]!, ...undrafted(50, 25)]); // 25 pending, 24 slots left: busted early

  // A group of timid (owner), reach and short, each with picks of their own there.
  groupId = (await createGroup(t, u('timid'))).id;
  await joinGroup(t, u('reach'), groupId);
  await joinGroup(t, u('short'), groupId);
  await savePicks(t, u('timid'), [ids[0]!, ids[1]!, ids[2]!], groupId); // settled 3 (rank 3): the group's bar
  await savePicks(t, u('reach'), [ids[3]!, ids[41]!, ids[42]!], groupId); // can reach 3: tie-break open
  await savePicks(t, u('short'), [ids[5]!, ids[43]!, ids[44]!, ids[45]!], groupId); // 4 at best here

  await operatorStart(t);
  for (let slot = 1; slot <= 8; slot++) expectStatus(await t.request('POST', '/api/draft/picks', { user: admin, body: { slot, player_id: ids[slot - 1] } }), 200);
});
afterAll(async () => t?.close());

const board = async (group: number, user: TestUser) => expectStatus<Leaderboard>(await t.request('GET', `/api/groups/${group}/leaderboard`, { user }), 200);
/** name → [rank, correct picks, busted, max_possible, can_win] */
const summary = (rows: LeaderboardRow[]) =>
  Object.fromEntries(
    rows.map((r) => [Object.keys(users).find((k) => users[k]!.id === r.participant_id), [r.rank, r.correct_picks, r.busted, r.max_possible, r.can_win]]),
  );

describe('who can still win', () => {
  it('globally: against the best settled entry, with the tie-break deciding a settled tie', async () => {
    await eventually(async () => expect((await board(1, users.short!)).rankings.reduce((n, r) => n + r.correct_picks, 0)).toBe(5 + 3 + 3 + 3 + 1 + 1), 5000);
    const answer = await board(1, users.short!);
    expect(summary(answer.rankings)).toEqual({
      leader: [1, 5, false, 6, true], // the bar is 3 and it can reach 6 (it can also still bust)
      bold: [2, 3, false, 3, true], // the bar itself
      bold2: [2, 3, false, 3, true], // equal on score and tie-break: shares first
      timid: [4, 3, false, 3, false], // settled at 3, but its tie-break (rank 3) loses to the bar's (rank 8)
      short: [5, 1, false, 2, false], // 2 at best: eliminated from first
      reach: [6, 1, false, 3, true], // can tie the bar: its pending picks decide its tie-break
      busted: [7, 0, true, 0, false],
    });
    // The caller's own row, spliced into the page, carries them too.
    expect(answer.me).toEqual(answer.rankings.find((r) => r.participant_id === users.short!.id));
    expect(answer.me).toMatchObject({ max_possible: 2, can_win: false });
    // A page that does not hold the caller's row: `me` still does.
    const page = await t.request('GET', `/api/groups/1/leaderboard?limit=1&offset=0`, { user: users.busted });
    const paged = expectStatus<Leaderboard>(page, 200);
    expect(paged.rankings.map((r) => [r.participant_id, r.max_possible, r.can_win])).toEqual([[users.leader!.id, 6, true]]);
    expect(paged.me).toMatchObject({ participant_id: users.busted!.id, busted: true, max_possible: 0, can_win: false });
    // A busted row keeps what it had: 2 hits, no miss, 25 picks pending for 24 slots (the words say so).
    expect(paged.me).toMatchObject({ correct_picks: 0, hits: 2, misses: 0, picks: 27 });
    // Nobody has clinched first: the leader can still bust.
    expect([answer.clinched_by, paged.clinched_by]).toEqual([null, null]);
  });

  it('in a group: against that group’s own best settled entry', async () => {
    const answer = await board(groupId, users.reach!);
    expect(summary(answer.rankings)).toEqual({
      timid: [1, 3, false, 3, true], // the group's bar
      short: [2, 1, false, 4, true], // eliminated globally, not here: 4 at best
      reach: [3, 1, false, 3, true], // can tie it (its hit, rank 4, is less bold than short's, rank 6)
    });
    expect(answer.me).toMatchObject({ participant_id: users.reach!.id, max_possible: 3, can_win: true });
    expect(answer.clinched_by).toBeNull();
  });

  it('the live stream’s standings pages carry the same rows', async () => {
    const watch = { group_id: groupId, limit: 500, offset: 0 };
    const { page, mine } = await liveStandingsJson(t.deps, watch, users.short!.id, 1);
    const update = assembleStandings(JSON.parse(page) as StandingsPage, JSON.parse(mine) as StandingsMine)!;
    expect(update.leaderboard).toEqual(await board(groupId, users.short!));
    expect(update.leaderboard.me).toMatchObject({ max_possible: 4, can_win: true });
  });

  it('once round one is over, only the entries sharing first can win; the leader with a pick left out busts', async () => {
    expectStatus(await t.request('POST', '/api/draft/complete-round', { user: admin }), 200);
    await eventually(async () => expect((await board(1, users.leader!)).alive).toBe(3), 5000);
    expect(summary((await board(1, users.leader!)).rankings)).toEqual({
      bold: [1, 3, false, 3, true],
      bold2: [1, 3, false, 3, true],
      timid: [3, 3, false, 3, false],
      leader: [4, 0, true, 0, false],
      reach: [4, 0, true, 0, false],
      short: [4, 0, true, 0, false],
      busted: [4, 0, true, 0, false],
    });
    expect(summary((await board(groupId, users.timid!)).rankings)).toEqual({
      timid: [1, 3, false, 3, true],
      reach: [2, 0, true, 0, false],
      short: [2, 0, true, 0, false],
    });
    // Globally two share first: nobody has clinched. In the group timid has, on every page of it.
    expect((await board(1, users.leader!)).clinched_by).toBeNull();
    const second = expectStatus<Leaderboard>(await t.request('GET', `/api/groups/${groupId}/leaderboard?limit=1&offset=1`, { user: users.reach }), 200);
    expect(second.rankings.map((r) => r.participant_id)).not.toContain(users.timid!.id);
    expect(second.clinched_by).toBe(users.timid!.id);
    // Round one complete: an undrafted pick is a miss, and a busted row still says what it had.
    expect(second.me).toMatchObject({ busted: true, correct_picks: 0, hits: 1, misses: 2, picks: 3 });
  });
});
