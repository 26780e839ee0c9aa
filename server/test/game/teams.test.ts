/**
 * The teams on the clock: round one's order (which team holds each slot) as the operator and
 * every page see it. A fresh database has the real 2025 order; the operator changes a traded pick over
 * REST (admins only, audited, announced to every instance); undo takes a team change back when it is the
 * last change; a reset keeps the order as it stands. The group's draft board names each slot's team.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftBoard, DraftChange, DraftStatus } from '@first-round/shared/schemas';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { boardIds, createGroup, eventually, expectError, expectStatus, operatorReset, operatorStart, tableCounts } from './helpers.js';

let t: TestApp;
let admin: TestUser;
let player: TestUser;
let players: number[];

const ORDER_2025 = 'TEN JAX NYG NE CLE LV NYJ CAR NO CHI SF DAL MIA IND ATL ARI CIN SEA TB DEN PIT LAC GB MIN NYG ATL BAL DET WAS BUF PHI KC'.split(' ');

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  [admin, player] = [await t.signUp('teamsop', ADMIN_EMAIL), await t.signUp('teamsplayer')];
  players = await boardIds(t);
});
afterAll(async () => t?.close());

const status = async () => expectStatus<DraftStatus>(await t.request('GET', '/api/draft/status'), 200);
const teamAt = async (slot: number) => (await status()).round_one_order.find((s) => s.slot === slot)?.team;
/** The operator's REST row (`null`: signed out). */
const setTeam = (slot: unknown, team: unknown, user: TestUser | null = admin) => t.request('POST', '/api/draft/order', { user: user ?? undefined, body: { slot, team } });
const undo = () => t.request('POST', '/api/draft/undo', { user: admin });
const nextUndo = async () => expectStatus<{ change: unknown }>(await t.request('GET', '/api/draft/undo', { user: admin }), 200).change;

describe('round one’s order', () => {
  it('is the real 2025 order on a fresh database, carried by draft.status for every page', async () => {
    const s = await status();
    expect(s.round_one_order).toEqual(ORDER_2025.map((team, i) => ({ slot: i + 1, team })));
  });

  it('changes for a traded pick: operators only, audited, announced to every instance, undone by undo', async () => {
    const heard: DraftChange[] = [];
    const off = t.deps.events.onChange((c) => heard.push(c));
    expectError(await setTeam(25, 'ATL', null), 401);
    expectError(await setTeam(25, 'ATL', player), 403);
    const change = expectStatus<DraftChange>(await setTeam(25, 'atl'), 200);
    expect(change).toMatchObject({ kind: 'team', slot: 25, team: 'ATL', team_before: 'NYG' });
    expect(await teamAt(25)).toBe('ATL');
    await eventually(async () => expect(heard.map((c) => [c.kind, c.slot, c.team])).toEqual([['team', 25, 'ATL']]));

    const [logged] = expectStatus<{ kind: string; slot: number; team: string; team_before: string; actor: string }[]>(await t.request('GET', '/api/draft/events', { user: admin }), 200);
    expect(logged).toMatchObject({ kind: 'team', slot: 25, team: 'ATL', team_before: 'NYG', actor: ADMIN_EMAIL });

    expect(await nextUndo()).toEqual({ kind: 'undo_team', slot: 25, player_name: null, team: 'NYG', team_before: 'ATL' });
    expect(expectStatus<DraftChange>(await undo(), 200)).toMatchObject({ kind: 'undo_team', slot: 25, team: 'NYG', team_before: 'ATL' });
    expect(await teamAt(25)).toBe('NYG');
    await eventually(async () => expect(heard.map((c) => c.kind)).toEqual(['team', 'undo_team']));
    off();
  });

  it('replays a team change to a page that reconnects, with its teams', async () => {
    const change = expectStatus<DraftChange>(await setTeam(26, 'PHI'), 200);
    const stream = (await (await t.caller(player)).draft.changes({ lastEventId: String(change.event_id - 1) }))[Symbol.asyncIterator]();
    try {
      // The stream's items are [event id, change] (tRPC's tracked events).
      const [id, replayed] = (await stream.next()).value as [string, DraftChange];
      expect([id, replayed]).toMatchObject([String(change.event_id), { kind: 'team', slot: 26, team: 'PHI', team_before: 'ATL' }]);
    } finally {
      await stream.return?.(undefined);
    }
    expectStatus(await undo(), 200);
  });

  it('refuses a bad slot or team with a message naming it, and writes nothing', async () => {
    const before = await tableCounts(t);
    expectError(await setTeam(25, 'XYZ'), 422, /team/);
    expectError(await setTeam(33, 'SEA'), 400, 'Slot must be a whole number from 1 to 32');
    expectError(await setTeam(0, 'SEA'), 422, /slot/);
    expectError(await setTeam(25, 'NYG'), 409, 'Pick 25 already belongs to NYG (New York Giants)');
    expect(await tableCounts(t)).toEqual(before);
    expect(await teamAt(25)).toBe('NYG');
  });

  it('undo takes back whichever is newer, a recorded pick or a team change, and never reaches past a reset', async () => {
    await operatorStart(t);
    expectStatus(await setTeam(26, 'PHI'), 200);
    expectStatus(await t.request('POST', '/api/draft/picks', { user: admin, body: { slot: 1, player_id: players[0] } }), 200);
    // The pick is the last change: it goes first, then the team change before it.
    expect(await nextUndo()).toMatchObject({ kind: 'undo', slot: 1 });
    expect(expectStatus<DraftChange>(await undo(), 200)).toMatchObject({ kind: 'undo', slot: 1 });
    expect(expectStatus<DraftChange>(await undo(), 200)).toMatchObject({ kind: 'undo_team', slot: 26, team: 'ATL' });

    // A team change after round one is marked complete is newer than the mark.
    expectStatus(await t.request('POST', '/api/draft/complete-round', { user: admin }), 200);
    expectStatus(await setTeam(31, 'BUF'), 200);
    expect(expectStatus<DraftChange>(await undo(), 200)).toMatchObject({ kind: 'undo_team', slot: 31, team: 'PHI' });
    expect(expectStatus<DraftChange>(await undo(), 200)).toMatchObject({ kind: 'reopen_round' });

    // A reset keeps the order as it stands: the change stays, and undo no longer reaches it.
    expectStatus(await setTeam(2, 'CLE'), 200);
    await operatorReset(t);
    expect(await teamAt(2)).toBe('CLE');
    expect(await nextUndo()).toBeNull();
    expectError(await undo(), 409, 'There is nothing to undo: no recorded pick, and no team change since the last reset');
    expectStatus(await setTeam(2, 'JAX'), 200);
  });

  it('names each slot’s team on a group’s draft board', async () => {
    const group = await createGroup(t, player);
    await operatorStart(t);
    expectStatus(await t.request('POST', '/api/draft/picks', { user: admin, body: { slot: 18, player_id: players[20] } }), 200);
    const board = expectStatus<DraftBoard>(await t.request('GET', `/api/groups/${group.id}/draft-board`, { user: player }), 200);
    expect(board.slots.map((s) => s.team)).toEqual(ORDER_2025);
    expect(board.slots[17]).toMatchObject({ slot: 18, team: 'SEA', player: { id: players[20] } });
    await operatorReset(t);
  });
});
