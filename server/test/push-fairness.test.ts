/**
 * One host cannot hold up everyone else's pushes: an attacker's 2,000 endpoints at a tarpit (a server that
 * accepts each connection and request and never answers) take their share of the sender's requests, and an
 * honest player's device at another push service gets its push while the tarpit still holds its share open.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPick, startDraft } from '../src/modules/draft/draft.service.js';
import { createTestApp, startPushService, type PushServiceStandIn, type TestApp } from './support/test-app.js';

async function until(check: () => boolean, ms: number) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Accepts connections and reads what comes, answers nothing: each connection stays open until closed here. */
async function startTarpit() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    tarpit.most = Math.max(tarpit.most, sockets.size);
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const tarpit = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Connections the tarpit holds open now. */
    get open() {
      return sockets.size;
    },
    /** The most it held open at once. */
    most: 0,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return tarpit;
}

describe("a push service that never answers holds only its share of the sender's requests", () => {
  let t: TestApp;
  let service: PushServiceStandIn;
  let tarpit: Awaited<ReturnType<typeof startTarpit>>;

  beforeAll(async () => {
    tarpit = await startTarpit();
    t = await createTestApp({ startEvents: true });
    service = await startPushService();
    t.deps.push.start();
    await until(() => t.deps.push.isLeader, 10_000);
  });
  afterAll(async () => {
    await tarpit?.close();
    await t?.close();
    await service?.close();
  });

  it("sends an honest device its push while 2,000 of an attacker's endpoints hang", { timeout: 90_000 }, async () => {
    const attacker = await t.signUp('tarpitowner');
    const honest = await t.signUp('tarpitvictim');
    const [player] = await t.db.query<{ id: number }>(`select id from player order by rank limit 1`);
    for (const user of [attacker, honest]) await (await t.caller(user)).picks.save({ picks: [player!.id] });
    // Stored directly (as if subscribed before devices were capped per player), before the honest device.
    const keys = service.device().subscription.keys;
    await t.db.query(
      `insert into push_subscription (participant_id, endpoint, p256dh, auth)
       select $1, $2 || '/hang/' || n, $3, $4 from generate_series(1, 2000) as n`,
      [attacker.id, tarpit.origin, keys.p256dh, keys.auth],
    );
    const device = service.device();
    await (await t.caller(honest)).push.subscribe({ ...device.subscription });
    let openAtArrival = -1;
    service.onPush = (push) => {
      if (push.deviceId === device.id) openAtArrival = tarpit.open;
    };

    await startDraft(t.orm().em.fork(), t.deps.draft, 'test');
    const pickedAt = Date.now();
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 1, player!.id);
    // The tarpit's 2,000 are queued ahead of the honest push (written with it, in id order, all due at once).
    await until(() => service.received.some((p) => p.deviceId === device.id), 30_000);
    const delay = service.received.find((p) => p.deviceId === device.id)!.at - pickedAt;
    expect(openAtArrival, `the honest push came ${delay} ms after the pick`).toBeGreaterThan(0);
    expect(t.deps.push.pending).toBeGreaterThan(1000);
    // The tarpit gets its share of the sender's requests, never more.
    await until(() => tarpit.open === t.deps.push.perOrigin, 30_000);
    expect(tarpit.most).toBe(t.deps.push.perOrigin);
  });
});
