import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeRoundOne, recordPick, startDraft, undoLast } from '../src/modules/draft/draft.service.js';
import { MAX_YIELD_MS } from '../src/events/live-fan-out.js';
import { createTestApp, kindOf, startPushService, type PushServiceStandIn, type TestApp, type TestUser } from './support/test-app.js';

async function until(check: () => boolean, ms = 5000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const pushesTo = (service: PushServiceStandIn, deviceId: string) => service.received.filter((p) => p.deviceId === deviceId);

describe('push notifications when your picks go', () => {
  let t: TestApp;
  let service: PushServiceStandIn;
  let fan: TestUser;
  let other: TestUser;
  let players: { id: number; player_name: string }[];

  beforeAll(async () => {
    t = await createTestApp({ startEvents: true });
    service = await startPushService();
    t.deps.push.start();
    await until(() => t.deps.push.isLeader);
    fan = await t.signUp('pushfan');
    other = await t.signUp('pushother');
    players = await t.db.query<{ id: number; player_name: string }>(`select id, player_name from player order by rank limit 4`);
    await (await t.caller(fan)).picks.save({ picks: [players[0]!.id, players[1]!.id] });
    await (await t.caller(other)).picks.save({ picks: [players[2]!.id] });
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
  });

  it("sends each of the player's devices the pick, decryptable with its keys, and nobody else anything", async () => {
    const phone = service.device();
    const laptop = service.device();
    const bystander = service.device();
    const fanApi = await t.caller(fan);
    await fanApi.push.subscribe({ ...phone.subscription });
    await fanApi.push.subscribe({ ...laptop.subscription });
    await (await t.caller(other)).push.subscribe({ ...bystander.subscription });
    expect(await fanApi.push.status({ endpoint: phone.subscription.endpoint })).toEqual({ subscribed: true, delay_seconds: 0 });

    await startDraft(t.orm().em.fork(), t.deps.draft, 'test');
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 1, players[0]!.id);
    await until(() => pushesTo(service, phone.id).length === 1 && pushesTo(service, laptop.id).length === 1);
    const [push] = pushesTo(service, phone.id);
    expect(push!.payload).toMatchObject({ title: expect.stringContaining(`✓ ${players[0]!.player_name} — Pick 1`), body: '1 hit · Alive', tag: 'first-round-picks', url: '/my-picks' });
    expect(push!.urgency).toBe('high');
    expect(Number(push!.ttl)).toBeGreaterThan(0);
    // Another player's pick: their device hears it, the fan's do not.
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 2, players[2]!.id);
    await until(() => pushesTo(service, bystander.id).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(pushesTo(service, phone.id)).toHaveLength(1);
    expect(service.refused).toEqual([]);
  });

  it('sends a delayed device its push after its delay, not before', async () => {
    const tv = service.device();
    const live = service.device();
    const fanApi = await t.caller(fan);
    await fanApi.push.subscribe({ ...tv.subscription, delay_seconds: 10 });
    await fanApi.push.subscribe({ ...live.subscription });
    await fanApi.push.setDelay({ endpoint: tv.subscription.endpoint, delay_seconds: 2 });
    const pickedAt = Date.now();
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 3, players[1]!.id);
    await until(() => pushesTo(service, live.id).length === 1);
    expect(pushesTo(service, tv.id)).toHaveLength(0);
    await until(() => pushesTo(service, tv.id).length === 1, 6000);
    expect(pushesTo(service, tv.id)[0]!.at - pickedAt).toBeGreaterThanOrEqual(2000);
    expect(pushesTo(service, live.id)[0]!.at - pickedAt).toBeLessThan(2000);
    expect(pushesTo(service, tv.id)[0]!.payload).toMatchObject({ body: '2 hits · Alive' });
  });

  it('lets a player touch their own subscriptions only', async () => {
    const phone = service.device();
    await (await t.caller(fan)).push.subscribe({ ...phone.subscription });
    const otherApi = await t.caller(other);
    expect(await otherApi.push.unsubscribe({ endpoint: phone.subscription.endpoint })).toEqual({ ok: false });
    expect(kindOf(await otherApi.push.setDelay({ endpoint: phone.subscription.endpoint, delay_seconds: 45 }).catch((e: unknown) => e))).toBe('NOT_FOUND');
    expect(await otherApi.push.status({ endpoint: phone.subscription.endpoint })).toEqual({ subscribed: false, delay_seconds: null });
    expect(await (await t.caller(fan)).push.status({ endpoint: phone.subscription.endpoint })).toEqual({ subscribed: true, delay_seconds: 0 });
    // Signed out: nothing at all.
    expect(kindOf(await (await t.caller()).push.status({ endpoint: phone.subscription.endpoint }).catch((e: unknown) => e))).toBe('UNAUTHORIZED');
  });

  it('answers bad input with a 4xx, never a 500', async () => {
    const device = service.device();
    const cases: [string, unknown][] = [
      ['a plain-http endpoint elsewhere', { ...device.subscription, endpoint: 'http://example.com/push/1' }],
      ['a delay past 600 s', { ...device.subscription, delay_seconds: 601 }],
      ['a negative delay', { ...device.subscription, delay_seconds: -1 }],
      ['no keys', { endpoint: device.subscription.endpoint }],
    ];
    for (const [why, body] of cases) {
      const response = await t.request('POST', '/trpc/push.subscribe', { user: fan, body });
      expect(response.statusCode, why).toBe(400);
    }
  });

  it('forgets a device its push service calls gone (410), and sends no correction for an undone pick', async () => {
    const gone = service.device();
    const kept = service.device();
    const fanApi = await t.caller(fan);
    await fanApi.push.subscribe({ ...gone.subscription });
    await fanApi.push.subscribe({ ...kept.subscription });
    service.answer(gone.id, 410);
    await undoLast(t.orm().em.fork(), 'test');
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 3, players[1]!.id);
    await until(() => pushesTo(service, kept.id).length === 1);
    await until(() => t.deps.push.counts.gone >= 1);
    expect(await fanApi.push.status({ endpoint: gone.subscription.endpoint })).toEqual({ subscribed: false, delay_seconds: null });
    expect(await fanApi.push.unsubscribe({ endpoint: kept.subscription.endpoint })).toEqual({ ok: true });
    expect(await fanApi.push.status({ endpoint: kept.subscription.endpoint })).toEqual({ subscribed: false, delay_seconds: null });
  });

  it('drops the waiting pushes of a pick undone: a delayed device never hears of it', async () => {
    const live = service.device();
    const delayed = service.device();
    const fanApi = await t.caller(fan);
    await fanApi.push.subscribe({ ...live.subscription });
    await fanApi.push.subscribe({ ...delayed.subscription, delay_seconds: 2 });
    await undoLast(t.orm().em.fork(), 'test');
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 3, players[1]!.id);
    await until(() => pushesTo(service, live.id).length === 1);
    await undoLast(t.orm().em.fork(), 'test');
    await new Promise((r) => setTimeout(r, 3000));
    expect(pushesTo(service, delayed.id)).toEqual([]);
    expect(await t.db.query(`select id from push_delivery`)).toEqual([]);
  });

  it("sends a pick's pushes once the open pages have it, and waits on those pages no longer than MAX_YIELD_MS", async () => {
    const device = service.device();
    await (await t.caller(fan)).push.subscribe({ ...device.subscription });
    // A change being written to the open pages (LiveStream marks each fan-out so): the pick's pushes wait.
    const fanOutDone = t.deps.liveFanOut.begin();
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 3, players[1]!.id);
    await new Promise((r) => setTimeout(r, 1000));
    expect(pushesTo(service, device.id)).toEqual([]);
    fanOutDone();
    await until(() => pushesTo(service, device.id).length === 1);

    // A fan-out that never ends (a stuck page) holds them back MAX_YIELD_MS at most.
    await undoLast(t.orm().em.fork(), 'test');
    const stuckSince = Date.now();
    const stuck = t.deps.liveFanOut.begin();
    try {
      await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 3, players[1]!.id);
      await until(() => pushesTo(service, device.id).length === 2, MAX_YIELD_MS + 5000);
      expect(pushesTo(service, device.id)[1]!.at - stuckSince).toBeGreaterThanOrEqual(MAX_YIELD_MS);
    } finally {
      stuck();
    }
    await undoLast(t.orm().em.fork(), 'test');
  });

  // Last: it ends round one.
  it('a sender taking over sends what was recorded while no instance was sending, in order, once each', async () => {
    const device = service.device();
    await (await t.caller(fan)).push.subscribe({ ...device.subscription });
    await t.deps.push.stop();
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 3, players[1]!.id);
    await completeRoundOne(t.orm().em.fork(), t.deps.draft, 'test');
    await new Promise((r) => setTimeout(r, 300));
    expect(pushesTo(service, device.id)).toEqual([]);

    const next = await createTestApp({ startEvents: true, sameDatabaseAs: t });
    try {
      next.deps.push.start();
      await until(() => pushesTo(service, device.id).length === 2, 10_000);
      const [pick, final] = pushesTo(service, device.id).map((p) => p.payload as { title: string });
      expect(pick!.title).toContain(`✓ ${players[1]!.player_name} — Pick 3`);
      expect(final!.title).toMatch(/^Final: /);
      await new Promise((r) => setTimeout(r, 1000));
      expect(pushesTo(service, device.id)).toHaveLength(2);
      expect(service.refused).toEqual([]);
    } finally {
      await next.close();
    }
  });
});
