/**
 * A group's draft board (groups.draftBoard, GET /api/groups/{id}/draft-board) on a hand-computed group,
 * with a round one of 6 slots so that "busted early" comes after three picks:
 *
 *   Ann (owner)  group picks  p0 p1 p4
 *   Bob          reuses his global picks p1 p2 (his group picks p7 do not count)
 *   Cat          group picks  p2 p3 p5 p6 p8 p9
 *   Dan          group picks  p4 p6
 *   Fay          no picks (not an entry)
 *
 * After slot 1 = p1, slot 2 = p0, slot 3 = p2 (3 slots left): Ann has 2 hits and p4 pending, Bob 2 hits,
 * Cat 1 hit and 5 pending (> 3 left: busted early), Dan 2 pending. So slot 1 was had by Ann and Bob,
 * slot 2 by Ann, slot 3 by Bob and Cat (busted members still count); the alive entries wait on p4 (Ann,
 * Dan) and then p6 (Dan only: Cat is busted), most-needed first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftBoard, GroupDto } from '@first-round/shared/schemas';
import { MESSAGES } from '@first-round/shared/messages';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { boardIds, createGroup, expectError, expectStatus, joinGroup, operatorReset, operatorStart, savePicks } from './helpers.js';

let t: TestApp;
let ann: TestUser, bob: TestUser, cat: TestUser, dan: TestUser, fay: TestUser, eve: TestUser, admin: TestUser;
let group: GroupDto;
/** Private picks (picks_public false): Dan (owner) p1, Ann p1 p3. */
let quiet: GroupDto;
let p: number[];

const member = (u: TestUser) => ({ participant_id: u.id, participant_name: u.username });
const boardOf = async (user: TestUser | undefined, groupId = group.id) => t.request('GET', `/api/groups/${groupId}/draft-board`, { user });
const record = async (slot: number, playerId: number) => expectStatus(await t.request('POST', '/api/draft/picks', { user: admin, body: { slot, player_id: playerId } }), 200);

beforeAll(async () => {
  t = await createTestApp({ env: { ROUND_ONE_PICKS: '6' } });
  [ann, bob, cat, dan, fay, eve, admin] = [
    await t.signUp('ann'),
    await t.signUp('bob'),
    await t.signUp('cat'),
    await t.signUp('dan'),
    await t.signUp('fay'),
    await t.signUp('eve'),
    await t.signUp('op', ADMIN_EMAIL),
  ];
  p = await boardIds(t);
  group = await createGroup(t, ann, { picks_public: true });
  for (const u of [bob, cat, dan, fay]) await joinGroup(t, u, group.id);
  await savePicks(t, ann, [p[0]!, p[1]!, p[4]!], group.id);
  await savePicks(t, bob, [p[7]!], group.id);
  await savePicks(t, bob, [p[1]!, p[2]!]);
  expectStatus(await t.request('POST', `/api/groups/${group.id}/use-global-picks`, { user: bob, body: { use_global_picks: true } }), 200);
  await savePicks(t, cat, [p[2]!, p[3]!, p[5]!, p[6]!, p[8]!, p[9]!], group.id);
  await savePicks(t, dan, [p[4]!, p[6]!], group.id);
  quiet = await createGroup(t, dan);
  await joinGroup(t, ann, quiet.id);
  await savePicks(t, dan, [p[1]!], quiet.id);
  await savePicks(t, ann, [p[1]!, p[3]!], quiet.id);
});
afterAll(async () => t?.close());

describe('before the start', () => {
  it('shows nothing about anybody: 409 for members, 401 signed out, 404 for others as for no such group', async () => {
    expectError(await boardOf(ann), 409, MESSAGES.draftBoardBeforeStart);
    expect(expectError(await boardOf(fay), 409).code).toBe('CONFLICT');
    expectError(await boardOf(eve), 404, MESSAGES.groupNotFound);
    expectError(await boardOf(undefined), 401, MESSAGES.authRequired);
    expectError(await boardOf(ann, 2147483647), 404, MESSAGES.groupNotFound);
    await expect((await t.caller(dan)).groups.draftBoard({ group_id: group.id })).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.draftBoardBeforeStart });
  });
});

describe('after the start', () => {
  beforeAll(async () => {
    await operatorStart(t);
  });
  afterAll(async () => {
    await operatorReset(t);
  });

  it('lists every open slot and what the alive entries wait on before any pick', async () => {
    const board = expectStatus<DraftBoard>(await boardOf(fay), 200);
    // Each slot with the team that holds it (the bundled 2025 order's first six).
    const teams = ['TEN', 'JAX', 'NYG', 'NE', 'CLE', 'LV'];
    expect(board.slots).toEqual([1, 2, 3, 4, 5, 6].map((slot) => ({ slot, team: teams[slot - 1], player: null, had_by: [], had_by_count: 0 })));
    expect(board).toMatchObject({ group_id: group.id, picks_visible: true, round_one_complete: false, entries: 4, alive: 4 });
    // Every undrafted pick of an alive entry: by how many need him, then by rank.
    expect(board.waiting_on.map((w) => [w.player_id, w.needed_by.map((m) => m.participant_name)])).toEqual([
      [p[1], ['ann', 'bob']],
      [p[2], ['bob', 'cat']],
      [p[4], ['ann', 'dan']],
      [p[6], ['cat', 'dan']],
      [p[0], ['ann']],
      [p[3], ['cat']],
      [p[5], ['cat']],
      [p[8], ['cat']],
      [p[9], ['cat']],
    ]);
  });

  it('fills the slots as picks land: who had each player, busted members included, and who waits on whom', async () => {
    await record(1, p[1]!);
    await record(2, p[0]!);
    const { event_id } = (await record(3, p[2]!)) as { event_id: number };
    const board = expectStatus<DraftBoard>(await boardOf(fay), 200);
    const players = expectStatus<{ id: number; player_name: string; position: string; school: string; rank: number }[]>(await t.request('GET', '/api/players/'), 200);
    const shown = (id: number) => {
      const x = players.find((pl) => pl.id === id)!;
      return { id, player_name: x.player_name, position: x.position, school: x.school, rank: x.rank };
    };
    expect(board).toEqual({
      group_id: group.id,
      picks_visible: true,
      last_event_id: event_id,
      round_one_complete: false,
      entries: 4,
      alive: 3,
      slots: [
        { slot: 1, team: 'TEN', player: shown(p[1]!), had_by: [member(ann), member(bob)], had_by_count: 2 },
        { slot: 2, team: 'JAX', player: shown(p[0]!), had_by: [member(ann)], had_by_count: 1 },
        { slot: 3, team: 'NYG', player: shown(p[2]!), had_by: [member(bob), member(cat)], had_by_count: 2 },
        { slot: 4, team: 'NE', player: null, had_by: [], had_by_count: 0 },
        { slot: 5, team: 'CLE', player: null, had_by: [], had_by_count: 0 },
        { slot: 6, team: 'LV', player: null, had_by: [], had_by_count: 0 },
      ],
      waiting_on: [
        { player_id: p[4], player_name: shown(p[4]!).player_name, position: shown(p[4]!).position, school: shown(p[4]!).school, rank: shown(p[4]!).rank, needed_by: [member(ann), member(dan)], needed_by_count: 2, safe_if_goes_now: 1, if_goes_now: `If ${shown(p[4]!).player_name} goes now, 1 of you is safe` },
        { player_id: p[6], player_name: shown(p[6]!).player_name, position: shown(p[6]!).position, school: shown(p[6]!).school, rank: shown(p[6]!).rank, needed_by: [member(dan)], needed_by_count: 1, safe_if_goes_now: 0, if_goes_now: null },
      ],
    });
    // Ann waits on p4 alone (safe if he goes now); Dan on p4 and p6, so neither alone makes him safe.
    // Bob's own group picks (p7) do not count while he reuses his global ones; nobody else has p7.
    expect(board.waiting_on.map((w) => w.player_id)).not.toContain(p[7]);
    // The same answer through tRPC, and for every member.
    expect(await (await t.caller(ann)).groups.draftBoard({ group_id: group.id })).toEqual(board);
    expectError(await boardOf(eve), 404, MESSAGES.groupNotFound);
    expectError(await boardOf(undefined), 401, MESSAGES.authRequired);
  });

  it('a group whose picks are private counts every entry but names only the caller', async () => {
    const mine = expectStatus<DraftBoard>(await boardOf(ann, quiet.id), 200);
    expect(mine).toMatchObject({ picks_visible: false, entries: 2, alive: 2 });
    // Dan and Ann both had the first pick: two counted, Ann alone named.
    expect(mine.slots[0]).toMatchObject({ slot: 1, had_by: [member(ann)], had_by_count: 2 });
    expect(mine.waiting_on.map((w) => [w.player_id, w.needed_by_count, w.needed_by])).toEqual([[p[3], 1, [member(ann)]]]);
    // Dan reads the same counts, and Ann's wait without her name.
    const his = expectStatus<DraftBoard>(await boardOf(dan, quiet.id), 200);
    expect(his.slots[0]).toMatchObject({ had_by: [member(dan)], had_by_count: 2 });
    expect(his.waiting_on.map((w) => [w.player_id, w.needed_by_count, w.needed_by])).toEqual([[p[3], 1, []]]);
    // The global group: the caller's global picks alone (others' global picks are never shown).
    const global = expectStatus<DraftBoard>(await boardOf(bob, 1), 200);
    expect(global).toMatchObject({ group_id: 1, picks_visible: false, entries: 1, alive: 1, waiting_on: [] });
    expect(global.slots.filter((s) => s.had_by.length > 0).map((s) => [s.slot, s.had_by])).toEqual([
      [1, [member(bob)]],
      [3, [member(bob)]],
    ]);
  });

  it('waits on nobody once round one is complete', async () => {
    expectStatus(await t.request('POST', '/api/draft/complete-round', { user: admin }), 200);
    const board = expectStatus<DraftBoard>(await boardOf(ann), 200);
    expect(board).toMatchObject({ round_one_complete: true, entries: 4, alive: 1, waiting_on: [] });
    expect(board.slots[2]!.had_by).toEqual([member(bob), member(cat)]);
  });
});
