/**
 * The field (leaderboard.field, GET /api/draft/field): who picked whom, as shares of a scope's entries,
 * after the start. Hand-computed groups, globally and in a group (one member reusing global picks, one
 * member without picks), the refusals (401, 403, 404, 409), and the cache: kept after the start, computed
 * again when a member joins or the draft is reset and started again. The app listens to draft events, as
 * a server does, so the cache is the one under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldRow, GroupDto } from '@first-round/shared/schemas';
import { MESSAGES } from '@first-round/shared/messages';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { boardIds, createGroup, expectError, expectStatus, joinGroup, operatorReset, operatorStart, savePicks } from './helpers.js';

let t: TestApp;
let players: number[];
let names: Map<number, string>;
let a: TestUser;
let b: TestUser;
let c: TestUser;
let d: TestUser;
let f: TestUser;
let group: GroupDto;

const get = (url: string, user?: TestUser) => t.request('GET', url, { user });
let operator: TestUser | undefined;
const admin = async () => (operator ??= await t.signUp('fieldop', ADMIN_EMAIL));
/** A row as the field answers it: player `i` of the board (0 = rank 1). */
const row = (i: number, picked_by: number, entries: number, share: number): FieldRow => ({
  player_id: players[i]!,
  player_name: names.get(players[i]!)!,
  picked_by,
  entries,
  share,
});

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  players = await boardIds(t);
  const rows = await t.db.query<{ id: number; player_name: string }>(`select id, player_name from player`);
  names = new Map(rows.map((r) => [r.id, r.player_name]));
  [a, b, c, d, f] = [await t.signUp('fielda'), await t.signUp('fieldb'), await t.signUp('fieldc'), await t.signUp('fieldd'), await t.signUp('fieldf')];
  // Global picks: A 0 1 2, B 0 3, C 1, D 0 4 (F none).
  await savePicks(t, a, [players[0]!, players[1]!, players[2]!]);
  await savePicks(t, b, [players[0]!, players[3]!]);
  await savePicks(t, c, [players[1]!]);
  await savePicks(t, d, [players[0]!, players[4]!]);
  // The group: A reuses global picks; B has group picks 5 0; C group picks 5; F is a member without picks.
  group = await createGroup(t, a);
  for (const user of [b, c, f]) await joinGroup(t, user, group.id);
  expectStatus(await t.request('POST', `/api/groups/${group.id}/use-global-picks`, { user: a, body: { use_global_picks: true } }), 200);
  await savePicks(t, b, [players[5]!, players[0]!], group.id);
  await savePicks(t, c, [players[5]!], group.id);
});
afterAll(async () => {
  await operatorReset(t).catch(() => undefined);
  await t?.close();
});

describe('before the start', () => {
  it('reveals nothing: 409 with the message, for the global field and a group alike', async () => {
    expectError(await get('/api/draft/field', a), 409, MESSAGES.fieldBeforeStart);
    expectError(await get(`/api/draft/field?group_id=${group.id}`, a), 409, MESSAGES.fieldBeforeStart);
    const caller = await t.caller(a);
    await expect(caller.leaderboard.field()).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.fieldBeforeStart });
  });

  it('still refuses the signed out (401) and non-members (404, as for no such group) first', async () => {
    expectError(await get('/api/draft/field'), 401, MESSAGES.authRequired);
    expectError(await get(`/api/draft/field?group_id=${group.id}`, d), 404, MESSAGES.groupNotFound);
  });
});

describe('after the start', () => {
  beforeAll(async () => {
    await operatorStart(t);
  });

  /** Global: 4 entries (F has none). 0: A B D; 1: A C; 2: A; 3: B; 4: D. */
  const globalField = () => [row(0, 3, 4, 0.75), row(1, 2, 4, 0.5), row(2, 1, 4, 0.25), row(3, 1, 4, 0.25), row(4, 1, 4, 0.25)];
  /** The group: 3 entries (A's global set, B's and C's group sets; F has none). 0: A B; 5: B C; 1: A; 2: A. */
  const groupField = () => [row(0, 2, 3, 0.6667), row(5, 2, 3, 0.6667), row(1, 1, 3, 0.3333), row(2, 1, 3, 0.3333)];

  it('counts every global entry: the same without group_id, with group_id=1 and through tRPC', async () => {
    expect(expectStatus(await get('/api/draft/field', f), 200)).toEqual(globalField());
    expect(expectStatus(await get('/api/draft/field?group_id=1', d), 200)).toEqual(globalField());
    expect(expectStatus(await get('/draft/field', a), 200)).toEqual(globalField());
    const caller = await t.caller(c);
    expect(await caller.leaderboard.field()).toEqual(globalField());
    expect(await caller.leaderboard.field({ group_id: 1 })).toEqual(globalField());
  });

  it("counts a group's entries as its standings do (reused global picks, group picks, members without picks left out)", async () => {
    expect(expectStatus(await get(`/api/draft/field?group_id=${group.id}`, f), 200)).toEqual(groupField());
    expect(await (await t.caller(a)).leaderboard.field({ group_id: group.id })).toEqual(groupField());
    // The same entries as the group's standings.
    const standings = expectStatus<{ entries: number }>(await get(`/api/groups/${group.id}/leaderboard`, a), 200);
    expect(standings.entries).toBe(3);
  });

  it('answers over tRPC GET with an ETag, and 304 when nothing changed', async () => {
    const url = `/trpc/leaderboard.field?input=${encodeURIComponent(JSON.stringify({ group_id: group.id }))}`;
    const first = await t.request('GET', url, { user: b });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ result: { data: groupField() } });
    const again = await t.request('GET', url, { user: b, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('refuses non-members and unknown groups alike (404), the signed out (401) and bad ids (422)', async () => {
    expectError(await get(`/api/draft/field?group_id=${group.id}`, d), 404, MESSAGES.groupNotFound);
    await expect((await t.caller(d)).leaderboard.field({ group_id: group.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expectError(await get('/api/draft/field?group_id=2147483647', a), 404, MESSAGES.groupNotFound);
    expectError(await get('/api/draft/field'), 401, MESSAGES.authRequired);
    expectError(await get(`/api/draft/field?group_id=${group.id}`), 401, MESSAGES.authRequired);
    expectError(await get('/api/draft/field?group_id=0', a), 422);
    expectError(await get('/api/draft/field?group_id=abc', a), 422);
  });

  it('keeps one answer per group while nothing changes, and counts again when a member leaves', async () => {
    const kept = await t.deps.field.get(group.id);
    expect(await t.deps.field.get(group.id)).toBe(kept);
    // A recorded pick changes standings, not who picked whom: the same answer.
    expectStatus(await t.request('POST', '/api/draft/picks', { user: await admin(), body: { slot: 1, player_id: players[0] } }), 200);
    expect(await t.deps.field.get(group.id)).toBe(kept);
    // Leaving is open after the start: C's entry goes. Left: A (0 1 2) and B (5 0).
    expectStatus(await t.request('POST', `/api/groups/${group.id}/leave`, { user: c }), 200);
    expect(expectStatus(await get(`/api/draft/field?group_id=${group.id}`, b), 200)).toEqual([row(0, 2, 2, 1), row(1, 1, 2, 0.5), row(2, 1, 2, 0.5), row(5, 1, 2, 0.5)]);
    // The global field did not move.
    expect(expectStatus(await get('/api/draft/field', c), 200)).toEqual(globalField());
  });

  it('after a reset nothing is shown, and after the next start the new picks count', async () => {
    expect(expectStatus(await get('/api/draft/field', a), 200)).toEqual(globalField());
    await operatorReset(t);
    expectError(await get('/api/draft/field', a), 409, MESSAGES.fieldBeforeStart);
    await savePicks(t, f, [players[6]!]);
    await operatorStart(t);
    expect(expectStatus(await get('/api/draft/field', a), 200)).toEqual([
      row(0, 3, 5, 0.6),
      row(1, 2, 5, 0.4),
      row(2, 1, 5, 0.2),
      row(3, 1, 5, 0.2),
      row(4, 1, 5, 0.2),
      row(6, 1, 5, 0.2),
    ]);
  });
});
