import http from 'node:http';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sseHeaders, sseStreamProducer } from '@trpc/server/unstable-core-do-not-import';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import type { PlayerDto } from '@first-round/shared/schemas';
import { buildApp } from '../src/app.js';
import { recordPick } from '../src/modules/draft/draft.service.js';
import { HOT_READS } from '../src/wire/hot-reads.js';
import { appRouter } from '../src/trpc/root.js';
import { notFoundRefusal } from '../src/refusals.js';
import { CONNECTED, PING } from '../src/wire/sse-frames.js';
import { ADMIN_EMAIL, createTestApp, listenOnLoopback, type TestApp, type TestUser } from './support/test-app.js';
import { operatorStart } from './game/helpers.js';

/**
 * Some /trpc answers are written by hand in tRPC's wire format, in front of tRPC's adapter: the hot
 * reads (wire/hot-reads.ts) and the live stream's SSE (wire/sse-route.ts). Any tRPC client must
 * read them unchanged, so each is held byte for byte to what tRPC itself answers for the same procedure
 * and input: a second app on the same dependencies (same database, same caches) with the hand-written
 * paths turned off answers through tRPC's own Fastify adapter.
 */

let t: TestApp;
let trpcOnly: FastifyInstance;
/** The app with every fast path on, whatever FAST_PATHS says for the run. */
let fastApp: FastifyInstance;
let fastUrl: string;
let trpcUrl: string;
let admin: TestUser;
/** A player and their group, made before the start (which locks new groups), for the stream's tests. */
let streamer: TestUser;
let streamGroup: { id: number };

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  trpcOnly = await buildApp(t.deps, { logger: false, fastPaths: false });
  fastApp = await buildApp(t.deps, { logger: false, fastPaths: true });
  fastUrl = await listenOnLoopback(fastApp);
  trpcUrl = await listenOnLoopback(trpcOnly);
  admin = await t.signUp('operator', ADMIN_EMAIL);
  streamer = await t.signUp('streamer');
  streamGroup = (await t.request('POST', '/api/groups/create-simple', { user: streamer, body: { name: `Stream contract ${Date.now()}` } })).json() as { id: number };
});
afterAll(async () => {
  await trpcOnly?.close();
  await fastApp?.close();
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
  const [fast, trpc] = [await fastApp.inject(request), await trpcOnly.inject(request)];
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
    { path: 'leaderboard.public' },
    { path: 'leaderboard.public', user: owner },
    { path: 'leaderboard.public', raw: '?input=%22x%22' },
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

/** A raw SSE stream as a browser's EventSource opens it; `text()` is what arrived so far, decoded. */
function openStream(base: string, options: { token?: string; input?: unknown; rawInput?: string; lastEventId?: string; gzip?: boolean; path?: string }) {
  return new Promise<{ res: http.IncomingMessage; text: () => string; ended: Promise<void>; stop: () => void }>((resolve, reject) => {
    const params = new URLSearchParams();
    if (options.token !== undefined) params.set('connectionParams', JSON.stringify({ token: options.token }));
    if (options.rawInput !== undefined) params.set('input', options.rawInput);
    else if (options.input !== undefined) params.set('input', JSON.stringify(options.input));
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (options.gzip) headers['accept-encoding'] = 'gzip';
    if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
    const req = http.get(`${base}/trpc/${options.path ?? 'draft.changes'}?${params}`, { headers }, (res) => {
      const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH })) : res;
      let text = '';
      body.setEncoding('utf8');
      body.on('data', (chunk: string) => (text += chunk));
      const ended = new Promise<void>((r) => body.on('end', () => r()));
      resolve({ res, text: () => text, ended, stop: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

/** tRPC's SSE frames end with a blank line and one more newline. */
const frames = (text: string) => text.split(/(?<=\n\n\n)/).filter((f) => f.endsWith('\n\n\n'));

async function framesWhen(stream: { text: () => string }, count: number, ms = 5000): Promise<string[]> {
  const until = Date.now() + ms;
  while (frames(stream.text()).length < count) {
    if (Date.now() > until) throw new Error(`${count} frames not within ${ms} ms; so far:\n${stream.text()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return frames(stream.text()).slice(0, count);
}

describe('draft.changes over SSE, byte for byte as tRPC streams it', () => {
  const member = () => streamer;

  it('sends the same headers', async () => {
    const [fast, trpc] = [await openStream(fastUrl, { token: member().token }), await openStream(trpcUrl, { token: member().token })];
    for (const [name, value] of Object.entries(sseHeaders)) {
      expect(fast.res.headers[name.toLowerCase()], name).toBe(value);
      expect(trpc.res.headers[name.toLowerCase()], name).toBe(value);
    }
    expect(fast.res.statusCode).toBe(trpc.res.statusCode);
    fast.stop();
    trpc.stop();
  });

  it('refuses as tRPC refuses: the same frames, and the stream ends', async () => {
    const refusals: Array<Parameters<typeof openStream>[1]> = [
      {},
      { token: 'not-a-token' },
      { token: member().token, input: { lastEventId: 'abc' } },
      { token: member().token, input: { lastEventId: '9223372036854775808' } },
      { token: member().token, input: { standings: { group_id: 'x' } } },
      { token: member().token, input: { unknown: true } },
      { token: member().token, input: { lastEventId: '1\u0000' } },
      { token: member().token, rawInput: '{not json' },
      { token: member().token, lastEventId: 'x1' },
      { token: member().token, rawInput: '"text"', lastEventId: '1' },
      { token: 'a\u0000b' },
    ];
    for (const options of refusals) {
      const [fast, trpc] = [await openStream(fastUrl, options), await openStream(trpcUrl, options)];
      await Promise.all([fast.ended, trpc.ended]);
      expect(fast.text(), JSON.stringify(options)).toBe(trpc.text());
      expect(fast.text()).toMatch(/^event: connected\n.*\n\n\nevent: serialized-error\n/s);
      expect(fast.res.statusCode).toBe(trpc.res.statusCode);
    }
  });

  it('answers unreadable connection params as tRPC does: a JSON error, before any stream', async () => {
    for (const params of ['{not json', '5', '{"token":5}', 'null', '[]']) {
      const url = `/trpc/draft.changes?connectionParams=${encodeURIComponent(params)}`;
      const [fast, trpc] = [await fastApp.inject({ method: 'GET', url }), await trpcOnly.inject({ method: 'GET', url })];
      expect(fast.body, params).toBe(trpc.body);
      expect(fast.statusCode, params).toBe(trpc.statusCode);
      expect(fast.headers['content-type'], params).toBe(trpc.headers['content-type']);
    }
  });

  it('replays after a last event id, then the watched page, then live changes and pages: the same frames, gzip or not', async () => {
    const [state] = await t.db.query<{ started: boolean }>(`select started_at is not null as started from draft_state`);
    if (!state!.started) await operatorStart(t);
    // At least two changes to replay.
    for (let i = 0; i < 2; i++) {
      const [next] = await t.db.query<{ slot: number }>(`select count(*)::int + 1 as slot from player where draft_pick is not null`);
      const [player] = await t.db.query<{ id: number }>(`select id from player where draft_pick is null order by rank limit 1`);
      await recordPick(t.orm().em.fork(), t.deps.draft, 'test', next!.slot, player!.id);
    }
    const replayed = 2;
    for (const standings of [{ group_id: GLOBAL_GROUP_ID, limit: 5, offset: 0 }, { group_id: streamGroup.id, limit: 5, offset: 0 }]) {
      const events = await t.db.query<{ id: string }>(`select id from draft_event order by id`);
      const from = events.at(-1 - replayed)!.id;
      const input = { lastEventId: from, standings };
      const streams = [
        await openStream(fastUrl, { token: member().token, input }),
        await openStream(fastUrl, { token: member().token, input, gzip: true }),
        await openStream(trpcUrl, { token: member().token, input }),
      ];
      // connected, the changes after `from`, then the page as of the last of them: the reader's own part
      // (a stream's first page brings it), then the page.
      const caughtUp = await Promise.all(streams.map((s) => framesWhen(s, 1 + replayed + 2)));
      expect(caughtUp[0]![replayed + 1]).toMatch(/^data: \{"kind":"standings_me"/);
      expect(caughtUp[0]![replayed + 2]).toMatch(/^data: \{"kind":"standings_page"/);
      expect(caughtUp[0]).toEqual(caughtUp[2]);
      expect(caughtUp[1]).toEqual(caughtUp[2]);

      const [next] = await t.db.query<{ slot: number }>(`select count(*)::int + 1 as slot from player where draft_pick is not null`);
      const [player] = await t.db.query<{ id: number }>(`select id from player where draft_pick is null order by rank limit 1`);
      await recordPick(t.orm().em.fork(), t.deps.draft, 'test', next!.slot, player!.id);
      // The reader has no entry: their own part (none) did not change, so the pick and the page alone.
      const live = await Promise.all(streams.map((s) => framesWhen(s, 1 + replayed + 2 + 2)));
      expect(live[0]!.at(-2)).toMatch(/^data: \{"event_id":\d+,"kind":"pick"/);
      expect(live[0]!.at(-1)).toMatch(/^data: \{"kind":"standings_page"/);
      expect(live[0]).toEqual(live[2]);
      expect(live[1]).toEqual(live[2]);
      for (const s of streams) s.stop();
    }
  });

  it("the spectators' stream (draft.publicChanges, no token): refusals, replay with the top 100, live changes with it, the same frames, gzip or not", async () => {
    const path = 'draft.publicChanges';
    for (const options of [{ input: { lastEventId: 'abc' } }, { input: { standings: { group_id: 1 } } }, { rawInput: '{not json' }]) {
      const [fast, trpc] = [await openStream(fastUrl, { path, ...options }), await openStream(trpcUrl, { path, ...options })];
      await Promise.all([fast.ended, trpc.ended]);
      expect(fast.text(), JSON.stringify(options)).toBe(trpc.text());
      expect(fast.text()).toMatch(/^event: connected\n.*\n\n\nevent: serialized-error\n/s);
    }
    const [state] = await t.db.query<{ started: boolean }>(`select started_at is not null as started from draft_state`);
    if (!state!.started) await operatorStart(t);
    const recordNext = async () => {
      const [next] = await t.db.query<{ slot: number }>(`select count(*)::int + 1 as slot from player where draft_pick is not null`);
      const [player] = await t.db.query<{ id: number }>(`select id from player where draft_pick is null order by rank limit 1`);
      await recordPick(t.orm().em.fork(), t.deps.draft, 'test', next!.slot, player!.id);
    };
    await recordNext();
    const events = await t.db.query<{ id: string }>(`select id from draft_event order by id`);
    const from = events.at(-2)!.id;
    const streams = [
      await openStream(fastUrl, { path, lastEventId: from }),
      await openStream(fastUrl, { path, lastEventId: from, gzip: true }),
      await openStream(trpcUrl, { path, lastEventId: from }),
    ];
    // connected, the change after `from`, then the top 100 as of it.
    const caughtUp = await Promise.all(streams.map((s) => framesWhen(s, 3)));
    expect(caughtUp[0]![2]).toMatch(/^data: \{"kind":"standings","event_id":\d+,"leaderboard":\{"group_id":1,/);
    expect(caughtUp[0]).toEqual(caughtUp[2]);
    expect(caughtUp[1]).toEqual(caughtUp[2]);
    await recordNext();
    const live = await Promise.all(streams.map((s) => framesWhen(s, 5)));
    expect(live[0]![3]).toMatch(/^data: \{"event_id":\d+,"kind":"pick"/);
    expect(live[0]![4]).toMatch(/^data: \{"kind":"standings"/);
    expect(live[0]).toEqual(live[2]);
    expect(live[1]).toEqual(live[2]);
    for (const s of streams) s.stop();
  });

  it('pings with the frame tRPC pings with', async () => {
    // A stream that never has data: after `connected`, only pings.
    const silent: AsyncIterable<never> = { [Symbol.asyncIterator]: () => ({ next: () => new Promise<never>(() => {}) }) };
    const reader = sseStreamProducer({ ...appRouter._def._config.sse, ping: { enabled: true, intervalMs: 1 }, data: silent }).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (frames(text).length < 2) text += decoder.decode((await reader.read()).value);
    await reader.cancel();
    expect(frames(text).slice(0, 2)).toEqual([CONNECTED, PING.toString('utf8')]);
  });
});

describe('answers for a path no route has, byte for byte as tRPC answers a procedure it does not have', () => {
  it('alone and in a batch, for GET and POST', async () => {
    // tRPC's adapter answers `/trpc/<one segment>` itself; a path with more segments (or none) never
    // reaches it, and the app's own answer (refusals.ts) must be the one tRPC gives.
    for (const [method, url] of [
      ['GET', '/trpc/nonexistent'],
      ['GET', '/trpc/groups.nothing?batch=1&input=%7B%7D'],
      ['GET', '/trpc/no.such,other.one?batch=1'],
      ['POST', '/trpc/nonexistent'],
    ] as const) {
      const request = { method, url, ...(method === 'POST' ? { payload: '{}', headers: { 'content-type': 'application/json' } } : {}) };
      const trpc = await trpcOnly.inject(request);
      const ours = notFoundRefusal({ url, query: Object.fromEntries(new URL(url, 'http://x').searchParams) });
      expect(ours.body, url).toBe(trpc.body);
      expect(ours.status, url).toBe(trpc.statusCode);
      expect(ours.contentType, url).toBe(trpc.headers['content-type']);
    }
    // And what the app answers for paths tRPC's adapter never sees is that answer.
    const deeper = await fastApp.inject({ method: 'GET', url: '/trpc/groups/get' });
    expect(deeper.statusCode).toBe(404);
    expect(deeper.headers['content-type']).toBe('application/json');
    expect(deeper.body).toBe(notFoundRefusal({ url: '/trpc/groups/get', query: {} }).body as string);
  });
});
