/**
 * What one player may store as push devices: at most MAX_PUSH_DEVICES (the oldest replaced, never more even
 * when subscribes race), keys of the sizes Web Push uses, and never an endpoint another player holds (that
 * player keeps it).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PUSH_DEVICES } from '@first-round/shared/constants';
import { createTestApp, kindOf, startPushService, type PushServiceStandIn, type TestApp, type TestUser } from './support/test-app.js';

/** Devices one player may have (MAX_PUSH_DEVICES). */
const MAX = 10;
let t: TestApp;
let service: PushServiceStandIn;

beforeAll(async () => {
  t = await createTestApp();
  service = await startPushService();
});
afterAll(async () => {
  await t?.close();
  await service?.close();
});

const devicesOf = async (user: TestUser) =>
  (await t.db.query<{ endpoint: string }>(`select endpoint from push_subscription where participant_id = $1 order by id`, [user.id])).map((r) => r.endpoint);

describe('push devices per player', () => {
  it(`keeps the ${MAX} newest: the next device replaces the one subscribed longest ago`, async () => {
    const user = await t.signUp('manydevices');
    const api = await t.caller(user);
    const devices = Array.from({ length: MAX + 1 }, () => service.device());
    for (const device of devices.slice(0, MAX)) await api.push.subscribe({ ...device.subscription });
    // The first device subscribes again: it is the newest now, the second the oldest.
    await api.push.subscribe({ ...devices[0]!.subscription, delay_seconds: 30 });
    await api.push.subscribe({ ...devices[MAX]!.subscription });
    expect(await api.push.status({ endpoint: devices[1]!.subscription.endpoint })).toEqual({ subscribed: false, delay_seconds: null });
    expect(await api.push.status({ endpoint: devices[0]!.subscription.endpoint })).toEqual({ subscribed: true, delay_seconds: 30 });
    expect((await devicesOf(user)).sort()).toEqual([devices[0]!, ...devices.slice(2)].map((d) => d.subscription.endpoint).sort());
    expect(MAX_PUSH_DEVICES).toBe(MAX);
  });

  it(`never holds more than ${MAX} when subscribes race`, async () => {
    const user = await t.signUp('racingdevices');
    const api = await t.caller(user);
    const devices = Array.from({ length: 3 * MAX }, () => service.device());
    const results = await Promise.allSettled(devices.map((device) => api.push.subscribe({ ...device.subscription })));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await devicesOf(user)).toHaveLength(MAX);
  });

  it("refuses an endpoint another player holds (CONFLICT), and that player keeps it as it was", async () => {
    const owner = await t.signUp('endpointowner');
    const thief = await t.signUp('endpointthief');
    const device = service.device();
    await (await t.caller(owner)).push.subscribe({ ...device.subscription, delay_seconds: 20 });
    const forged = service.device().subscription.keys;
    const response = await t.request('POST', '/trpc/push.subscribe', { user: thief, body: { endpoint: device.subscription.endpoint, keys: forged } });
    expect(response.statusCode).toBe(409);
    expect(response.body).toContain('another player');
    expect(kindOf(await (await t.caller(thief)).push.subscribe({ endpoint: device.subscription.endpoint, keys: forged }).catch((e: unknown) => e))).toBe('CONFLICT');
    expect(await (await t.caller(owner)).push.status({ endpoint: device.subscription.endpoint })).toEqual({ subscribed: true, delay_seconds: 20 });
    expect(await t.db.query(`select participant_id, p256dh, auth from push_subscription where endpoint = $1`, [device.subscription.endpoint])).toEqual([
      { participant_id: owner.id, p256dh: device.subscription.keys.p256dh, auth: device.subscription.keys.auth },
    ]);
    // Racing for a new endpoint: one player gets it, the other a CONFLICT.
    const contested = service.device();
    const both = await Promise.allSettled([owner, thief].map(async (user) => (await t.caller(user)).push.subscribe({ ...contested.subscription })));
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(both.filter((r) => r.status === 'rejected').map((r) => kindOf((r as PromiseRejectedResult).reason))).toEqual(['CONFLICT']);
  });

  it('refuses keys that are not a P-256 public key and a 16-byte secret, with a 4xx', async () => {
    const user = await t.signUp('badkeys');
    const device = service.device();
    const { p256dh, auth } = device.subscription.keys;
    const point = Buffer.from(p256dh, 'base64url');
    const offCurve = Buffer.from(point);
    offCurve[64]! ^= 1;
    const cases: [string, { p256dh: string; auth: string }][] = [
      ['a 64-byte key', { p256dh: point.subarray(1).toString('base64url'), auth }],
      ['a 66-byte key', { p256dh: Buffer.concat([point, Buffer.from([0])]).toString('base64url'), auth }],
      ['a compressed point', { p256dh: Buffer.concat([Buffer.from([2]), point.subarray(1, 33)]).toString('base64url'), auth }],
      ['a point off the curve', { p256dh: offCurve.toString('base64url'), auth }],
      ['a key with characters outside base64url', { p256dh: `${p256dh.slice(0, -2)}$!`, auth }],
      ['a 15-byte secret', { p256dh, auth: crypto.randomBytes(15).toString('base64url') }],
      ['a 17-byte secret', { p256dh, auth: crypto.randomBytes(17).toString('base64url') }],
      ['a huge key', { p256dh: 'B'.repeat(100_000), auth }],
      ['a huge secret', { p256dh, auth: 'A'.repeat(100_000) }],
    ];
    for (const [why, keys] of cases) {
      const response = await t.request('POST', '/trpc/push.subscribe', { user, body: { endpoint: device.subscription.endpoint, keys } });
      expect(response.statusCode, why).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, why).toBeLessThan(500);
    }
    const huge = await t.request('POST', '/trpc/push.subscribe', { user, body: { endpoint: `https://fcm.googleapis.com/fcm/send/${'x'.repeat(5000)}`, keys: { p256dh, auth } } });
    expect(huge.statusCode).toBe(400);
    expect(await devicesOf(user)).toEqual([]);
    // The same device with its own keys is fine.
    expect(await (await t.caller(user)).push.subscribe({ ...device.subscription })).toEqual({ ok: true });
  });
});
