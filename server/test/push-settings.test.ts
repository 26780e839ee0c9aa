/**
 * Each kind of push beside "Tell me when my picks go" has its own setting, the player's (every device of
 * theirs): an entry busted, the final result, the reminder an hour before the lock. All on until switched
 * off. A round one of 4 slots; each player's device is read as a device reads it (the stand-in decrypts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeRoundOne, recordPick } from '../src/modules/draft/draft.service.js';
import { runReminders } from '../src/modules/reminders/reminders.service.js';
import { createTestApp, kindOf, startPushService, type PushServiceStandIn, type StandInDevice, type TestApp, type TestUser } from './support/test-app.js';
import { operatorStart, savePicks } from './game/helpers.js';
import { until } from './support/game-process.js';

/** A bound on waiting for a condition, so a hang fails instead of running forever (not a speed check). */
const WAIT_MS = 60_000;
/** A bound on a hang for a test of several such waits (vitest's 30 s cut one short with both cores busy). */
const TEST_MS = 4 * WAIT_MS;


let t: TestApp;
let service: PushServiceStandIn;
let board: { id: number; player_name: string }[];
/** No picks, e-mail reminders off, the push reminder on. */
let erin: TestUser;
/** No picks, e-mail reminders on, the push reminder off. */
let frank: TestUser;
/** Busted at pick 2 (3 waiting, 2 slots left); busted news off, the final result on. */
let gina: TestUser;
/** Busted alike; busted news on, the final result off. */
let hank: TestUser;
const devices: Record<string, StandInDevice> = {};
const pushesTo = (device: StandInDevice) => service.received.filter((p) => p.deviceId === device.id);
const titlesTo = (device: StandInDevice) => pushesTo(device).map((p) => (p.payload as { title: string }).title);
const mailsTo = (user: TestUser) => t.db.query<{ subject: string }>(`select subject from idp_outbox where lower(to_address) = lower($1) and code is null`, [user.email]);

beforeAll(async () => {
  t = await createTestApp({ startEvents: true, env: { ROUND_ONE_PICKS: '4' } });
  service = await startPushService();
  t.deps.push.start();
  await until(() => t.deps.push.isLeader, WAIT_MS);
  board = await t.db.query<{ id: number; player_name: string }>(`select id, player_name from player order by rank limit 6`);
  [erin, frank, gina, hank] = [await t.signUp('kinderin'), await t.signUp('kindfrank'), await t.signUp('kindgina'), await t.signUp('kindhank')];
  for (const user of [gina, hank]) await savePicks(t, user, [board[2]!.id, board[3]!.id, board[4]!.id]);
  for (const [name, user] of [['erin', erin], ['frank', frank], ['gina', gina], ['hank', hank]] as const) {
    devices[name] = service.device();
    await (await t.caller(user)).push.subscribe({ ...devices[name].subscription });
  }
});
afterAll(async () => {
  await t?.close();
  await service?.close();
});

describe('push notifications: a setting for each kind', () => {
  it('are all on until the player switches one off, theirs only, signed in', { timeout: TEST_MS }, async () => {
    const erinApi = await t.caller(erin);
    expect(await erinApi.push.preferences()).toEqual({ busted: true, final: true, reminder: true });
    expect(kindOf(await (await t.caller()).push.preferences().catch((e: unknown) => e))).toBe('UNAUTHORIZED');
    expect(await erinApi.users.setReminders({ reminders: false })).toEqual({ reminders: false });
    expect(await (await t.caller(frank)).push.setPreferences({ busted: true, final: true, reminder: false })).toEqual({ busted: true, final: true, reminder: false });
    expect(await (await t.caller(gina)).push.setPreferences({ busted: false, final: true, reminder: true })).toEqual({ busted: false, final: true, reminder: true });
    expect(await (await t.caller(hank)).push.setPreferences({ busted: true, final: false, reminder: true })).toEqual({ busted: true, final: false, reminder: true });
    expect(await (await t.caller(frank)).push.preferences()).toEqual({ busted: true, final: true, reminder: false });
    // Another player's stay as they were.
    expect(await erinApi.push.preferences()).toEqual({ busted: true, final: true, reminder: true });
    const bad = await t.request('POST', '/trpc/push.setPreferences', { user: erin, body: { busted: 'yes', final: true, reminder: true } });
    expect(bad.statusCode).toBe(400);
  });

  it('the reminder by push goes with its own setting: without the e-mail, and not when switched off', { timeout: TEST_MS }, async () => {
    const when = new Date(t.deps.draft.deadline.getTime() - 30 * 60 * 1000);
    t.clock.set(when);
    await runReminders(t.deps);
    await until(() => pushesTo(devices.erin!).length === 1, WAIT_MS);
    expect(titlesTo(devices.erin!)).toEqual(['Your First Round picks are not in: 1 hour left']);
    expect(await mailsTo(erin)).toEqual([]);
    expect((await mailsTo(frank)).map((m) => m.subject)).toEqual(['Your First Round picks are not in: 1 hour left']);
    await runReminders(t.deps);
    await new Promise((r) => setTimeout(r, 300));
    expect(pushesTo(devices.erin!)).toHaveLength(1);
    expect(pushesTo(devices.frank!)).toEqual([]);
  });

  it('busted news and the final result each only to the players who keep them on', { timeout: TEST_MS }, async () => {
    t.clock.set(new Date());
    await operatorStart(t);
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 1, board[0]!.id);
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 2, board[1]!.id);
    await until(() => pushesTo(devices.hank!).length === 1, WAIT_MS);
    expect(titlesTo(devices.hank!)[0]).toMatch(/^✗ Busted at Pick 2( · [A-Z]{2,3})? — /);
    await completeRoundOne(t.orm().em.fork(), t.deps.draft, 'test');
    await until(() => pushesTo(devices.gina!).length === 1, WAIT_MS);
    expect(titlesTo(devices.gina!)).toEqual([expect.stringMatching(/^Final · busted · had 0 hits · \d+(st|nd|rd|th) of \d+ on the global leaderboard$/)]);
    await until(async () => (await t.db.query(`select id from push_delivery`)).length === 0, WAIT_MS);
    await new Promise((r) => setTimeout(r, 300));
    expect(pushesTo(devices.hank!)).toHaveLength(1);
    expect(pushesTo(devices.gina!)).toHaveLength(1);
    expect(service.refused).toEqual([]);
  });
});
