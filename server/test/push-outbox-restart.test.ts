/**
 * The push outbox (push_delivery) outlives the process sending it: the sending server is stopped (SIGTERM, a
 * real process) in the middle of a pick's pushes, some taken by the push service, some in flight, most still
 * waiting; another server started on the same database sends the rest. Every device gets the pick's push
 * exactly once, counted by the push service stand-in (a push counts once answered 2xx).
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PUSH_DEVICES } from '@first-round/shared/constants';
import { createTestDb, startPushService, type PushServiceStandIn, type StandInDevice } from './support/test-app.js';
import { makeDataDir, removeDataDir, signUpOverHttp, startServer, until, type HttpUser, type ServerProcess } from './support/server-process.js';

const PLAYERS = 8;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

async function start(databaseUrl: string): Promise<ServerProcess> {
  const dataDir = makeDataDir('first-round-outbox-');
  cleanups.push(() => removeDataDir(dataDir));
  const server = await startServer({
    dataDir,
    env: {
      DATABASE_URL: databaseUrl,
      // Pushes to the stand-in on this machine (plain http on loopback): refused in production.
      NODE_ENV: 'test',
      PUSH_ALLOW_LOOPBACK_HTTP: 'true',
      READY_DRAIN_SECONDS: '0',
      REMINDERS: 'false',
    },
  });
  cleanups.push(() => server.kill());
  await server.waitForLine(/First Round is running/, 60_000);
  return server;
}

const post = (server: ServerProcess, user: HttpUser, url: string, body: unknown) =>
  fetch(`${server.baseUrl}${url}`, { method: 'POST', headers: { authorization: user.authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the push outbox across a restart of the sending process', () => {
  it('a sender stopped mid-batch leaves the rest to the next one: every device gets the push exactly once', async () => {
    const testDb = await createTestDb();
    cleanups.push(() => testDb.close());
    const service: PushServiceStandIn = await startPushService();
    cleanups.push(() => service.close());
    const db = new pg.Client({ connectionString: testDb.url });
    await db.connect();
    cleanups.push(() => db.end());

    const first = await start(testDb.url);
    const operator = await signUpOverHttp(first.baseUrl, db, 'operator');
    const [taken] = (await db.query<{ id: number; player_name: string }>(`select id, player_name from player order by rank limit 1`)).rows;
    const devices: StandInDevice[] = [];
    for (let i = 0; i < PLAYERS; i++) {
      const fan = await signUpOverHttp(first.baseUrl, db, `outboxfan${i}`);
      expect((await post(first, fan, '/api/picks/', { picks: [taken!.id] })).status).toBe(200);
      for (let d = 0; d < MAX_PUSH_DEVICES; d++) {
        const device = service.device();
        expect((await post(first, fan, '/trpc/push.subscribe', device.subscription)).status).toBe(200);
        devices.push(device);
      }
    }

    // A few pushes are taken, then the push service holds the rest unanswered: in flight for the sender.
    service.hold(10);
    expect((await fetch(`${first.baseUrl}/api/draft/start`, { method: 'POST', headers: { authorization: operator.authorization } })).status).toBe(200);
    expect((await post(first, operator, '/api/draft/picks', { slot: 1, player_id: taken!.id })).status).toBe(200);
    await until(() => service.received.length === 10 && service.held > 0, 30_000, 'ten pushes taken and more in flight');
    const waiting = Number((await db.query<{ n: string }>(`select count(*) as n from push_delivery`)).rows[0]!.n);
    expect(waiting).toBeGreaterThan(service.held);

    // Stopped mid-batch: the pushes in flight finish (answered now) and leave the table; the rest wait there.
    first.child.kill('SIGTERM');
    await first.waitForLine(/push sender stopping/, 30_000);
    service.release();
    expect((await first.exited).code).toBe(0);
    const left = Number((await db.query<{ n: string }>(`select count(*) as n from push_delivery`)).rows[0]!.n);
    expect(left).toBeGreaterThan(0);
    expect(service.received.length).toBeLessThan(devices.length);

    await start(testDb.url);
    await until(() => service.received.length >= devices.length, 60_000, 'every device reached');
    await until(async () => Number((await db.query<{ n: string }>(`select count(*) as n from push_delivery`)).rows[0]!.n) === 0, 30_000, 'the outbox empty');
    const perDevice = new Map(devices.map((d) => [d.id, 0]));
    for (const push of service.received) perDevice.set(push.deviceId, (perDevice.get(push.deviceId) ?? 0) + 1);
    expect([...perDevice.values()].filter((n) => n !== 1)).toEqual([]);
    expect(service.received).toHaveLength(devices.length);
    expect(service.received.every((p) => (p.payload as { title: string }).title.startsWith(`✓ ${taken!.player_name} — Pick 1`))).toBe(true);
    expect(service.refused).toEqual([]);
  }, 240_000);
});
