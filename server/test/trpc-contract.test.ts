import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import type { PlayerDto } from '@first-round/shared/schemas';
import { buildApp } from '../src/app.js';
import { HOT_READS } from '../src/trpc/hot-reads.js';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from './support/test-app.js';
import { operatorStart } from './game/helpers.js';

/**
 * Some /trpc answers are written by hand in tRPC's wire format, in front of tRPC's adapter: the hot
 * reads (trpc/hot-reads.ts) and the live stream's SSE (modules/draft/draft.sse.ts). Any tRPC client must
 * read them unchanged, so each is held byte for byte to what tRPC itself answers for the same procedure
 * and input: a second app on the same dependencies (same database, same caches) with the hand-written
 * paths turned off answers through tRPC's own Fastify adapter.
 */

let t: TestApp;
let trpcOnly: FastifyInstance;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  trpcOnly = await buildApp(t.deps, { logger: false, fastPaths: false });
  await trpcOnly.ready();
  admin = await t.signUp('operator', ADMIN_EMAIL);
});
afterAll(async () => {
  await trpcOnly?.close();
  await t?.close();
});

const query = (input: unknown, batch: boolean) => {
  if (input === undefined && !batch) return '';
  const params = new URLSearchParams();
  if (batch) params.set('batch', '1');
  if (batch || input !== undefined) params.set('input', JSON.stringify(batch ? { 0: input } : input));
  return `?${params}`;
};

/** The same GET answered by the hand-written path and by tRPC's adapter. */
async function bothAnswers(url: string, user: TestUser | undefined) {
  const request = { method: 'GET' as const, url, headers: user ? { authorization: user.authorization } : {} };
  const [fast, trpc] = [await t.app.inject(request), await trpcOnly.inject(request)];
  return { fast, trpc };
}

/** A call by input (sent alone and as a batch of one), or by a query string as it is (`raw`). */
type Case = { path: string; input?: unknown; raw?: string; user?: TestUser };

async function expectSameAnswers(cases: Case[]) {
  for (const { path, input, raw, user } of cases) {
    for (const batch of raw === undefined ? [false, true] : [undefined]) {
      const { fast, trpc } = await bothAnswers(`/trpc/${path}${raw ?? query(input, batch!)}`, user);
      const what = `${path} ${raw ?? JSON.stringify(input)}${batch ? ' (batch of one)' : ''}`;
      // The very bytes, not merely equal JSON: key order, escapes and numbers included.
      expect(fast.body, what).toBe(trpc.body);
      expect(fast.statusCode, what).toBe(trpc.statusCode);
      expect(fast.headers['content-type'], what).toMatch(/^application\/json/);
    }
  }
}

describe('hot reads, byte for byte as tRPC answers them', () => {
  let owner: TestUser;
  let outsider: TestUser;
  let group: { id: number };
  beforeAll(async () => {
    [owner, outsider] = [await t.signUp('owner'), await t.signUp('outsider')];
    group = (await t.request('POST', '/api/groups/create-simple', { user: owner, body: { name: `Contract ${Date.now()}` } })).json() as { id: number };
    const players = (await t.request('GET', '/api/players')).json() as PlayerDto[];
    await t.request('POST', '/api/picks', { user: owner, body: { picks: [players[0]!.id, players[1]!.id] } });
    await t.request('POST', '/api/picks', { user: outsider, body: { picks: [players[2]!.id] } });
    await t.request('POST', '/api/picks', { user: owner, body: { picks: [players[3]!.id], group_id: group.id } });
  });

  const cases = (): Case[] => [
    { path: 'draft.status' },
    { path: 'players.list' },
    { path: 'auth.me', user: owner },
    { path: 'auth.me' },
    { path: 'auth.me', user: { ...owner, authorization: 'Bearer not-a-token' } },
    { path: 'leaderboard.group', input: { group_id: GLOBAL_GROUP_ID }, user: owner },
    { path: 'leaderboard.group', input: { group_id: GLOBAL_GROUP_ID, limit: 1, offset: 1 }, user: outsider },
    { path: 'leaderboard.group', input: { group_id: GLOBAL_GROUP_ID, search: 'own', status: 'alive' }, user: owner },
    { path: 'leaderboard.group', input: { group_id: group.id }, user: owner },
    { path: 'leaderboard.group', input: { group_id: group.id }, user: outsider },
    { path: 'leaderboard.group', input: { group_id: 999_999 }, user: owner },
    { path: 'leaderboard.group', input: { group_id: 'x' }, user: owner },
    { path: 'leaderboard.group', input: { group_id: 1, limit: 0 }, user: owner },
    { path: 'leaderboard.group', input: { group_id: 1, name: 'a\u0000b' }, user: owner },
    { path: 'leaderboard.group', input: { group_id: 1 } },
    { path: 'leaderboard.field', input: { group_id: GLOBAL_GROUP_ID }, user: owner },
    { path: 'leaderboard.field', input: { group_id: group.id }, user: outsider },
    { path: 'leaderboard.field', input: { group_id: 1, extra: true }, user: owner },
    { path: 'leaderboard.field', user: owner },
    // Query strings as a client might send them: tRPC's own rules for reading them apply.
    { path: 'leaderboard.group', raw: '?input=%7Bnot%20json', user: owner },
    { path: 'leaderboard.group', raw: '?batch=1&input=5', user: owner },
    { path: 'leaderboard.group', raw: '?batch=1&input=null', user: owner },
    { path: 'leaderboard.group', raw: '?batch=1&input=%7B%7D', user: owner },
    { path: 'leaderboard.group', raw: '?input=', user: owner },
    { path: 'leaderboard.group', raw: '?input=null', user: owner },
    { path: 'draft.status', raw: '?input=%7Bnot%20json' },
    { path: 'draft.status', raw: '?input=%22x%22' },
  ];

  it('covers every hot read', () => {
    expect(new Set(cases().map((c) => c.path))).toEqual(new Set(Object.keys(HOT_READS)));
  });

  it('before the start: answers and refusals', async () => {
    await expectSameAnswers(cases());
  });

  it('after the start and a recorded pick: standings with the caller’s own row, the field', async () => {
    await operatorStart(t);
    const [player] = await t.db.query<{ id: number }>(`select id from player order by rank limit 1`);
    const pick = await t.request('POST', '/api/draft/picks', { user: admin, body: { slot: 1, player_id: player!.id } });
    expect(pick.statusCode, pick.body).toBe(200);
    await expectSameAnswers(cases());
  });
});
