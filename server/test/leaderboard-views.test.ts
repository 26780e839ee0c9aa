/**
 * What the standings screens read besides a plain page: each row's pick count, a name search over the
 * whole ranking, alive or busted entries alone, the caller's position (Jump to me), the same over the live
 * stream, and the group cards' data. Before the start none of it reveals anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Leaderboard, LeaderboardRow, MyGroupStandings, PlayerDto, StandingsMine, StandingsPage } from '@first-round/shared/schemas';
import { assembleStandings } from '@first-round/shared/live-standings';
import { completeRoundOne, recordPick } from '../src/modules/draft/draft.service.js';
import { liveStandingsJson } from '../src/modules/leaderboard/leaderboard.service.js';
import { createTestApp, type TestApp, type TestUser } from './support/test-app.js';
import { createGroup, expectError, expectStatus, joinGroup, operatorReset, operatorStart, savePicks, uniqueName } from './game/helpers.js';

let t: TestApp;
let ids: number[];
/** Ann, Bob, Cat, Dan, Eve: screen names of their own (with a shared 'fan' in three of them). */
let users: Record<'ann' | 'bob' | 'cat' | 'dan' | 'eve', TestUser>;
const tag = String(process.pid).slice(-4);

const board = async (user: TestUser, query: Record<string, string | number | undefined> = {}, groupId = 1) => {
  const qs = new URLSearchParams(Object.entries(query).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]]))).toString();
  return expectStatus<Leaderboard>(await t.request('GET', `/api/groups/${groupId}/leaderboard${qs ? `?${qs}` : ''}`, { user }), 200);
};
const cards = async (user: TestUser) => (await t.caller(user)).leaderboard.myGroups();

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  ids = expectStatus<PlayerDto[]>(await t.request('GET', '/api/players/'), 200).map((p) => p.id);
  users = {
    ann: await t.signUp(`AnnFan${tag}`),
    bob: await t.signUp(`bobFAN${tag}`),
    cat: await t.signUp(`Cat${tag}`),
    dan: await t.signUp(`Dan${tag}`),
    eve: await t.signUp(`EveFan${tag}`),
  };
  // Board ranks 1, 2, 3 … are ids[0], ids[1], ids[2] …
  await savePicks(t, users.ann, [ids[0]!, ids[1]!]);
  await savePicks(t, users.bob, [ids[0]!, ids[1]!, ids[2]!]);
  await savePicks(t, users.cat, [ids[0]!]);
  await savePicks(t, users.dan, [ids[5]!]);
  // Eve has no global picks.
}, 120_000);
afterAll(async () => {
  await operatorReset(t);
  await t?.close();
});

describe('before the start', () => {
  it('a search, a status filter or a far page reveals nothing: no rows, no counts, no position', async () => {
    await operatorReset(t);
    for (const query of [{}, { search: 'fan' }, { search: users.ann.username }, { status: 'alive' }, { status: 'busted', offset: 100 }]) {
      expect(await board(users.ann, query)).toEqual({ group_id: 1, draft_started: false, entries: 0, alive: 0, clinched_by: null, rankings: [], me: null, matches: 0, me_position: null, benchmarks: [] });
    }
    const viaTrpc = await (await t.caller(users.ann)).leaderboard.group({ group_id: 1, search: 'ann' });
    expect(viaTrpc).toMatchObject({ draft_started: false, rankings: [], matches: 0, me: null, me_position: null });
  });

  it('group cards say whose picks are in, never a place', async () => {
    const group = await createGroup(t, users.ann, { name: uniqueName('Cards') });
    await joinGroup(t, users.bob, group.id);
    await joinGroup(t, users.cat, group.id);
    await joinGroup(t, users.eve, group.id);
    // Ann saves picks for this group only (her entry is forked); Bob and Cat play their My Picks (linked, as
    // joining leaves them); Eve is linked too, with no My Picks: her entry is not in.
    await savePicks(t, users.ann, [ids[3]!], group.id);

    const ann = (await cards(users.ann)).groups.find((g) => g.group_id === group.id);
    expect(ann).toEqual({ group_id: group.id, members: 4, ready: 3, has_picks: true, use_global_picks: false, entry_mode: 'own', my_picks: 1, standing: null });
    expect((await cards(users.bob)).groups.find((g) => g.group_id === group.id)).toMatchObject({ ready: 3, has_picks: true, use_global_picks: true, entry_mode: 'linked', my_picks: 3, standing: null });
    expect((await cards(users.eve)).groups.find((g) => g.group_id === group.id)).toMatchObject({ ready: 3, has_picks: false, entry_mode: 'linked', my_picks: 0, standing: null });
    // Cat forks her entry (a copy of her one My Pick), then changes it here: My Picks keep one pick.
    expectStatus(await t.request('POST', `/api/groups/${group.id}/use-global-picks`, { user: users.cat, body: { use_global_picks: false } }), 200);
    expect((await cards(users.cat)).groups.find((g) => g.group_id === group.id)).toMatchObject({ ready: 3, has_picks: true, entry_mode: 'own', my_picks: 1 });
    await savePicks(t, users.cat, [ids[0]!, ids[9]!], group.id);
    expect((await cards(users.cat)).groups.find((g) => g.group_id === group.id)).toMatchObject({ has_picks: true, entry_mode: 'own', my_picks: 2 });
    // Not a member: the group is not among Dan's cards.
    expect((await cards(users.dan)).groups.some((g) => g.group_id === group.id)).toBe(false);
    expect((await cards(users.dan)).draft_started).toBe(false);
    // Over REST too.
    const rest = expectStatus<MyGroupStandings>(await t.request('GET', '/api/groups/my-standings', { user: users.cat }), 200);
    expect(rest.groups.find((g) => g.group_id === group.id)).toMatchObject({ members: 4, ready: 3 });
    expectError(await t.request('GET', '/api/groups/my-standings'), 401);
  });
});

describe('after the start', () => {
  let group: number;

  beforeAll(async () => {
    await operatorReset(t);
    const created = await createGroup(t, users.dan, { name: uniqueName('Live cards') });
    group = created.id;
    await joinGroup(t, users.ann, group);
    await joinGroup(t, users.eve, group);
    await savePicks(t, users.dan, [ids[0]!, ids[5]!], group);
    await savePicks(t, users.ann, [ids[0]!], group);
    await operatorStart(t);
    // Rank 1 and rank 2 go in round one; rank 3 (Bob's third pick) is still pending.
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 1, ids[0]!);
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 2, ids[1]!);
    // Heard through NOTIFY: the cached global ranking follows.
    for (let until = Date.now() + 5000; ; ) {
      const me = (await board(users.ann)).me;
      if (me?.correct_picks === 2 || Date.now() > until) break;
      await new Promise((r) => setTimeout(r, 25));
    }
  });

  it('each row carries its pick count: an alive entry has picks − hits pending', async () => {
    const whole = await board(users.ann, { limit: 5000 });
    const row = (u: TestUser) => whole.rankings.find((r) => r.participant_id === u.id)!;
    expect(row(users.ann)).toMatchObject({ picks: 2, correct_picks: 2, busted: false });
    expect(row(users.bob)).toMatchObject({ picks: 3, correct_picks: 2, busted: false });
    expect(row(users.cat)).toMatchObject({ picks: 1, correct_picks: 1, busted: false });
    expect(row(users.dan)).toMatchObject({ picks: 1, correct_picks: 0, busted: false });
    expect(whole.rankings.some((r) => r.participant_id === users.eve.id)).toBe(false);
    expect(whole.me).toEqual(row(users.ann));
    expect(whole.matches).toBe(whole.entries);
    // The caller's position is their index in the whole ranking (not just their rank: ranks are shared).
    expect(whole.me_position).toBe(whole.rankings.indexOf(row(users.ann)));
    expect((await board(users.eve)).me_position).toBeNull();
  });

  it('search finds names anywhere in the ranking, ignoring case, with their real ranks, a page at a time', async () => {
    const whole = (await board(users.cat, { limit: 5000 })).rankings;
    const fans = whole.filter((r) => r.participant_name.toLowerCase().includes(`fan${tag}`));
    expect(fans.map((r) => r.participant_id).sort()).toEqual([users.ann.id, users.bob.id].sort());

    const found = await board(users.cat, { search: `FAN${tag}` });
    expect(found.rankings).toEqual(fans);
    expect(found).toMatchObject({ matches: 2, entries: whole.length, me: whole.find((r) => r.participant_id === users.cat.id), me_position: null });
    // Paging through the matches.
    const second = await board(users.cat, { search: ` fan${tag} `, limit: 1, offset: 1 });
    expect(second.rankings).toEqual([fans[1]]);
    expect(second.matches).toBe(2);
    // The caller among the matches: their position there.
    const own = await board(users.bob, { search: `fan${tag}`, limit: 1 });
    expect(own.me_position).toBe(fans.findIndex((r) => r.participant_id === users.bob.id));
    // Nobody by that name; a blank search is everyone.
    expect(await board(users.cat, { search: `nobody${tag}` })).toMatchObject({ rankings: [], matches: 0 });
    expect((await board(users.cat, { search: '   ', limit: 5000 })).rankings).toEqual(whole);
    // Too long, or not text the schema takes: 422 with the field, never a 500.
    expectError(await t.request('GET', `/api/groups/1/leaderboard?search=${'x'.repeat(51)}`, { user: users.cat }), 422, /search/);
    expectError(await t.request('GET', `/api/groups/1/leaderboard?status=dead`, { user: users.cat }), 422, /status/);
  });

  it('search is served from the ranked copy in memory, not read from the database per request', async () => {
    // A rename written straight to the database, announced to nobody: the cached ranking still has the old
    // name, so a search for the new one finds nobody until the standings are ranked again.
    const fresh = `Renamed${tag}`;
    await t.db.query('update participant set screen_name = $1 where id = $2', [fresh, users.cat.id]);
    try {
      expect((await board(users.dan, { search: fresh })).matches).toBe(0);
      t.deps.leaderboards.renamed(users.cat.id);
      for (let until = Date.now() + 5000; ; ) {
        const found = await board(users.dan, { search: fresh.toUpperCase() });
        if (found.matches === 1 || Date.now() > until) {
          expect(found.rankings.map((r) => r.participant_id)).toEqual([users.cat.id]);
          break;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      await t.db.query('update participant set screen_name = $1 where id = $2', [users.cat.username, users.cat.id]);
      t.deps.leaderboards.renamed(users.cat.id);
    }
  });

  it('alive or busted entries alone, in ranking order, and the caller positioned among them', async () => {
    // Round one complete: Bob's and Dan's pending picks are misses now.
    await completeRoundOne(t.deps.orm.em.fork(), t.deps.draft, 'test');
    let whole: Leaderboard;
    for (let until = Date.now() + 5000; ; ) {
      whole = await board(users.bob, { limit: 5000 });
      if (whole.me?.busted || Date.now() > until) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const alive = whole.rankings.filter((r) => !r.busted);
    const busted = whole.rankings.filter((r) => r.busted);
    expect(busted.map((r) => r.participant_id)).toEqual(expect.arrayContaining([users.bob.id, users.dan.id]));

    const onlyAlive = await board(users.bob, { status: 'alive', limit: 5000 });
    expect(onlyAlive).toMatchObject({ rankings: alive, matches: alive.length, entries: whole.entries, alive: whole.alive, me_position: null });
    const onlyBusted = await board(users.bob, { status: 'busted', limit: 1, offset: 1 });
    expect(onlyBusted.rankings).toEqual(busted.slice(1, 2));
    expect(onlyBusted.matches).toBe(busted.length);
    expect(onlyBusted.me_position).toBe(busted.findIndex((r) => r.participant_id === users.bob.id));
    // The page holding the caller, from their position: their own row is on it.
    const limit = 1;
    const page = await board(users.bob, { status: 'busted', limit, offset: Math.floor(onlyBusted.me_position! / limit) * limit });
    expect(page.rankings.map((r: LeaderboardRow) => r.participant_id)).toEqual([users.bob.id]);
    // Status and search together.
    expect((await board(users.bob, { status: 'busted', search: `fan${tag}` })).rankings.map((r) => r.participant_id)).toEqual([users.bob.id]);
  });

  it('the live stream carries the watched page with its search and status as leaderboard.group answers it', async () => {
    const watch = { group_id: 1, limit: 10, offset: 0, search: `fan${tag}`, status: 'busted' as const };
    const { page, mine } = await liveStandingsJson(t.deps, watch, users.bob.id, 42);
    const update = assembleStandings(JSON.parse(page) as StandingsPage, JSON.parse(mine) as StandingsMine)!;
    const read = await (await t.caller(users.bob)).leaderboard.group(watch);
    expect(update.leaderboard).toEqual(read);
    expect(update.leaderboard.rankings.map((r) => r.participant_id)).toEqual([users.bob.id]);
    // Put together, byte for byte what the read serialises to, for a searched page and for a plain (shared, prepared) one.
    expect(JSON.stringify(update)).toBe(JSON.stringify({ kind: 'standings', event_id: 42, leaderboard: read }));
    const plain = { group_id: 1, limit: 10, offset: 0 };
    const both = await liveStandingsJson(t.deps, plain, users.bob.id, 43);
    expect(JSON.stringify(assembleStandings(JSON.parse(both.page) as StandingsPage, JSON.parse(both.mine) as StandingsMine))).toBe(
      JSON.stringify({ kind: 'standings', event_id: 43, leaderboard: await (await t.caller(users.bob)).leaderboard.group(plain) }),
    );
    // The page is the same for every reader; only the own part is theirs.
    expect((await liveStandingsJson(t.deps, plain, users.dan.id, 43)).page).toBe(both.page);
  });

  it('group cards show the caller’s place, the entries and whether they are alive', async () => {
    const dan = (await cards(users.dan)).groups.find((g) => g.group_id === group)!;
    const standings = await board(users.dan, { limit: 5000 }, group);
    const danRow = standings.rankings.find((r) => r.participant_id === users.dan.id)!;
    expect(dan).toMatchObject({ members: 3, ready: 2, has_picks: true });
    expect(dan.standing).toEqual({
      rank: danRow.rank,
      entries: standings.entries,
      alive: standings.alive,
      busted: danRow.busted,
      correct_picks: danRow.correct_picks,
      picks: 2,
      // What the entry had, busted or not, as its standings row says.
      hits: danRow.hits,
      misses: danRow.misses,
      // Nobody else holds Dan's rank.
      shared: false,
    });
    expect((await cards(users.ann)).groups.find((g) => g.group_id === group)!.standing).toMatchObject({ rank: 1, entries: 2, busted: false, correct_picks: 1, picks: 1 });
    // Eve is a member without picks here: no place.
    expect((await cards(users.eve)).groups.find((g) => g.group_id === group)).toMatchObject({ has_picks: false, standing: null });
    expect((await cards(users.eve)).draft_started).toBe(true);
  });
});
