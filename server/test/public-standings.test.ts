import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@first-round/shared/messages';
import type { Leaderboard } from '@first-round/shared/schemas';
import { recordPick } from '../src/modules/draft/draft.service.js';
import type { TestApp, TestUser } from './support/test-app.js';
import { publicStandingsPair, operatorReset, operatorStart, savePicks } from './game/helpers.js';

/**
 * The spectators' standings (GET /api/standings/public, tRPC leaderboard.public): the global top 100 for a
 * signed-out visitor, over real HTTP. It must be exactly what a signed-in player without an entry reads on
 * the global leaderboard's first page (nothing before the start), answer 304 like it, and be off (404)
 * with PUBLIC_STANDINGS=false.
 */

let t: TestApp;
let off: TestApp;
let base: string;
let offBase: string;
let alice: TestUser;
let bob: TestUser;
let outsider: TestUser;
let ids: number[];

beforeAll(async () => {
  ({ t, off, base, offBase, ids } = await publicStandingsPair());
  alice = await t.signUp('alice_pub');
  bob = await t.signUp('bob_pub');
  outsider = await t.signUp('nopicks_pub');
  await savePicks(t, alice, [ids[0]!, ids[1]!]);
  await savePicks(t, bob, [ids[5]!]);
});
afterEach(() => operatorReset(t));
afterAll(async () => {
  await off?.close();
  await t?.close();
});

/** The operator records a pick; this instance's caches are stale at once (it is published as it commits). */
const pick = async (slot: number, playerId: number) => void (await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', slot, playerId));
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });
/** The global leaderboard's first page as a signed-in player without an entry reads it. */
const signedInView = async () => {
  const res = await t.request('GET', '/api/groups/1/leaderboard?limit=100', { user: outsider });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Leaderboard;
};

describe('public standings', () => {
  it('before the start: no rows, no counts, no picks, for the signed out as for a signed-in player', async () => {
    const res = await get('/api/standings/public');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Leaderboard;
    expect(body).toEqual({ group_id: 1, draft_started: false, entries: 0, alive: 0, clinched_by: null, rankings: [], me: null, matches: 0, me_position: null, benchmarks: [] });
    expect(body).toEqual(await signedInView());
    // Nothing in the bytes names a player or anyone's pick.
    const text = JSON.stringify(body);
    expect(text).not.toContain('alice_pub');
    expect(text).not.toContain('player');
  });

  it('after the start: the top 100 as a signed-in player without an entry sees it, without e-mails', async () => {
    await operatorStart(t);
    await pick(1, ids[0]!);
    const res = await get('/api/standings/public');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Leaderboard;
    expect(body).toEqual(await signedInView());
    expect(body.draft_started).toBe(true);
    expect(body.me).toBeNull();
    const alices = body.rankings.find((r) => r.participant_name === 'alice_pub');
    expect(alices).toMatchObject({ correct_picks: 1, busted: false });
    expect(body.rankings.find((r) => r.participant_name === 'bob_pub')).toMatchObject({ correct_picks: 0 });
    expect(body.rankings.length).toBeLessThanOrEqual(100);
    // The rows carry the leaderboard's fields only: no e-mail, no player names or ids of picks.
    expect(Object.keys(alices!).sort()).toEqual(['busted', 'can_win', 'correct_picks', 'hits', 'max_possible', 'misses', 'odds', 'participant_id', 'participant_name', 'picks', 'rank', 'tiebreak_rank']);
    expect(JSON.stringify(body)).not.toMatch(/@example|email/i);
  });

  it('answers 304 to its ETag until the draft moves, over REST and tRPC alike', async () => {
    await operatorStart(t);
    for (const path of ['/api/standings/public', '/trpc/leaderboard.public']) {
      const first = await get(path);
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag');
      expect(etag).toBeTruthy();
      expect((await get(path, { 'if-none-match': etag! })).status).toBe(304);
    }
    const etag = (await get('/api/standings/public')).headers.get('etag')!;
    await pick(1, ids[0]!);
    const moved = await get('/api/standings/public', { 'if-none-match': etag });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as Leaderboard).rankings.find((r) => r.participant_name === 'alice_pub')?.correct_picks).toBe(1);
  });

  it('PUBLIC_STANDINGS=false: a clear 404 over REST and tRPC, and signed-in players still read their leaderboard', async () => {
    const res = await fetch(`${offBase}/api/standings/public`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe(MESSAGES.publicStandingsOff);
    const trpc = await fetch(`${offBase}/trpc/leaderboard.public`);
    expect(trpc.status).toBe(404);
    expect(JSON.stringify(await trpc.json())).toContain(MESSAGES.publicStandingsOff);
    expect((await off.request('GET', '/api/groups/1/leaderboard', { user: outsider })).statusCode).toBe(200);
  });
});
