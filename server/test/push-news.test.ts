/**
 * What push notifications say, read as a device reads them: the push service stand-in checks
 * VAPID and decrypts each payload with the device's keys. A round one of 4 slots: a pick of yours taken,
 * your entry busted, the final result in the group where you placed best, the 1-hour reminder before the
 * lock (once, with two instances running it); and pushes waiting on a stopped sender delivered by the next
 * one, each once, never before the device's delay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupDto } from '@first-round/shared/schemas';
import { completeRoundOne, recordPick } from '../src/modules/draft/draft.service.js';
import { runReminders } from '../src/modules/reminders/reminders.service.js';
import { createTestApp, startPushService, type PushServiceStandIn, type StandInDevice, type TestApp, type TestUser } from './support/test-app.js';
import { createGroup, joinGroup, operatorStart, savePicks, uniqueName } from './game/helpers.js';

async function until(check: () => boolean, ms = 10_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ENV = { ROUND_ONE_PICKS: '4' };

let t: TestApp;
let t2: TestApp;
let service: PushServiceStandIn;
let board: { id: number; player_name: string }[];
let squad: GroupDto;
/** Holds P0 only (a hit at pick 1); in the squad with it. */
let alice: TestUser;
/** Holds P2, P3, P4: busted at pick 2 (3 waiting, 2 slots left); in the squad. */
let bob: TestUser;
/** Holds P0 and P1 (no device): first on the global leaderboard, so Alice's best place is the squad. */
let carol: TestUser;
/** No picks at all: the reminder's player. */
let dana: TestUser;
const devices: Record<string, StandInDevice> = {};

const pushesTo = (device: StandInDevice) => service.received.filter((p) => p.deviceId === device.id);
const payloadsTo = (device: StandInDevice) => pushesTo(device).map((p) => p.payload);

beforeAll(async () => {
  t = await createTestApp({ startEvents: true, env: ENV });
  t2 = await createTestApp({ startEvents: true, sameDatabaseAs: t, env: ENV });
  service = await startPushService();
  t.deps.push.start();
  await until(() => t.deps.push.isLeader);
  board = await t.db.query<{ id: number; player_name: string }>(`select id, player_name from player order by rank limit 6`);
  [alice, bob, carol, dana] = [await t.signUp('newsalice'), await t.signUp('newsbob'), await t.signUp('newscarol'), await t.signUp('newsdana')];
  await savePicks(t, alice, [board[0]!.id]);
  await savePicks(t, bob, [board[2]!.id, board[3]!.id, board[4]!.id]);
  await savePicks(t, carol, [board[0]!.id, board[1]!.id]);
  squad = await createGroup(t, alice, { name: uniqueName('Sunday Squad') });
  await joinGroup(t, bob, squad.id);
  for (const user of [alice, bob]) {
    expect((await t.request('POST', `/api/groups/${squad.id}/use-global-picks`, { user, body: { use_global_picks: true } })).statusCode).toBe(200);
  }
  for (const [name, user, delay] of [['alice', alice, 0], ['aliceTv', alice, 2], ['bob', bob, 0], ['dana', dana, 0]] as const) {
    devices[name] = service.device();
    await (await t.caller(user)).push.subscribe({ ...devices[name].subscription, delay_seconds: delay });
  }
});
afterAll(async () => {
  await t2?.close();
  await t?.close();
  await service?.close();
});

describe('push notifications: what each one says', () => {
  it('sends the 1-hour reminder to the devices of players whose picks are not in, once, with two instances', async () => {
    const when = new Date(t.deps.draft.deadline.getTime() - 30 * 60 * 1000);
    t.clock.set(when);
    t2.clock.set(when);
    await Promise.all([runReminders(t.deps), runReminders(t2.deps), runReminders(t.deps)]);
    await until(() => pushesTo(devices.dana!).length === 1);
    expect(payloadsTo(devices.dana!)).toEqual([
      { title: 'Your First Round picks are not in: 1 hour left', body: 'Picks lock in an hour. Once the draft starts they cannot be made or changed.', tag: 'first-round-reminder', url: '/select-players' },
    ]);
    // Once more: nothing new (the claim is recorded), and nothing ever to players whose picks are in.
    await runReminders(t2.deps);
    await new Promise((r) => setTimeout(r, 500));
    expect(pushesTo(devices.dana!)).toHaveLength(1);
    expect([...pushesTo(devices.alice!), ...pushesTo(devices.bob!)]).toEqual([]);
  });

  it('tells a pick of yours taken with your hits and state, after your delay on a delayed device; tells nobody else', async () => {
    t.clock.set(new Date());
    t2.clock.set(new Date());
    await operatorStart(t);
    const pickedAt = Date.now();
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 1, board[0]!.id);
    await until(() => pushesTo(devices.alice!).length === 1);
    expect(payloadsTo(devices.alice!)[0]).toEqual({
      title: expect.stringMatching(new RegExp(`^✓ ${board[0]!.player_name} — Pick 1( · [A-Z]{2,3})?$`)),
      body: '1 hit · Alive',
      tag: 'first-round-picks',
      url: '/my-picks',
    });
    // Bob: 3 picks waiting, 3 slots left: nothing to say. The delayed device: nothing yet.
    expect(pushesTo(devices.bob!)).toEqual([]);
    expect(pushesTo(devices.aliceTv!)).toEqual([]);
    await until(() => pushesTo(devices.aliceTv!).length === 1);
    expect(pushesTo(devices.aliceTv!)[0]!.at - pickedAt).toBeGreaterThanOrEqual(2000);
    expect(payloadsTo(devices.aliceTv!)).toEqual(payloadsTo(devices.alice!));
  });

  it('tells an entry busted by a pick: which pick, and why', async () => {
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 2, board[1]!.id);
    await until(() => pushesTo(devices.bob!).length === 1);
    expect(payloadsTo(devices.bob!)[0]).toMatchObject({
      title: expect.stringMatching(new RegExp(`^✗ Busted at Pick 2( · [A-Z]{2,3})? — ${board[1]!.player_name}$`)),
      body: '3 picks still pending, only 2 slots left in round one.',
      url: '/my-picks',
    });
    // Alice held neither: nothing for her.
    await new Promise((r) => setTimeout(r, 300));
    expect(pushesTo(devices.alice!)).toHaveLength(1);
  });

  it('tells the final result where you placed best; pushes waiting on a stopped sender go out from the next one, once each', async () => {
    const tvLate = service.device();
    await (await t.caller(alice)).push.subscribe({ ...tvLate.subscription, delay_seconds: 4 });
    t2.deps.push.start();
    const markedAt = Date.now();
    await completeRoundOne(t.orm().em.fork(), t.deps.draft, 'test');
    await until(() => pushesTo(devices.alice!).length === 2 && pushesTo(devices.bob!).length === 2);
    // The sender stops with the delayed devices' finals waiting; the other instance takes over.
    await t.deps.push.stop();
    expect(pushesTo(devices.aliceTv!)).toHaveLength(1);
    await until(() => t2.deps.push.isLeader, 15_000);
    await until(() => pushesTo(devices.aliceTv!).length === 2 && pushesTo(tvLate).length === 1, 15_000);
    expect(pushesTo(tvLate)[0]!.at - markedAt).toBeGreaterThanOrEqual(4000);

    const aliceFinal = { title: `Final: 1 of 1 hit · 1st of 2 · Winner in ${squad.name}`, body: 'Round one is complete: see the final standings.', tag: 'first-round-picks', url: `/groups/${squad.id}` };
    expect(payloadsTo(devices.alice!)[1]).toEqual(aliceFinal);
    expect(payloadsTo(devices.aliceTv!)[1]).toEqual(aliceFinal);
    expect(payloadsTo(tvLate)).toEqual([aliceFinal]);
    expect(payloadsTo(devices.bob!)[1]).toEqual({
      title: `Final · busted · had 0 hits · 2nd of 2 in ${squad.name}`,
      body: `Round one ended without ${board[2]!.player_name} and 2 more.`,
      tag: 'first-round-picks',
      url: `/groups/${squad.id}`,
    });
    // None twice: a moment later still one final per device, and nothing left waiting.
    await new Promise((r) => setTimeout(r, 1000));
    expect([pushesTo(devices.alice!).length, pushesTo(devices.aliceTv!).length, pushesTo(tvLate).length, pushesTo(devices.bob!).length]).toEqual([2, 2, 1, 2]);
    expect(await t.db.query(`select id from push_delivery`)).toEqual([]);
    expect(service.refused).toEqual([]);
  });
});
