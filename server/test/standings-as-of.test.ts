import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftStatus, Leaderboard, PlayerDto } from '@first-round/shared/schemas';
import { BEFORE_IN_FUTURE } from '../src/modules/draft/as-of.js';
import { recordPick } from '../src/modules/draft/draft.service.js';
import { createTestApp, listenOnLoopback, type TestApp, type TestUser } from '../src/testing/index.js';
import { boardIds, createGroup, joinGroup, operatorReset, operatorStart, savePicks } from './game/helpers.js';

/**
 * The draft as it was (`before`, docs/api.md): what a page loaded with a viewing delay shows at once while
 * the changes within the delay are held back. Over real HTTP through Fastify on a real PostgreSQL: the
 * answers as of a moment just before a pick are the answers read before that pick, for the draft status,
 * the board, the global standings and a group's; a moment to come and a malformed one are refused.
 */

let t: TestApp;
let base: string;
let alice: TestUser;
let bob: TestUser;
let ids: number[];
let groupId: number;

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  base = await listenOnLoopback(t.app);
  ids = await boardIds(t);
  alice = await t.signUp('alice_asof');
  bob = await t.signUp('bob_asof');
  await savePicks(t, alice, [ids[0]!, ids[1]!, ids[7]!]);
  await savePicks(t, bob, [ids[5]!, ids[0]!]);
  groupId = (await createGroup(t, alice)).group_id;
  await joinGroup(t, bob, groupId);
});
afterAll(async () => {
  await operatorReset(t).catch(() => undefined);
  await t?.close();
});

/** A GET over the socket, as `user` (or anyone): its status and its JSON. */
async function get<T>(path: string, user?: TestUser): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, { headers: user ? { authorization: user.authorization } : {} });
  return { status: res.status, body: (await res.json()) as T };
}
async function ok<T>(path: string, user?: TestUser): Promise<T> {
  const { status, body } = await get<T>(path, user);
  expect(status, `${path}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

/** The operator records a pick; the answer is the change as logged (its `at`: when PostgreSQL recorded it). */
const pick = (slot: number, playerId: number) => recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', slot, playerId);

/** Standings without the odds: an answer as of an earlier moment carries none (docs/decisions.md, "No spoilers"). */
function withoutOdds(lb: Leaderboard): Leaderboard {
  const strip = <R extends { odds?: unknown }>(row: R) => {
    const { odds: _odds, ...rest } = row;
    return rest as R;
  };
  return { ...lb, rankings: lb.rankings.map(strip), me: lb.me ? strip(lb.me) : null };
}

/** Every read a page shows the draft with, as `user` reads it now or (`before`) as of that moment. */
async function reads(user: TestUser, before?: string) {
  const q = before === undefined ? '' : `before=${encodeURIComponent(before)}`;
  return {
    status: await ok<DraftStatus>(`/api/draft/status${q ? `?${q}` : ''}`),
    players: await ok<PlayerDto[]>(`/api/players/${q ? `?${q}` : ''}`),
    global: withoutOdds(await ok<Leaderboard>(`/api/groups/1/leaderboard?limit=50${q ? `&${q}` : ''}`, user)),
    group: withoutOdds(await ok<Leaderboard>(`/api/groups/${groupId}/leaderboard${q ? `?${q}` : ''}`, user)),
  };
}

describe('the draft as it was: ?before=', () => {
  it('as of a moment just before a pick, every read answers what it answered before the pick', async () => {
    await operatorStart(t);
    await pick(1, ids[0]!);
    const beforePick = await reads(alice);
    expect(beforePick.global.rankings.find((r) => r.participant_name === 'bob_asof')).toMatchObject({ hits: 1, correct_picks: 1 });

    const change = await pick(2, ids[5]!);
    const now = await reads(alice);
    // The pick moved the standings: bob has his second hit, the status and the board count it.
    expect(now.global.rankings.find((r) => r.participant_name === 'bob_asof')).toMatchObject({ hits: 2, correct_picks: 2 });
    expect(now.status.picks_made).toBe(2);

    // As of the pick's own time (the last change before it is pick 1): the answers before the pick.
    const then = await reads(alice, change.at);
    expect(then.status).toEqual(beforePick.status);
    expect(then.players).toEqual(beforePick.players);
    expect(then.global).toEqual(beforePick.global);
    expect(then.group).toEqual(beforePick.group);
    // And as bob reads them (his own row, `me`).
    const bobThen = await reads(bob, change.at);
    const bobBefore = { global: (await reads(bob)).global };
    expect(bobThen.global.me).toMatchObject({ participant_name: 'bob_asof', hits: 1 });
    expect(bobBefore.global.me).toMatchObject({ participant_name: 'bob_asof', hits: 2 });

    // Asked again (another first visitor): the same answer, from the moment kept for that change.
    expect(await reads(alice, change.at)).toEqual(then);
    // A moment after the pick: the standings now.
    const after = await reads(alice, new Date(Date.parse(change.at) + 1).toISOString());
    expect(after.global).toEqual(now.global);
    expect(after.status).toEqual(now.status);
  });

  it('over tRPC too: draft.status takes `before`', async () => {
    const status = await ok<{ result: { data: DraftStatus } }>(`/trpc/draft.status?input=${encodeURIComponent(JSON.stringify({ before: new Date(0).toISOString() }))}`);
    // Before every change the log holds: nothing started, nothing picked.
    expect(status.result.data).toMatchObject({ draftHasStarted: false, picks_made: 0, last_event_id: 0, last_change_at: null });
  });

  it('refuses a moment to come and a malformed one with a 4xx saying why', async () => {
    const future = new Date(Date.now() + 60_000).toISOString();
    for (const path of ['/api/draft/status', '/api/players/', '/api/groups/1/leaderboard']) {
      const soon = await get<{ detail: string }>(`${path}?before=${encodeURIComponent(future)}`, alice);
      expect(soon.status, path).toBe(400);
      expect(soon.body.detail).toBe(BEFORE_IN_FUTURE);
      const bad = await get<{ detail: string }>(`${path}?before=yesterday`, alice);
      expect(bad.status, path).toBeGreaterThanOrEqual(400);
      expect(bad.status, path).toBeLessThan(500);
      expect(bad.body.detail, path).toContain('before must be a date and time in ISO 8601');
    }
  });
});
