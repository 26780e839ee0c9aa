/**
 * The results feed end to end: a fixture feed served by a local HTTP server (no network), a real
 * PostgreSQL, and polls driven by the test (`pollOnce`), never by timers.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedStatus } from '@first-round/shared/schemas';
import { FeedPoller } from '../../src/modules/feed/feed.poller.js';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { expectError, expectStatus, operatorReset, operatorStart } from '../game/helpers.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/feed');
const fixtureText = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');

let t: TestApp;
let admin: TestUser;
let member: TestUser;
let server: http.Server;
let serving: { status: number; body: string } = { status: 200, body: '[]' };
const serve = (name: string) => (serving = { status: 200, body: fixtureText(name) });

async function slots(): Promise<Record<number, string>> {
  const rows = await t.db.query<{ draft_pick: number; player_name: string }>(`select draft_pick, player_name from player where draft_round = 1 order by draft_pick`);
  return Object.fromEntries(rows.map((r) => [r.draft_pick, r.player_name]));
}
const feedStatus = async () => expectStatus<FeedStatus>(await t.request('GET', '/api/draft/feed', { user: admin }), 200);

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(serving.status, { 'content-type': 'application/json' });
    res.end(serving.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  t = await createTestApp({ env: { FEED_URL: `http://127.0.0.1:${port}/draft.json`, FEED_KIND: 'generic' } });
  admin = await t.signUp('feedoperator', ADMIN_EMAIL);
  member = await t.signUp('feedplayer');
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('the results feed', () => {
  it('does not poll before the draft is live', async () => {
    serve('generic.json');
    await t.deps.feed.tick();
    expect(await slots()).toEqual({});
    expect(await feedStatus()).toMatchObject({ configured: true, kind: 'generic', last_poll_at: null, lag_seconds: null, queue: [] });
  });

  it('records sure matches at once and queues a fuzzy name', async () => {
    await operatorStart(t);
    serve('generic.json');
    const before = Date.now();
    const outcome = await t.deps.feed.pollOnce();
    expect(outcome).toMatchObject({ recorded: [1, 2, 3, 4, 9], queued: 1, seen: 6 });
    expect(await slots()).toEqual({ 1: 'Cam Ward', 2: 'Travis Hunter', 3: 'Abdul Carter', 4: 'Will Campbell', 9: 'Kelvin Banks Jr.' });
    const status = await feedStatus();
    expect(status).toMatchObject({ last_error: null, picks_seen: 6 });
    // The lag counts from this poll: its last success is this poll's, not an older one (an order, not a speed).
    expect(status.lag_seconds).toBeGreaterThanOrEqual(0);
    expect(Date.parse(status.last_success_at!)).toBeGreaterThanOrEqual(before);
    expect(status.queue).toHaveLength(1);
    expect(status.queue[0]).toMatchObject({ slot: 12, kind: 'confirm', status: 'open', feed: { player_name: 'Tyler Bookr', school: 'Alabama' }, suggested: { player_name: 'Tyler Booker' } });
    const actors = await t.db.query<{ actor: string }>(`select distinct actor from draft_event where kind = 'pick'`);
    expect(actors).toEqual([{ actor: 'feed' }]);
  });

  it('a repeated feed changes nothing; a later slot before an earlier one is recorded', async () => {
    serve('generic-repeated.json');
    expect(await t.deps.feed.pollOnce()).toMatchObject({ recorded: [], queued: 0 });
    serve('generic-out-of-order.json');
    expect(await t.deps.feed.pollOnce()).toMatchObject({ recorded: [6], queued: 0 });
    expect(Object.keys(await slots())).toEqual(['1', '2', '3', '4', '6', '9']);
    expect((await feedStatus()).queue).toHaveLength(1);
  });

  it('the operator confirms a queued pick (admins only, once)', async () => {
    const [item] = (await feedStatus()).queue;
    expectError(await t.request('POST', `/api/draft/feed/queue/${item!.id}/confirm`, { user: member, body: {} }), 403);
    expectError(await t.request('POST', `/api/draft/feed/queue/${item!.id}/confirm`, { body: {} }), 401);
    const done = expectStatus<{ item: { status: string }; event_id: number }>(await t.request('POST', `/api/draft/feed/queue/${item!.id}/confirm`, { user: admin, body: {} }), 200);
    expect(done.item.status).toBe('confirmed');
    expect((await slots())[12]).toBe('Tyler Booker');
    expect((await feedStatus()).queue).toEqual([]);
    expectError(await t.request('POST', `/api/draft/feed/queue/${item!.id}/confirm`, { user: admin, body: {} }), 409);
    expectError(await t.request('POST', `/api/draft/feed/queue/999999/dismiss`, { user: admin }), 404);
    // The feed goes on naming 'Tyler Bookr' at 12: the slot holds his suggestion, nothing more to ask.
    serve('generic.json');
    expect(await t.deps.feed.pollOnce()).toMatchObject({ recorded: [], queued: 0 });
  });

  it('a name the board does not know is queued without a suggestion; the operator chooses the player', async () => {
    serving = { status: 200, body: JSON.stringify([{ overall: 7, round: 1, player_name: 'Zzyzx Qwerty', school: 'Nowhere', position: 'OT', team: 'NYJ' }]) };
    expect(await t.deps.feed.pollOnce()).toMatchObject({ recorded: [], queued: 1 });
    const [item] = (await feedStatus()).queue;
    expect(item).toMatchObject({ slot: 7, suggested: null });
    expectError(await t.request('POST', `/api/draft/feed/queue/${item!.id}/confirm`, { user: admin, body: {} }), 400);
    const [membou] = await t.db.query<{ id: number }>(`select id from player where player_name = 'Armand Membou'`);
    expectStatus(await t.request('POST', `/api/draft/feed/queue/${item!.id}/confirm`, { user: admin, body: { player_id: membou!.id } }), 200);
    expect((await slots())[7]).toBe('Armand Membou');
  });

  it('a queued pick the operator records by hand is settled at the next poll', async () => {
    serving = { status: 200, body: JSON.stringify([{ overall: 13, round: 1, player_name: 'Kenneth Grnt', school: 'Michigan', position: 'DL', team: 'MIA' }]) };
    expect(await t.deps.feed.pollOnce()).toMatchObject({ queued: 1 });
    const [grant] = await t.db.query<{ id: number }>(`select id from player where player_name = 'Kenneth Grant'`);
    expectStatus(await t.request('POST', '/api/draft/picks', { user: admin, body: { slot: 13, player_id: grant!.id } }), 200);
    expect(await t.deps.feed.pollOnce()).toMatchObject({ recorded: [], queued: 0 });
    expect((await feedStatus()).queue).toEqual([]);
    const [item] = await t.db.query<{ status: string }>(`select status from feed_queue_item where slot = 13`);
    expect(item).toEqual({ status: 'resolved' });
  });

  it('a corrected feed raises a conflict and overwrites nothing; dismissed, it is not raised again', async () => {
    serve('generic-corrected.json');
    expect(await t.deps.feed.pollOnce()).toMatchObject({ recorded: [], queued: 1 });
    expect(await t.deps.feed.pollOnce()).toMatchObject({ recorded: [], queued: 0 });
    expect((await slots())[2]).toBe('Travis Hunter');
    const [item] = (await feedStatus()).queue;
    expect(item).toMatchObject({ slot: 2, kind: 'conflict', suggested: { player_name: 'Shedeur Sanders' }, recorded: { player_name: 'Travis Hunter' } });
    expectError(await t.request('POST', `/api/draft/feed/queue/${item!.id}/confirm`, { user: admin, body: {} }), 409, /already filled by Travis Hunter/);
    expect((await slots())[2]).toBe('Travis Hunter');
    expectStatus(await t.request('POST', `/api/draft/feed/queue/${item!.id}/dismiss`, { user: admin }), 200);
    expect(await t.deps.feed.pollOnce()).toMatchObject({ queued: 0 });
    expect((await feedStatus()).queue).toEqual([]);
  });

  it('a malformed or failing feed is an error in the status, never a 5xx', async () => {
    const before = await slots();
    const succeeded = (await feedStatus()).last_success_at;
    for (const body of [fixtureText('generic-malformed.json'), fixtureText('generic-truncated.json'), '{"picks": []}']) {
      serving = { status: 200, body };
      expect(await t.deps.feed.pollOnce()).toHaveProperty('error');
      const status = await feedStatus();
      expect(status.last_error).toMatch(/feed|entry/i);
      expect(status.last_success_at).toBe(succeeded);
    }
    serving = { status: 500, body: 'oops' };
    expect(await t.deps.feed.pollOnce()).toEqual({ error: 'The feed answered HTTP 500' });
    expect(await slots()).toEqual(before);
    serve('generic.json');
    await t.deps.feed.pollOnce();
    expect((await feedStatus()).last_error).toBeNull();
  });

  it('a reset empties the queue: nothing from before can be confirmed into the next run, whose feed queues afresh', async () => {
    serve('generic.json');
    await t.deps.feed.pollOnce();
    await operatorReset(t);
    expect((await feedStatus()).queue).toEqual([]);
    expect(await t.db.query('select count(*)::int as n from feed_queue_item')).toEqual([{ n: 0 }]);
    await operatorStart(t);
    expect(await t.deps.feed.pollOnce()).toMatchObject({ recorded: [1, 2, 3, 4, 9], queued: 1 });
    expect((await feedStatus()).queue).toMatchObject([{ slot: 12, kind: 'confirm', status: 'open', feed: { player_name: 'Tyler Bookr' } }]);
  });

  it('reads the ESPN feed', async () => {
    await operatorReset(t);
    await operatorStart(t);
    const espn = new FeedPoller({ ...t.deps, config: { ...t.config, FEED_KIND: 'espn' } });
    serve('espn.json');
    expect(await espn.pollOnce()).toMatchObject({ recorded: [1, 2, 3, 9], seen: 4 });
    expect(await slots()).toEqual({ 1: 'Cam Ward', 2: 'Travis Hunter', 3: 'Abdul Carter', 9: 'Kelvin Banks Jr.' });
  });

  it('one instance polls: the advisory lock goes to one poller, and to another once it stops', async () => {
    // The app's poller took the lock at its first tick (the first test); it polls, no one else.
    expect(t.deps.feed.holdsLock).toBe(true);
    const other = new FeedPoller(t.deps);
    try {
      expect(await other.acquireLock()).toBe(false);
      await other.tick();
      expect(other.holdsLock).toBe(false);
      await t.deps.feed.stop();
      expect(await other.acquireLock()).toBe(true);
    } finally {
      await other.stop();
    }
  });
});
