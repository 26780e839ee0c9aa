/** The odds in the answers: the caller's own entry on picks.mine / GET /picks/my-picks, the shared model's number. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { snapshotOf } from '@first-round/shared/draft-snapshot';
import { entryOdds, oddsBoard } from '@first-round/shared/odds';
import type { MyPicks } from '@first-round/shared/odds-schemas';
import type { DraftStatus, PlayerDto } from '@first-round/shared/schemas';
import { recordPick } from '../../src/modules/draft/draft.service.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { eventually, expectStatus, operatorComplete, operatorReset, operatorStart, savePicks } from './helpers.js';

let t: TestApp;
let board: PlayerDto[];
/** The board's player of a rank. */
const ranked = (rank: number) => board.find((p) => p.rank === rank)!;

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  board = expectStatus<PlayerDto[]>(await t.request('GET', '/api/players/'), 200);
});
afterAll(async () => t?.close());
afterEach(async () => operatorReset(t));

const myPicks = async (user: TestUser) => expectStatus<MyPicks>(await t.request('GET', '/api/picks/my-picks', { user }), 200);
/** What the shared model says of these picks on the board and draft as they are now (what the web app computes). */
async function modelled(picks: number[]) {
  const players = expectStatus<PlayerDto[]>(await t.request('GET', '/api/players/'), 200);
  const status = expectStatus<DraftStatus>(await t.request('GET', '/api/draft/status'), 200);
  return entryOdds(oddsBoard(players, snapshotOf(status, players)), picks);
}

describe("the odds of the caller's entry", () => {
  it('before the draft: the chance to survive in words, the kill list riskiest first, what it needs', async () => {
    const user = await t.signUp();
    const picks = [ranked(1).id, ranked(30).id, ranked(45).id];
    await savePicks(t, user, picks);
    const { odds } = await myPicks(user);
    const expected = (await modelled(picks))!;
    expect(odds!.survive).toBe(expected.survive);
    expect(odds!.survive).toBeGreaterThan(0);
    expect(odds!.survive).toBeLessThan(1);
    expect(odds!.survive_text).toBe(`${Math.round(expected.survive * 100)} % to survive`);
    expect(odds!.kill_list.map((k) => k.player_id)).toEqual([ranked(45).id, ranked(30).id, ranked(1).id]);
    expect(odds!.kill_list[0]!.text).toMatch(new RegExp(`^${ranked(45).player_name} · \\d+ % to miss round one$`));
    expect(odds!.needs).toBe(`Needs all of: ${ranked(45).player_name}, ${ranked(30).player_name} and ${ranked(1).player_name}`);
    // The same on the global picks' call; nothing to say of an entry without picks.
    expect((await t.request('GET', '/api/picks/global-picks', { user }).then((r) => expectStatus<MyPicks>(r, 200))).odds).toEqual(odds);
    expect((await myPicks(await t.signUp())).odds).toBeNull();
  });

  it('changes with a pick: a pick that goes leaves the kill list and the chance rises; after round one, no odds', async () => {
    const user = await t.signUp();
    const picks = [ranked(1).id, ranked(40).id];
    await savePicks(t, user, picks);
    const before = (await myPicks(user)).odds!;
    await operatorStart(t);
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 1, ranked(40).id);
    await eventually(async () => expect((await myPicks(user)).odds!.kill_list.map((k) => k.player_id)).toEqual([ranked(1).id]));
    const after = (await myPicks(user)).odds!;
    expect(after.survive).toBe((await modelled(picks))!.survive);
    expect(after.survive).toBeGreaterThan(before.survive);
    expect(after.needs).toBe(`Needs ${ranked(1).player_name}`);
    await operatorComplete(t);
    await eventually(async () => expect((await myPicks(user)).odds).toBeNull());
  });

  it('an entry busted by too many pending picks is 0 % to survive', async () => {
    const user = await t.signUp();
    // 32 picks, none of them the player taken first: 32 pending, 31 slots left.
    const picks = board.filter((p) => p.rank !== 200).slice(0, 32).map((p) => p.id);
    await savePicks(t, user, picks);
    await operatorStart(t);
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 1, ranked(200).id);
    await eventually(async () => expect((await myPicks(user)).odds!.survive).toBe(0));
    expect((await myPicks(user)).odds!.survive_text).toBe('0 % to survive');
  });
});
