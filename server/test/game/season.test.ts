/**
 * A whole season through REST only, as outside clients play it: sign-up, groups, invites, passwords,
 * picks, the operator's draft night, and every leaderboard ranking as the rules say after each pick.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rankEntries, type Entry } from '@first-round/shared/scoring';
import type { GroupDto, Leaderboard, PlayerDto } from '@first-round/shared/schemas';
import { globalOddsFromTables, withGlobalOdds } from '../support/global-odds.js';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { expectError, expectStatus, uniqueName } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  // No NOTIFY listener here: the operator's own calls must still show in the standings at once.
  t = await createTestApp();
});
afterAll(async () => t?.close());

it('plays a season: groups, invites, picks, draft night, standings', async () => {
  const call = async <T>(method: string, url: string, user?: TestUser, body?: unknown, status = 200) => expectStatus<T>(await t.request(method, url, { user, body }), status);

  // Three players and the operator sign up through the identity provider's HTTP interface.
  const [ann, bob, cat] = [await t.signUp('ann'), await t.signUp('bob'), await t.signUp('cat')];
  const op = await t.signUp('operator', ADMIN_EMAIL);
  for (const u of [ann, bob, cat]) expect(await call('GET', '/api/auth/me', u)).toMatchObject({ id: u.id, screen_name: u.username, is_admin: false });
  expect(await call('GET', '/api/auth/me', op)).toMatchObject({ is_admin: true });
  await call('PATCH', '/api/users/me/status', ann);

  const board = await call<PlayerDto[]>('GET', '/api/players/');
  const id = (rank: number) => board.find((p) => p.rank === rank)!.id;

  // Ann: a public group; Bob: a private group with a password.
  const pub = await call<GroupDto>('POST', '/api/groups', ann, { name: uniqueName('Public'), is_public: true, picks_public: true });
  const priv = await call<GroupDto>('POST', '/api/groups', bob, { name: uniqueName('Private'), is_public: false, picks_public: false, password: 'hunter22' });

  // Ann invites Cat by link; Cat reads the link signed out, then joins signed in.
  const link = await call<{ token: string }>('POST', '/api/groups/join-links', ann, { group_id: pub.id, expiration_hours: 720 });
  expect(await call('GET', `/api/groups/join-links/${link.token}`)).toMatchObject({ group_id: pub.id });
  expect(await call('GET', `/api/groups/${pub.id}/membership`, cat)).toMatchObject({ is_member: false });
  await call('POST', `/api/groups/join-with-link/${link.token}`, cat);
  // Bob finds the public group in the list and joins with one click.
  expect((await call<GroupDto[]>('GET', '/api/groups/public-groups', bob)).map((g) => g.id)).toContain(pub.id);
  await call('POST', '/api/groups/join', bob, { group_id: pub.id });
  // Ann and Cat join Bob's group by id with the password (Cat first tries a wrong one).
  expectError(await t.request('POST', '/api/groups/join', { user: cat, body: { group_id: priv.id, password: 'hunter33' } }), 403);
  await call('POST', '/api/groups/join', ann, { group_id: priv.id, password: 'hunter22' });
  await call('POST', '/api/groups/join', cat, { group_id: priv.id, password: 'hunter22' });
  expect((await call<GroupDto[]>('GET', '/api/groups/user-with-counts', cat)).map((g) => [g.id, g.member_count])).toEqual([
    [pub.id, 3],
    [priv.id, 3],
  ]);

  // Cat makes her entry in Bob's group her own before she has any picks, and then makes none there.
  await call('POST', `/api/groups/${priv.id}/use-global-picks`, cat, { use_global_picks: false });

  // Picks. Global: everyone. Public group: Ann and Cat make new picks, Bob plays his global ones (linked).
  const picks = {
    global: { [ann.id]: [id(1), id(2), id(3)], [bob.id]: [id(1), id(5)], [cat.id]: [id(2), id(4), id(60)] },
    [pub.id]: { [ann.id]: [id(1), id(3)], [cat.id]: [id(2), id(3), id(4)] },
    [priv.id]: { [ann.id]: [id(5)], [bob.id]: [id(1), id(2), id(5)] },
  } as Record<string, Record<string, number[]>>;
  for (const [userId, list] of Object.entries(picks.global!)) await call('POST', '/api/picks/', [ann, bob, cat].find((u) => u.id === userId), { picks: list });
  await call('POST', `/api/groups/${pub.id}/use-global-picks`, bob, { use_global_picks: true });
  for (const g of [pub, priv]) {
    for (const [userId, list] of Object.entries(picks[g.id]!)) await call('POST', '/api/picks', [ann, bob, cat].find((u) => u.id === userId), { picks: list, group_id: g.id });
  }
  // Cat has no picks in Bob's group: not ranked there.
  const members = await call<{ participant_id: string; has_picks: boolean }[]>('GET', `/api/groups/${priv.id}/members`, cat);
  expect(Object.fromEntries(members.map((m) => [m.participant_id, m.has_picks]))).toEqual({ [bob.id]: true, [ann.id]: true, [cat.id]: false });
  expect(await call('GET', `/api/picks/my-picks?group_id=${pub.id}`, bob)).toEqual({ picks: [id(1), id(5)], group_id: pub.id, use_global_picks: true, odds: expect.objectContaining({ survive: expect.any(Number) }) });

  // Before the draft: nothing ranked anywhere.
  for (const g of [1, pub.id, priv.id]) expect(await call('GET', `/api/groups/${g}/leaderboard`, ann)).toEqual({ group_id: g, draft_started: false, entries: 0, alive: 0, clinched_by: null, rankings: [], me: null, matches: 0, me_position: null, benchmarks: [] });

  // Draft night.
  await call('POST', '/api/draft/start', op);
  expect(await call('GET', '/api/draft/status')).toMatchObject({ draftHasStarted: true });
  await t.request('POST', '/api/picks/', { user: ann, body: { picks: [id(9)] } }).then((r) => expectError(r, 409));

  const drafted = new Map<number, number>();
  let complete = false;
  const entriesOf = (groupId: number): Entry[] => {
    return [ann, bob, cat].flatMap((u) => {
      const own = groupId === 1 ? picks.global![u.id] : groupId === pub.id && u === bob ? picks.global![u.id] : picks[groupId]![u.id];
      return own ? [{ participantId: u.id, participantName: u.username, picks: own.map((p) => ({ rank: board.find((b) => b.id === p)!.rank, draftRound: drafted.get(p) ?? null })) }] : [];
    });
  };
  const checkAll = async () => {
    const snapshot = { roundOnePicks: 32, filledSlots: [...drafted.values()].filter((r) => r === 1).length, roundOneCompleteMarked: complete };
    for (const g of [1, pub.id, priv.id]) {
      const expected = rankEntries(entriesOf(g), snapshot);
      const viewer = g === priv.id ? bob : cat;
      const got = await call<Leaderboard>('GET', `/api/groups/${g}/leaderboard`, viewer);
      expect(got, `group ${g} after ${drafted.size} picks`).toMatchObject({ group_id: g, draft_started: true, entries: expected.length });
      // The rules' rows; the odds beside them are a forecast (held to the shared model by group-odds.test.ts).
      expect(got.rankings.map(({ odds: _odds, ...row }) => row), `group ${g} after ${drafted.size} picks`).toEqual(expected);
      const me = got.me && (({ odds: _odds, ...row }) => row)(got.me);
      expect(me).toEqual(expected.find((r) => r.participant_id === viewer.id) ?? null);
    }
    // The unprefixed global path answers the same.
    const plain = await call<Leaderboard>('GET', '/groups/1/leaderboard', ann);
    // With each row's odds among every global entry (none once round one is complete).
    expect(plain.rankings).toEqual(withGlobalOdds(rankEntries(entriesOf(1), snapshot), await globalOddsFromTables(t.db, 32)));
  };
  await checkAll();

  // The operator records round one slot by slot (the 2025 order: ranks differ from slots).
  const order = [3, 1, 5, 2, 4, 7, 8, 6];
  for (const [i, rank] of order.entries()) {
    const slot = i + 1;
    expect(await call('POST', '/api/draft/picks', op, { slot, player_id: id(rank) })).toMatchObject({ kind: 'pick', slot, player: { id: id(rank), draft_pick: slot } });
    drafted.set(id(rank), 1);
    await checkAll();
  }
  // After eight picks, globally: Ann 3 hits; Bob and Cat 2 each, Bob's worst hit (rank 5) beats Cat's (4);
  // Cat's rank-60 pick is still pending, so Cat is alive.
  const global = await call<Leaderboard>('GET', '/api/groups/1/leaderboard', bob);
  expect(global.rankings.map((r) => [r.participant_name, r.rank, r.correct_picks, r.busted])).toEqual([
    ['ann', 1, 3, false],
    ['bob', 2, 2, false],
    ['cat', 3, 2, false],
  ]);

  // Round one closes: Cat's rank-60 pick was not taken, so Cat is busted everywhere that pick counts.
  await call('POST', '/api/draft/complete-round', op);
  complete = true;
  await checkAll();
  const final = await call<Leaderboard>('GET', '/api/groups/1/leaderboard', ann);
  expect(final.rankings.find((r) => r.participant_id === cat.id)).toMatchObject({ busted: true, correct_picks: 0 });
  expect(final.rankings[0]).toMatchObject({ participant_id: ann.id, rank: 1, correct_picks: 3 });
  const inPublic = await call<Leaderboard>('GET', `/api/groups/${pub.id}/leaderboard`, ann);
  expect(inPublic.rankings.map((r) => [r.participant_id, r.rank, r.correct_picks])).toEqual([
    [cat.id, 1, 3],
    [bob.id, 2, 2],
    [ann.id, 3, 2],
  ]);
  const inPrivate = await call<Leaderboard>('GET', `/api/groups/${priv.id}/leaderboard`, bob);
  expect(inPrivate.rankings.map((r) => [r.participant_id, r.rank, r.correct_picks])).toEqual([
    [bob.id, 1, 3],
    [ann.id, 2, 1],
  ]);
  // And the players list shows the results.
  const after = await call<PlayerDto[]>('GET', '/players/');
  expect(after.filter((p) => p.draft_round === 1).map((p) => [p.draft_pick, p.rank]).sort((x, y) => x[0]! - y[0]!)).toEqual(order.map((rank, i) => [i + 1, rank]));
});
