/**
 * The odds in a group's standings: each entry's chance to survive and to win within the group, the shared
 * model's numbers for the draft as it is, in the read and in the live page alike; none once round one is
 * complete. The global standings' odds, among every global entry: global-odds.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Leaderboard, PlayerDto } from '@first-round/shared/schemas';
import { recordPick } from '../../src/modules/draft/draft.service.js';
import { liveStandingsJson } from '../../src/modules/leaderboard/leaderboard.service.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { modelledOdds } from '../support/global-odds.js';
import { createGroup, eventually, expectStatus, joinGroup, operatorComplete, operatorReset, operatorStart, savePicks } from './helpers.js';

let t: TestApp;
let board: PlayerDto[];
const ranked = (rank: number) => board.find((p) => p.rank === rank)!;

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  board = expectStatus<PlayerDto[]>(await t.request('GET', '/api/players/'), 200);
});
afterAll(async () => t?.close());
afterEach(async () => operatorReset(t));

const standings = async (user: TestUser, groupId: number) => expectStatus<Leaderboard>(await t.request('GET', `/api/groups/${groupId}/leaderboard`, { user }), 200);

/** The shared model's survive and win of these entries, together (what the web app computes). */
const modelled = async (entries: number[][]) => (await modelledOdds(t, entries)).odds;

/** A group of three entries: a safe one, a risky one, and one in between. */
async function threeEntries() {
  const [ann, ben, cat] = [await t.signUp(), await t.signUp(), await t.signUp()];
  const group = await createGroup(t, ann);
  await joinGroup(t, ben, group.id);
  await joinGroup(t, cat, group.id);
  const picks = [
    [ranked(1).id, ranked(2).id],
    [ranked(1).id, ranked(30).id, ranked(45).id],
    [ranked(3).id, ranked(20).id],
  ];
  const users = [ann, ben, cat];
  for (const [i, user] of users.entries()) await savePicks(t, user, picks[i]!, group.id);
  return { group, users, picks };
}

describe("the odds in a group's standings", () => {
  it("each row carries the shared model's survive and win chances within the group, in words; the global row its chances among the global entries", async () => {
    const { group, users, picks } = await threeEntries();
    await savePicks(t, users[0]!, picks[0]!);
    await operatorStart(t);
    const lb = await standings(users[0]!, group.id);
    const expected = await modelled(picks);
    for (const [i, user] of users.entries()) {
      const row = lb.rankings.find((r) => r.participant_id === user.id)!;
      expect(row.odds!.survive).toBe(expected[i]!.survive);
      expect(row.odds!.win).toBe(expected[i]!.win);
      expect(row.odds!.text).toMatch(/^(\d+|<1|>99) % to survive · (\d+|<1|>99) % to win$/);
      expect(row.odds!.text).toBe(`${Math.round(expected[i]!.survive * 100)} % to survive · ${Math.round(expected[i]!.win * 100)} % to win`);
    }
    // The safe entry is likelier to survive than the risky one; somebody wins in nearly every simulation.
    expect(expected[0]!.survive).toBeGreaterThan(expected[1]!.survive);
    expect(expected[0]!.win + expected[1]!.win + expected[2]!.win).toBeGreaterThan(0.5);
    expect(lb.me!.odds).toEqual(lb.rankings.find((r) => r.participant_id === users[0]!.id)!.odds);
    // The global standings: the odds among every global entry (here the one: it wins wherever it survives).
    const global = await standings(users[0]!, 1);
    expect(global.entries).toBe(1);
    const [alone] = await modelled([picks[0]!]);
    expect(alone!.win).toBe(alone!.survive);
    expect(global.me!.odds).toEqual({ survive: alone!.survive, win: alone!.win, text: `${Math.round(alone!.survive * 100)} % to survive · ${Math.round(alone!.win * 100)} % to win` });
  });

  it('the live page carries the very odds the read answers, after a pick the new ones; after round one none', async () => {
    const { group, users, picks } = await threeEntries();
    await operatorStart(t);
    const before = await standings(users[1]!, group.id);
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 1, ranked(30).id);
    await eventually(async () => expect((await standings(users[1]!, group.id)).me!.odds).not.toEqual(before.me!.odds));
    const lb = await standings(users[1]!, group.id);
    const expected = await modelled(picks);
    expect(lb.me!.odds!.survive).toBe(expected[1]!.survive);
    expect(lb.me!.odds!.survive).toBeGreaterThan(before.me!.odds!.survive);
    const live = await liveStandingsJson(t.deps, { group_id: group.id, limit: 500, offset: 0 }, users[1]!.id, 7);
    const page = JSON.parse(live.page) as { leaderboard: Leaderboard };
    expect(page.leaderboard.rankings.map((r) => r.odds)).toEqual(lb.rankings.map((r) => r.odds));
    expect((JSON.parse(live.mine) as Leaderboard).me!.odds).toEqual(lb.me!.odds);
    await operatorComplete(t);
    await eventually(async () => expect((await standings(users[1]!, group.id)).rankings.every((r) => r.odds === undefined)).toBe(true));
  });
});
