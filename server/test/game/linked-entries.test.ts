/**
 * One entry that follows you: a membership plays the member's My Picks (linked) from the moment they join,
 * by any path, and every edit of My Picks reaches it; forking makes a copy that only the group's own edits
 * change; following My Picks again drops that copy. Over REST, as a client meets it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Leaderboard, MyGroupStandings } from '@first-round/shared/schemas';
import { recordPick } from '../../src/modules/draft/draft.service.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { boardIds, createGroup, expectError, expectStatus, joinGroup, operatorReset, operatorStart, savePicks } from './helpers.js';
import { MESSAGES } from '@first-round/shared/messages';

let t: TestApp;
let ids: number[];

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  ids = await boardIds(t);
});
afterAll(async () => t?.close());
afterEach(async () => operatorReset(t));

const get = <T>(url: string, user: TestUser) => t.request('GET', url, { user }).then((res) => expectStatus<T>(res, 200));
const post = (url: string, user: TestUser, body: unknown) => t.request('POST', url, { user, body });
const entryIn = (user: TestUser, groupId: number) => get<{ picks: number[]; use_global_picks: boolean }>(`/api/picks/my-picks?group_id=${groupId}`, user);
const membership = (user: TestUser, groupId: number) => get<{ use_global_picks: boolean; entry_mode: string }>(`/api/groups/${groupId}/membership`, user);
const groupPickRows = async (user: TestUser, groupId: number) =>
  (await t.db.query<{ n: number }>(`select count(*)::int as n from pick where participant_id = $1 and group_id = $2`, [user.id, groupId]))[0]!.n;

describe('a membership follows My Picks', () => {
  it('starts linked however one joins: creating, by id, by link and a public group', async () => {
    const [owner, byId, byLink, stranger] = [await t.signUp(), await t.signUp(), await t.signUp(), await t.signUp()];
    for (const u of [owner, byId, byLink, stranger]) await savePicks(t, u, ids.slice(0, 3));
    const group = await createGroup(t, owner);
    const open = await createGroup(t, owner, { is_public: true });
    await joinGroup(t, byId, group.id);
    const link = expectStatus<{ token: string }>(await post('/api/groups/join-links', owner, { group_id: group.id, expiration_hours: 24 }), 200);
    expectStatus(await post(`/api/groups/join-with-link/${link.token}`, byLink, {}), 200);
    await joinGroup(t, stranger, open.id);

    for (const [u, g] of [[owner, group], [byId, group], [byLink, group], [stranger, open]] as const) {
      expect(await membership(u, g.id)).toMatchObject({ use_global_picks: true, entry_mode: 'linked' });
      expect((await entryIn(u, g.id)).picks).toEqual(ids.slice(0, 3));
    }
    // The members list says the same: everyone's picks are in, by their My Picks.
    const members = await get<{ has_picks: boolean; entry_mode: string }[]>(`/api/groups/${group.id}/members`, owner);
    expect(members.map((m) => [m.has_picks, m.entry_mode])).toEqual([
      [true, 'linked'],
      [true, 'linked'],
      [true, 'linked'],
    ]);
  });

  it('an edit of My Picks changes every linked entry at once, and the standings play it', async () => {
    const alice = await t.signUp();
    const bob = await t.signUp();
    await savePicks(t, alice, ids.slice(0, 10));
    const a = await createGroup(t, alice);
    const b = await createGroup(t, alice);
    await joinGroup(t, bob, a.id);
    // Cut from 10 to 9 on My Picks: both groups play the 9.
    await savePicks(t, alice, ids.slice(0, 9));
    expect((await entryIn(alice, a.id)).picks).toEqual(ids.slice(0, 9));
    expect((await entryIn(alice, b.id)).picks).toEqual(ids.slice(0, 9));
    const cards = await get<MyGroupStandings>('/api/groups/my-standings', alice);
    expect(cards.groups.find((g) => g.group_id === a.id)).toMatchObject({ entry_mode: 'linked', my_picks: 9, has_picks: true, ready: 1, members: 2 });

    await operatorStart(t);
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 1, ids[0]!);
    const board = await get<Leaderboard>(`/api/groups/${a.id}/leaderboard`, alice);
    expect(board.rankings.map((r) => [r.participant_id, r.picks, r.correct_picks])).toEqual([[alice.id, 9, 1]]);
  });

  it('forking copies My Picks as they are; from then on only the group’s own edits change it', async () => {
    const owner = await t.signUp();
    await savePicks(t, owner, ids.slice(0, 10));
    const group = await createGroup(t, owner);
    expect(await groupPickRows(owner, group.id)).toBe(0);

    const forked = expectStatus(await post(`/api/groups/${group.id}/use-global-picks`, owner, { use_global_picks: false }), 200);
    expect(forked).toMatchObject({ use_global_picks: false, entry_mode: 'own' });
    expect((await entryIn(owner, group.id)).picks).toEqual(ids.slice(0, 10));
    // My Picks moves on; the fork does not.
    await savePicks(t, owner, ids.slice(0, 4));
    expect((await entryIn(owner, group.id)).picks).toEqual(ids.slice(0, 10));
    await savePicks(t, owner, ids.slice(20, 28), group.id);
    expect((await entryIn(owner, group.id)).picks).toEqual(ids.slice(20, 28));
    expect((await get<{ picks: number[] }>('/api/picks/global-picks', owner)).picks).toEqual(ids.slice(0, 4));
    // Forking again changes nothing (the own picks stay).
    expectStatus(await post(`/api/groups/${group.id}/use-global-picks`, owner, { use_global_picks: false }), 200);
    expect((await entryIn(owner, group.id)).picks).toEqual(ids.slice(20, 28));
    const cards = await get<MyGroupStandings>('/api/groups/my-standings', owner);
    expect(cards.groups.find((g) => g.group_id === group.id)).toMatchObject({ entry_mode: 'own', use_global_picks: false, my_picks: 8 });
  });

  it('following My Picks again drops the own picks; saving group picks forks with them', async () => {
    const owner = await t.signUp();
    await savePicks(t, owner, ids.slice(0, 5));
    const group = await createGroup(t, owner);
    await savePicks(t, owner, ids.slice(30, 33), group.id);
    expect(await membership(owner, group.id)).toMatchObject({ entry_mode: 'own' });

    const linked = expectStatus(await post(`/api/groups/${group.id}/use-global-picks`, owner, { use_global_picks: true }), 200);
    expect(linked).toMatchObject({ use_global_picks: true, entry_mode: 'linked' });
    expect(await groupPickRows(owner, group.id)).toBe(0);
    expect((await entryIn(owner, group.id)).picks).toEqual(ids.slice(0, 5));
    // And it follows My Picks again.
    await savePicks(t, owner, ids.slice(0, 2));
    expect((await entryIn(owner, group.id)).picks).toEqual(ids.slice(0, 2));
  });

  it('a member without My Picks is linked with no picks yet, and forking gives an empty own entry', async () => {
    const owner = await t.signUp();
    const group = await createGroup(t, owner);
    const members = await get<{ has_picks: boolean; entry_mode: string }[]>(`/api/groups/${group.id}/members`, owner);
    expect(members[0]).toMatchObject({ has_picks: false, entry_mode: 'linked' });
    expectStatus(await post(`/api/groups/${group.id}/use-global-picks`, owner, { use_global_picks: false }), 200);
    expect(await entryIn(owner, group.id)).toMatchObject({ picks: [], use_global_picks: false });
  });

  it('refuses switching once the draft has started, and outsiders always, changing nothing', async () => {
    const owner = await t.signUp();
    const outsider = await t.signUp();
    await savePicks(t, owner, ids.slice(0, 3));
    const group = await createGroup(t, owner);
    expectError(await post(`/api/groups/${group.id}/use-global-picks`, outsider, { use_global_picks: false }), 404, MESSAGES.groupNotFound);
    await operatorStart(t);
    expectError(await post(`/api/groups/${group.id}/use-global-picks`, owner, { use_global_picks: false }), 409, MESSAGES.picksLocked);
    expect(await membership(owner, group.id)).toMatchObject({ entry_mode: 'linked' });
    expect(await groupPickRows(owner, group.id)).toBe(0);
  });

  it('a fork and a save of My Picks at the same moment leave the copy equal to one of the saved sets', async () => {
    const owner = await t.signUp();
    await savePicks(t, owner, ids.slice(0, 6));
    const group = await createGroup(t, owner);
    const [, fork] = await Promise.all([
      post('/api/picks/', owner, { picks: ids.slice(40, 43) }),
      post(`/api/groups/${group.id}/use-global-picks`, owner, { use_global_picks: false }),
    ]);
    expectStatus(fork, 200);
    const copy = (await entryIn(owner, group.id)).picks;
    expect([JSON.stringify(ids.slice(0, 6)), JSON.stringify(ids.slice(40, 43))]).toContain(JSON.stringify(copy));
  });
});
