import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES } from '@first-round/shared/messages';
import type { DraftStatus, Leaderboard, PlayerDto } from '@first-round/shared/schemas';
import { importBoard } from '../src/modules/seasons/board.service.js';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from './support/test-app.js';
import { eventually, operatorReset, operatorStart } from './game/helpers.js';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { createContextInner } from '../src/trpc/context.js';
import { runHotRead } from '../src/trpc/hot-read.js';
import { HOT_READS } from '../src/wire/hot-reads.js';

/**
 * The hot reads (draft status, board, standings, profile) are answered from memory on every instance.
 * Whatever changes them, on whichever instance, shows on the next read everywhere: on the instance that
 * made the change at once, on the others as soon as PostgreSQL delivers the notification (milliseconds;
 * the tests allow a second). Two app instances share one database, as two servers behind a balancer do.
 */

let a: TestApp;
let b: TestApp;
let admin: TestUser;
const HEARD_MS = 1000;

beforeAll(async () => {
  a = await createTestApp({ startEvents: true });
  // Instances of one deployment share the sign-in key (LOCAL_IDP_PRIVATE_KEY), as they share the database.
  const sharedKey = a.deps.keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  b = await createTestApp({ startEvents: true, sameDatabaseAs: a, env: { LOCAL_IDP_PRIVATE_KEY: sharedKey } });
  admin = await a.signUp('operator', ADMIN_EMAIL);
});
// Every test starts before the draft, whatever the previous one left.
afterEach(() => operatorReset(a));
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const json = <T>(res: LightMyRequestResponse, status = 200): T => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
};
const me = (t: TestApp, user: TestUser) => t.request('GET', '/api/auth/me', { user });
const trpcGet = (t: TestApp, path: string, input?: unknown, user?: TestUser, headers: Record<string, string> = {}) =>
  t.request('GET', `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, { user, headers });

describe('caches on two instances', () => {
  it('a sign-out on one instance ends the token on the other, which had it cached', async () => {
    const user = await a.signUp();
    expect(json<{ id: string }>(await me(b, user)).id).toBe(user.id);
    expect((await a.request('POST', '/idp/sign-out', { headers: { cookie: user.cookie, authorization: user.authorization } })).statusCode).toBe(200);
    expect((await me(a, user)).statusCode).toBe(401);
    await eventually(async () => expect((await me(b, user)).statusCode).toBe(401), HEARD_MS);
    // And stays ended: the token is not re-admitted from any cache.
    expect((await trpcGet(b, 'auth.me', undefined, user)).statusCode).toBe(401);
  });

  it('serves a verified token from memory only while sign-outs can be heard', async () => {
    const user = await a.signUp();
    expect((await me(b, user)).statusCode).toBe(200);
    await b.deps.events.stop();
    try {
      // B cannot hear sign-outs now: it must check the session itself, so this one is seen at once.
      await a.db.query(`update idp_session set ended_at = now() where user_id = $1`, [user.id]);
      b.deps.bearer.forgetSessions([]); // (the 5 s session memory of the old path is not the cache under test)
      await eventually(async () => expect((await me(b, user)).statusCode).toBe(401), 6000);
    } finally {
      await b.deps.events.start();
    }
  });

  it('a rename shows in the profile and the standings of every instance', async () => {
    const user = await a.signUp();
    expect(json<{ screen_name: string }>(await me(b, user)).screen_name).toBe(user.username);
    // Written behind the app's back (no announcement): B keeps answering from memory...
    await a.db.query(`update participant set screen_name = 'sneaky' where id = $1`, [user.id]);
    expect(json<{ screen_name: string }>(await me(b, user)).screen_name).toBe(user.username);
    // ...while a rename through the app reaches it.
    const renamed = `renamed${Date.now() % 100000}`;
    json(await a.request('POST', '/api/auth/update-screen-name', { user, body: { screen_name: renamed } }));
    expect(json<{ screen_name: string }>(await me(a, user)).screen_name).toBe(renamed);
    await eventually(async () => expect(json<{ screen_name: string }>(await me(b, user)).screen_name).toBe(renamed), HEARD_MS);
  });

  it('a recorded pick and its undo show in draft.status, the board and the standings of both instances', async () => {
    const players = json<PlayerDto[]>(await a.request('GET', '/api/players'));
    const player = players[0]!;
    const user = await a.signUp();
    json(await a.request('POST', '/api/picks', { user, body: { picks: [player.id] } }));
    json(await a.request('POST', '/api/draft/start', { user: admin }));
    const hitsOn = async (t: TestApp) =>
      json<Leaderboard>(await t.request('GET', '/api/groups/1/leaderboard?limit=5000', { user })).me?.correct_picks;
    await eventually(async () => expect(json<DraftStatus>(await b.request('GET', '/api/draft/status')).draftHasStarted).toBe(true), HEARD_MS);
    expect(await hitsOn(b)).toBe(0);

    json(await a.request('POST', '/api/draft/picks', { user: admin, body: { slot: 1, player_id: player.id } }));
    expect(json<DraftStatus>(await a.request('GET', '/api/draft/status')).picks_made).toBe(1);
    await eventually(async () => {
      expect(json<DraftStatus>(await b.request('GET', '/api/draft/status')).picks_made).toBe(1);
      expect(json<PlayerDto[]>(await b.request('GET', '/api/players')).find((p) => p.id === player.id)?.draft_pick).toBe(1);
      expect(await hitsOn(b)).toBe(1);
    }, HEARD_MS);

    json(await a.request('POST', '/api/draft/undo', { user: admin }));
    expect(json<DraftStatus>(await a.request('GET', '/api/draft/status')).picks_made).toBe(0);
    expect(await hitsOn(a)).toBe(0);
    await eventually(async () => {
      expect(json<DraftStatus>(await b.request('GET', '/api/draft/status')).picks_made).toBe(0);
      expect(json<PlayerDto[]>(await b.request('GET', '/api/players')).find((p) => p.id === player.id)?.draft_pick).toBeNull();
      expect(await hitsOn(b)).toBe(0);
    }, HEARD_MS);
  });

  it('a board imported from the command line shows on both instances', async () => {
    const before = json<PlayerDto[]>(await b.request('GET', '/api/players'));
    json<PlayerDto[]>(await a.request('GET', '/api/players'));
    const rows = before.map((p) => ({ rank: p.rank, player_name: p.player_name, position: p.position, school: p.school }));
    rows.push({ rank: rows.length + 1, player_name: 'Newly Added Prospect', position: 'QB', school: 'Nowhere State' });
    // The CLI's own connection: only the NOTIFY tells the servers.
    await importBoard(a.orm().em.fork(), rows);
    for (const t of [a, b]) {
      await eventually(async () => expect(json<PlayerDto[]>(await t.request('GET', '/api/players')).map((p) => p.player_name)).toContain('Newly Added Prospect'), HEARD_MS);
    }
  });

  it('a join and a leave on one instance show in the group standings on the other', async () => {
    const [owner, member, joiner] = [await a.signUp(), await a.signUp(), await a.signUp()];
    const group = json<{ id: number }>(await a.request('POST', '/api/groups/create-simple', { user: owner, body: { name: `Cache group ${Date.now()}` } }));
    json(await a.request('POST', '/api/groups/join', { user: member, body: { group_id: group.id } }));
    const players = json<PlayerDto[]>(await a.request('GET', '/api/players'));
    for (const [i, user] of [owner, member].entries()) {
      json(await a.request('POST', '/api/picks', { user, body: { picks: [players[i]!.id] } }));
      json(await a.request('POST', `/api/groups/${group.id}/use-global-picks`, { user, body: { use_global_picks: true } }));
    }
    json(await a.request('POST', '/api/draft/start', { user: admin }));
    const standingsOn = (t: TestApp, user: TestUser) => t.request('GET', `/api/groups/${group.id}/leaderboard`, { user });
    await eventually(async () => expect(json<Leaderboard>(await standingsOn(b, owner)).entries).toBe(2), HEARD_MS);
    expect(json<Leaderboard>(await standingsOn(a, owner)).entries).toBe(2);

    // Not a member yet: refused on B (the private group answers as none); joined on A, B lets them read at once.
    expect((await standingsOn(b, joiner)).statusCode).toBe(404);
    json(await a.request('POST', '/api/groups/join', { user: joiner, body: { group_id: group.id } }));
    await eventually(async () => expect(json<Leaderboard>(await standingsOn(b, joiner)).me).toBeNull(), HEARD_MS);

    // A member leaves on A: their entry leaves the standings B had ranked and kept.
    json(await a.request('POST', `/api/groups/${group.id}/leave`, { user: member }));
    expect(json<Leaderboard>(await standingsOn(a, owner)).entries).toBe(1);
    await eventually(async () => expect(json<Leaderboard>(await standingsOn(b, owner)).entries).toBe(1), HEARD_MS);
  });

  it('picks saved on one instance show in the standings the other had ranked, in every group that reuses them', async () => {
    const [owner, saver] = [await a.signUp(), await a.signUp()];
    const group = json<{ id: number }>(await a.request('POST', '/api/groups/create-simple', { user: owner, body: { name: `Picks cache ${Date.now()}` } }));
    json(await a.request('POST', '/api/groups/join', { user: saver, body: { group_id: group.id } }));
    json(await a.request('POST', `/api/groups/${group.id}/use-global-picks`, { user: saver, body: { use_global_picks: true } }));
    const players = json<PlayerDto[]>(await a.request('GET', '/api/players'));
    json(await a.request('POST', '/api/picks', { user: saver, body: { picks: [players[0]!.id] } }));
    // B's clock is past the deadline and A's is not: the lock comes a moment apart on two machines, so B
    // ranks (and keeps) the standings while A still takes a save. No draft change happens in between.
    b.clock.set(new Date(b.deps.draft.deadline.getTime() + 1000));
    try {
      const picksOf = async (groupId: number) =>
        json<Leaderboard>(await b.request('GET', `/api/groups/${groupId}/leaderboard?limit=100`, { user: saver })).rankings.find((r) => r.participant_id === saver.id)?.picks;
      // The first save reaches B as every change does, by the bus (within HEARD_MS, not at once: on a loaded
      // machine B can read before it hears it).
      await eventually(async () => {
        expect(await picksOf(GLOBAL_GROUP_ID)).toBe(1);
        expect(await picksOf(group.id)).toBe(1);
      }, HEARD_MS);
      json(await a.request('POST', '/api/picks', { user: saver, body: { picks: [players[0]!.id, players[1]!.id] } }));
      await eventually(async () => {
        expect(await picksOf(GLOBAL_GROUP_ID)).toBe(2);
        expect(await picksOf(group.id)).toBe(2);
      }, HEARD_MS);
    } finally {
      b.clock.set(new Date());
    }
  });
});

/**
 * What makes a hot read cheap: once its caches hold the current version (every read after the first
 * of a version), it is answered at once, without a promise (cache/maybe-promise.ts: each promise costs a
 * read async-hook bookkeeping). A change not yet loaded, or changes that cannot be heard, make it wait
 * for the database: the same answer, later.
 */
describe('hot reads answered from memory', () => {
  it('answer at once when their caches are current, and the same after waiting when they are not', async () => {
    const user = await a.signUp();
    await operatorStart(a);
    const context = () => createContextInner({ deps: a.deps, authorization: user.authorization });
    const reads = [
      ['leaderboard.group', { group_id: GLOBAL_GROUP_ID, limit: 10 }],
      ['draft.status', undefined],
      ['auth.me', undefined],
      ['players.list', undefined],
    ] as const;
    const waitedFor = new Map<string, unknown>();
    for (const [path, input] of reads) waitedFor.set(path, await runHotRead(HOT_READS[path]!, await context(), input));

    const ctx = context();
    expect(ctx).not.toBeInstanceOf(Promise);
    for (const [path, input] of reads) {
      const answer = runHotRead(HOT_READS[path]!, ctx as Awaited<typeof ctx>, input);
      expect(answer, path).not.toBeInstanceOf(Promise);
      expect(answer, path).toEqual(waitedFor.get(path));
    }

    await a.deps.events.stop();
    try {
      // Deaf to changes, the token is checked again and the draft's state and board read from the database.
      const deafCtx = context();
      expect(deafCtx).toBeInstanceOf(Promise);
      for (const [path, input] of reads) {
        const answer = runHotRead(HOT_READS[path]!, await deafCtx, input);
        if (path !== 'auth.me') expect(answer, path).toBeInstanceOf(Promise);
        expect(await answer, path).toEqual(waitedFor.get(path));
      }
    } finally {
      await a.deps.events.start();
    }
  });
});

describe('ETag and 304 on the hot reads', () => {
  it('REST: the same answer is 304 to If-None-Match, a changed one 200 with a new tag', async () => {
    const first = await a.request('GET', '/api/draft/status');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await a.request('GET', '/api/draft/status', { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    json(await a.request('POST', '/api/draft/start', { user: admin }));
    const changed = await a.request('GET', '/api/draft/status', { headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.json() as DraftStatus).draftHasStarted).toBe(true);
  });

  it("tRPC: same, and a leaderboard's tag covers the caller's own row (one player's tag is no 304 for another)", async () => {
    const [u1, u2] = [await a.signUp(), await a.signUp()];
    const players = json<PlayerDto[]>(await a.request('GET', '/api/players'));
    json(await a.request('POST', '/api/picks', { user: u1, body: { picks: [players[0]!.id] } }));
    json(await a.request('POST', '/api/picks', { user: u2, body: { picks: [players[1]!.id] } }));
    json(await a.request('POST', '/api/draft/start', { user: admin }));
    const input = { group_id: 1, limit: 10 };
    const one = await trpcGet(a, 'leaderboard.group', input, u1);
    expect(one.statusCode).toBe(200);
    expect((one.json() as { result: { data: Leaderboard } }).result.data.me?.participant_id).toBe(u1.id);
    const tag = one.headers.etag as string;
    expect((await trpcGet(a, 'leaderboard.group', input, u1, { 'if-none-match': tag })).statusCode).toBe(304);
    const other = await trpcGet(a, 'leaderboard.group', input, u2, { 'if-none-match': tag });
    expect(other.statusCode).toBe(200);
    expect((other.json() as { result: { data: Leaderboard } }).result.data.me?.participant_id).toBe(u2.id);
    // A recorded pick changes the standings: the old tag no longer matches.
    json(await a.request('POST', '/api/draft/picks', { user: admin, body: { slot: 1, player_id: players[0]!.id } }));
    const after = await trpcGet(a, 'leaderboard.group', input, u1, { 'if-none-match': tag });
    expect(after.statusCode).toBe(200);
    expect((after.json() as { result: { data: Leaderboard } }).result.data.me?.correct_picks).toBe(1);
  });

  it('tRPC fast path answers exactly as the tRPC adapter does, errors included', async () => {
    const outsider = await a.signUp();
    const owner = await a.signUp();
    const group = json<{ id: number }>(await a.request('POST', '/api/groups/create-simple', { user: owner, body: { name: `Fast path ${Date.now()}` } }));
    const cases: Array<{ path: string; input?: unknown; user?: TestUser }> = [
      { path: 'draft.status' },
      { path: 'players.list' },
      { path: 'auth.me', user: outsider },
      { path: 'auth.me' },
      { path: 'leaderboard.group', input: { group_id: group.id }, user: outsider },
      { path: 'leaderboard.group', input: { group_id: group.id }, user: owner },
      { path: 'leaderboard.group', input: { group_id: 'x' }, user: owner },
      { path: 'leaderboard.group', input: { group_id: 1, limit: 0 }, user: owner },
      { path: 'leaderboard.group', input: { group_id: 1, name: 'a\u0000b' }, user: owner },
      // The field: 409 before the start (this describe runs before it), 403, 401, bad input.
      { path: 'leaderboard.field', user: owner },
      { path: 'leaderboard.field', input: { group_id: group.id }, user: owner },
      { path: 'leaderboard.field', input: { group_id: group.id }, user: outsider },
      { path: 'leaderboard.field', input: { group_id: 1 } },
      { path: 'leaderboard.field', input: { group_id: 'x' }, user: owner },
      { path: 'leaderboard.field', input: { group_id: 1, extra: true }, user: owner },
    ];
    for (const { path, input, user } of cases) {
      const fast = await trpcGet(a, path, input, user);
      // A batch naming the procedure twice is not a hot path: the tRPC adapter answers it.
      const batchInput = encodeURIComponent(JSON.stringify({ 0: input, 1: input }));
      const viaAdapter = await a.request('GET', `/trpc/${path},${path}?batch=1&input=${batchInput}`, { user });
      const [adapterFirst] = viaAdapter.json() as unknown[];
      expect(fast.json(), `${path} ${JSON.stringify(input)}`).toEqual(adapterFirst);
      if (fast.statusCode !== 200) expect(fast.statusCode).toBe(viaAdapter.statusCode);
    }
    const refused = await trpcGet(a, 'leaderboard.group', { group_id: group.id }, outsider);
    expect(refused.statusCode).toBe(404);
    expect((refused.json() as { error: { message: string } }).error.message).toBe(MESSAGES.groupNotFound);
  });
});
