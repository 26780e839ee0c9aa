/**
 * The results feed's teams (docs/decisions.md, "Teams on the clock"): a feed that reports a pick's team
 * records a traded pick like the operator would (actor `feed`, logged, announced, undoable), but never
 * overrides a team an operator set, and never writes a team it does not know: those wait in the queue,
 * where the operator takes the feed's team or dismisses it. A local HTTP server serves the feed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftStatus, FeedStatus } from '@first-round/shared/schemas';
import { FeedPoller } from '../../src/modules/feed/feed.poller.js';
import { espnAdapter } from '../../src/modules/feed/feed.adapters.js';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { expectError, expectStatus, operatorStart } from '../game/helpers.js';

let t: TestApp;
let admin: TestUser;
let server: http.Server;
let serving = '[]';

/** A generic feed naming, per slot, its player (as on the board) and the team the feed gives. */
const feedOf = (...picks: [number, string, string, string][]) =>
  (serving = JSON.stringify(picks.map(([overall, player_name, school, team]) => ({ overall, round: 1, player_name, school, position: null, team }))));

const teamAt = async (slot: number) => expectStatus<DraftStatus>(await t.request('GET', '/api/draft/status'), 200).round_one_order[slot - 1]!.team;
const queue = async () => expectStatus<FeedStatus>(await t.request('GET', '/api/draft/feed', { user: admin }), 200).queue;
const teamEvents = () => t.db.query<{ kind: string; slot: number; team: string; team_before: string; actor: string }>(
  `select kind, slot, team, team_before, actor from draft_event where kind in ('team', 'undo_team') order by id`,
);

beforeAll(async () => {
  server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(serving));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({ env: { FEED_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/draft.json`, FEED_KIND: 'generic' } });
  admin = await t.signUp('feedteamsop', ADMIN_EMAIL);
  await operatorStart(t);
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('the feed’s teams', () => {
  it('records a traded pick the feed reports over the season’s order, as `feed`, once', async () => {
    feedOf([1, 'Cam Ward', 'Miami', 'TEN'], [2, 'Travis Hunter', 'Colorado', 'Cleveland Browns']);
    expect(await t.deps.feed.pollOnce()).toMatchObject({ recorded: [1, 2], teams: [2], queued: 0 });
    expect(await teamAt(2)).toBe('CLE');
    expect(await teamEvents()).toEqual([{ kind: 'team', slot: 2, team: 'CLE', team_before: 'JAX', actor: 'feed' }]);
    // The same report again changes nothing.
    expect(await t.deps.feed.pollOnce()).toMatchObject({ recorded: [], teams: [], queued: 0 });
    expect(await teamEvents()).toHaveLength(1);
  });

  it('never overrides an operator’s team: the disagreement waits in the queue, where the operator may take the feed’s', async () => {
    expectStatus(await t.request('POST', '/api/draft/order', { user: admin, body: { slot: 3, team: 'DAL' } }), 200);
    feedOf([3, 'Abdul Carter', 'Penn State', 'NYG']);
    expect(await t.deps.feed.pollOnce()).toMatchObject({ recorded: [3], teams: [], queued: 1 });
    expect(await teamAt(3)).toBe('DAL');
    const [item] = await queue();
    expect(item).toMatchObject({ slot: 3, kind: 'team', feed: { team: 'NYG' }, recorded_team: 'DAL', suggested: null, recorded: null });
    expect(await t.deps.feed.pollOnce()).toMatchObject({ queued: 0 });
    const done = expectStatus<{ item: { status: string }; event_id: number }>(await t.request('POST', `/api/draft/feed/queue/${item!.id}/confirm`, { user: admin, body: {} }), 200);
    expect(done.item.status).toBe('confirmed');
    expect(await teamAt(3)).toBe('NYG');
    expect((await teamEvents()).at(-1)).toEqual({ kind: 'team', slot: 3, team: 'NYG', team_before: 'DAL', actor: ADMIN_EMAIL });
    expect(await queue()).toEqual([]);
  });

  it('never writes a team it does not know: queued to dismiss, not to confirm, and not raised again', async () => {
    expectStatus(await t.request('POST', '/api/draft/order', { user: admin, body: { slot: 4, team: 'SEA' } }), 200);
    feedOf([4, 'Will Campbell', 'LSU', 'Team 99'], [5, 'Mason Graham', 'Michigan', 'Oakland Raiders']);
    expect(await t.deps.feed.pollOnce()).toMatchObject({ recorded: [4, 5], teams: [], queued: 2 });
    expect([await teamAt(4), await teamAt(5)]).toEqual(['SEA', 'CLE']);
    const items = await queue();
    expect(items.map((i) => [i.slot, i.kind, i.feed.team, i.recorded_team])).toEqual([
      [4, 'team', 'Team 99', 'SEA'],
      [5, 'team', 'Oakland Raiders', 'CLE'],
    ]);
    expectError(await t.request('POST', `/api/draft/feed/queue/${items[0]!.id}/confirm`, { user: admin, body: {} }), 400, /"Team 99" is not one of the 32 NFL teams/);
    expect(await teamAt(4)).toBe('SEA');
    for (const item of items) expectStatus(await t.request('POST', `/api/draft/feed/queue/${item.id}/dismiss`, { user: admin }), 200);
    expect(await t.deps.feed.pollOnce()).toMatchObject({ queued: 0 });
  });

  it('a team change the feed made is undone by undo like the operator’s', async () => {
    feedOf([10, 'Jalon Walker', 'Georgia', 'ATL']);
    const outcome = await t.deps.feed.pollOnce();
    expect(outcome).toMatchObject({ teams: [10] });
    // Undo takes back the newest change: the pick at 10 went in after its team change.
    expect(expectStatus(await t.request('POST', '/api/draft/undo', { user: admin }), 200)).toMatchObject({ kind: 'undo', slot: 10 });
    expect(expectStatus(await t.request('POST', '/api/draft/undo', { user: admin }), 200)).toMatchObject({ kind: 'undo_team', slot: 10, team: 'CHI' });
  });

  it('reads ESPN’s team ids: the ones it knows as abbreviations, others as they came', async () => {
    const doc = (teamId: string) => ({ picks: [{ overall: 1, status: 'SELECTION_MADE', teamId, athlete: { displayName: 'Cam Ward', team: { shortDisplayName: 'Miami' } } }] });
    expect(espnAdapter(doc('30'))[0]!.team).toBe('JAX');
    expect(espnAdapter(doc('28'))[0]!.team).toBe('WAS');
    expect(espnAdapter(doc('999'))[0]!.team).toBe('ESPN team 999');
    const espn = new FeedPoller({ ...t.deps, config: { ...t.config, FEED_KIND: 'espn' } });
    serving = JSON.stringify(doc('21'));
    expect(await espn.pollOnce()).toMatchObject({ teams: [1] });
    expect(await teamAt(1)).toBe('PHI');
  });
});
