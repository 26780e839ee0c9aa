/**
 * The odds in the global standings: each row's chance to survive round one and to finish first among every
 * global entry (sharing first counts), the shared model's numbers for the draft as it is, in the REST read,
 * the tRPC answer and the live messages alike; none once round one is complete. The global entries here
 * are this file's own (its own database), so each number can be checked by hand.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { standingOddsText } from '@first-round/shared/odds-words';
import type { Leaderboard, LeaderboardRow, PlayerDto } from '@first-round/shared/schemas';
import { recordPick } from '../../src/modules/draft/draft.service.js';
import { liveStandingsJson } from '../../src/modules/leaderboard/leaderboard.service.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { modelledOdds } from '../support/global-odds.js';
import { eventually, expectStatus, operatorComplete, operatorReset, operatorStart, savePicks } from './helpers.js';

let t: TestApp;
let board: PlayerDto[];
const ranked = (rank: number) => board.find((p) => p.rank === rank)!.id;
const ranks = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ranked(from + i));

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  board = expectStatus<PlayerDto[]>(await t.request('GET', '/api/players/'), 200);
});
afterAll(async () => t?.close());
afterEach(async () => operatorReset(t));

const globalStandings = async (user: TestUser) => expectStatus<Leaderboard>(await t.request('GET', `/api/groups/${GLOBAL_GROUP_ID}/leaderboard`, { user }), 200);
const rowOf = (lb: Leaderboard, user: TestUser): LeaderboardRow => lb.rankings.find((r) => r.participant_id === user.id)!;

/** Records round-one pick `slot` and waits until the app has heard it. */
async function record(slot: number, playerId: number) {
  const change = await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', slot, playerId);
  await eventually(async () => expect(t.deps.events.lastHeardEventId).toBeGreaterThanOrEqual(change.event_id));
}

const modelled = (entries: number[][]) => modelledOdds(t, entries);

const words = (o: { survive: number; win: number }) => standingOddsText(o.survive, o.win);

describe('the odds in the global standings', () => {
  let ann: TestUser, ben: TestUser, dan: TestUser, cat: TestUser;
  /** Settled on ranks 1 and 2; settled on rank 1 alone; 31 picks pending once two slots are filled (busted early). */
  const picks = () => ({ ann: [ranked(1), ranked(2)], ben: [ranked(1)], dan: ranks(3, 33) });

  beforeAll(async () => {
    [ann, ben, dan, cat] = [await t.signUp(), await t.signUp(), await t.signUp(), await t.signUp()];
    const p = picks();
    await savePicks(t, ann, p.ann);
    await savePicks(t, ben, p.ben);
    await savePicks(t, dan, p.dan);
  });

  it('the only entry that can reach the best key wins 100 %; one certain to lose 0 %; a busted one 0 % of both; every number the model over every entry', async () => {
    await operatorStart(t);
    await record(1, ranked(1));
    await record(2, ranked(2));
    const lb = await globalStandings(ann);
    expect(lb.entries).toBe(3);
    const p = picks();
    const expected = (await modelled([p.ann, p.ben, p.dan])).odds;
    expect(expected).toEqual([
      { survive: 1, win: 1 },
      { survive: 1, win: 0 },
      { survive: 0, win: 0 },
    ]);
    for (const [i, user] of [ann, ben, dan].entries()) expect(rowOf(lb, user).odds).toEqual({ ...expected[i]!, text: words(expected[i]!) });
    expect(rowOf(lb, ann).odds!.text).toBe('100 % to survive · 100 % to win');
    expect(rowOf(lb, ben).odds!.text).toBe('100 % to survive · 0 % to win');
    expect(rowOf(lb, dan).odds!.text).toBe('0 % to survive · 0 % to win');
    // The reader's own row carries them, whatever page is read.
    expect(lb.me!.odds).toEqual(rowOf(lb, ann).odds);
    const elsewhere = expectStatus<Leaderboard>(await t.request('GET', `/api/groups/${GLOBAL_GROUP_ID}/leaderboard?limit=1&offset=2`, { user: ann }), 200);
    expect(elsewhere.rankings.map((r) => r.participant_id)).not.toContain(ann.id);
    expect(elsewhere.me!.odds).toEqual(rowOf(lb, ann).odds);
  });

  it("an entry that beats the settled one when its pending pick goes: it wins exactly then, the settled one otherwise, in the read, tRPC's answer and the live messages; none after round one", async () => {
    // Picks lock at the start: Cat's entry joins before it.
    await savePicks(t, cat, [ranked(1), ranked(2), ranked(40)]);
    await operatorStart(t);
    await record(1, ranked(1));
    await record(2, ranked(2));
    const lb = await globalStandings(cat);
    const p = picks();
    const { sims, picks: indexes, odds: expected } = await modelled([p.ann, p.ben, p.dan, [ranked(1), ranked(2), ranked(40)]]);
    const [annOdds, , , catOdds] = expected;
    // Cat survives exactly when rank 40 goes, and then beats Ann (3 hits to 2); otherwise Ann wins.
    expect(catOdds!.survive).toBe(sims.goes[indexes[3]![2]!]);
    expect(catOdds!.win).toBe(catOdds!.survive);
    expect(annOdds!.win).toBeCloseTo(1 - catOdds!.win, 12);
    expect(catOdds!.survive).toBeGreaterThan(0);
    expect(catOdds!.survive).toBeLessThan(1);
    for (const [i, user] of [ann, ben, dan, cat].entries()) expect(rowOf(lb, user).odds).toEqual({ ...expected[i]!, text: words(expected[i]!) });

    // tRPC's answer is the same.
    const viaTrpc = await (await t.caller(cat)).leaderboard.group({ group_id: GLOBAL_GROUP_ID });
    expect(viaTrpc.rankings.map((r) => r.odds)).toEqual(lb.rankings.map((r) => r.odds));
    expect(viaTrpc.me!.odds).toEqual(rowOf(lb, cat).odds);

    // The live messages carry the very odds the read answers: the page, and the reader's own part.
    const live = await liveStandingsJson(t.deps, { group_id: GLOBAL_GROUP_ID, limit: 500, offset: 0 }, cat.id, 7);
    const page = JSON.parse(live.page) as { leaderboard: Leaderboard };
    expect(page.leaderboard.rankings.map((r) => r.odds)).toEqual(lb.rankings.map((r) => r.odds));
    expect((JSON.parse(live.mine) as Leaderboard).me!.odds).toEqual(rowOf(lb, cat).odds);

    // Round one complete: results only.
    await operatorComplete(t);
    await eventually(async () => expect((await globalStandings(cat)).rankings.every((r) => r.odds === undefined)).toBe(true));
    const after = await globalStandings(cat);
    expect(after.me!.odds).toBeUndefined();
    const liveAfter = await liveStandingsJson(t.deps, { group_id: GLOBAL_GROUP_ID, limit: 500, offset: 0 }, cat.id, 9);
    expect((JSON.parse(liveAfter.page) as { leaderboard: Leaderboard }).leaderboard.rankings.every((r) => r.odds === undefined)).toBe(true);
    expect((JSON.parse(liveAfter.mine) as Leaderboard).me!.odds).toBeUndefined();
  });

  it('an entry saved again after a reset moves every odds number at the next start, the whole-field scan included', async () => {
    const p = picks();
    const expectModel = async (catPicks: number[]) => {
      const lb = await globalStandings(cat);
      const { odds: expected } = await modelled([p.ann, p.ben, p.dan, catPicks]);
      for (const [i, user] of [ann, ben, dan, cat].entries()) expect(rowOf(lb, user).odds).toEqual({ ...expected[i]!, text: words(expected[i]!) });
      return expected;
    };
    // Cat as Ben: nobody can beat Ann's two hits but Ann.
    await savePicks(t, cat, [ranked(1)]);
    await operatorStart(t);
    const before = await expectModel([ranked(1)]);
    // The draft reset, Cat saves again with a third pick, and the draft starts again: she now beats Ann
    // whenever all three go, so Ann's chance to win falls.
    await operatorReset(t);
    const bolder = [ranked(1), ranked(2), ranked(40)];
    await savePicks(t, cat, bolder);
    await operatorStart(t);
    const after = await expectModel(bolder);
    expect(after[0]!.win).toBeLessThan(before[0]!.win);
  });
});
