/**
 * The server POSTs to whatever address a device gives as its push endpoint, so an endpoint is a way to make
 * the server connect somewhere. These tests attack that as a player would: endpoints naming loopback,
 * private, link-local, CGNAT and cloud-metadata addresses (every numeric spelling of them), refused at
 * subscribe; and rows already stored (as if before the checks existed) that reach a loopback listener by an
 * address literal or by a name whose DNS answer is private: the sender makes no connection to any of them,
 * while an honest device still gets its push. And the settings: the push services' hosts, and the plain-http
 * stand-in's exception refused in production.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { recordPick, startDraft } from '../src/modules/draft/draft.service.js';
import { isPublicAddress, type PushLookup } from '../src/modules/push/endpoint-policy.js';
import { createTestApp, startPushService, type PushServiceStandIn, type TestApp } from './support/test-app.js';

async function until(check: () => boolean | Promise<boolean>, ms = 20_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A TCP listener on loopback that counts the connections made to it (and closes each at once). */
async function connectionCounter() {
  const counter = { port: 0, connections: 0, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  const server = net.createServer((socket) => {
    counter.connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  counter.port = (server.address() as AddressInfo).port;
  return counter;
}

describe('push endpoints refused at subscribe (settings as in production)', () => {
  let t: TestApp;
  let service: PushServiceStandIn;
  let listener: Awaited<ReturnType<typeof connectionCounter>>;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUSH_ALLOW_LOOPBACK_HTTP: 'false' } });
    service = await startPushService();
    listener = await connectionCounter();
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
    await listener?.close();
  });

  it('refuses every loopback, private, link-local, CGNAT and metadata address, however it is spelled, with a 4xx and a clear message', async () => {
    const user = await t.signUp('ssrfsubscriber');
    const keys = service.device().subscription.keys;
    const port = listener.port;
    const endpoints = [
      `http://127.0.0.1:${port}/ssrf-a`,
      `http://localhost:${port}/ssrf-a`,
      `http://[::1]:${port}/ssrf-a`,
      'http://fcm.googleapis.com/fcm/send/plain-http',
      `https://127.0.0.1:${port}/x`,
      `https://0x7f000001:${port}/x`,
      `https://2130706433:${port}/x`,
      `https://127.1:${port}/x`,
      `https://0177.0.0.1:${port}/x`,
      `https://[::ffff:127.0.0.1]:${port}/x`,
      `https://[::1]:${port}/x`,
      `https://localhost:${port}/x`,
      'https://169.254.169.254/latest/meta-data/',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://10.0.0.1/x',
      'https://192.168.0.1/x',
      'https://172.16.5.4/x',
      'https://100.64.0.1/x',
      'https://[fd00::1]/x',
      'https://[fe80::1]/x',
      'https://internal.corp/x',
      'https://127.0.0.1:5432/x',
      // Look-alikes of the push services browsers use.
      'https://fcm.googleapis.com.evil.test/fcm/send/x',
      'https://evilpush.apple.com.test/x',
      'https://notify.windows.com.evil.test/w/?token=x',
      'https://user:secret@fcm.googleapis.com/fcm/send/x',
    ];
    for (const endpoint of endpoints) {
      const response = await t.request('POST', '/trpc/push.subscribe', { user, body: { endpoint, keys } });
      expect(response.statusCode, endpoint).toBe(400);
      expect(response.body, endpoint).toContain('push service');
    }
    expect(await t.db.query(`select endpoint from push_subscription`)).toEqual([]);
    expect(listener.connections).toBe(0);
  });

  it("accepts the push services' own addresses, as browsers give them", async () => {
    const user = await t.signUp('ssrfhonest');
    const keys = service.device().subscription.keys;
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/dXJsOnRva2VuOmZvcg',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk',
      'https://web.push.apple.com/QGuWnh9yCZrbZr3L9YpRJd',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB',
    ]) {
      const response = await t.request('POST', '/trpc/push.subscribe', { user, body: { endpoint, keys } });
      expect(response.statusCode, endpoint).toBe(200);
    }
  });
});

describe('the sender checks every address when it connects', () => {
  let t: TestApp;
  let service: PushServiceStandIn;
  let listener: Awaited<ReturnType<typeof connectionCounter>>;
  const asked: string[] = [];
  /** The DNS answers an attacker controls: public-looking names whose addresses are not public. */
  const answers: Record<string, string[]> = {
    'push.attacker.test': ['127.0.0.1'],
    'metadata.attacker.test': ['169.254.169.254'],
    'corp.attacker.test': ['10.0.0.1'],
    'cgnat.attacker.test': ['100.64.0.1'],
    'mapped.attacker.test': ['::ffff:127.0.0.1'],
    'unique-local.attacker.test': ['fd12:3456::1'],
    'v6-loopback.attacker.test': ['::1'],
    // One public address beside a loopback one: refused as a whole (the connection could take either).
    'mixed.attacker.test': ['93.184.215.14', '127.0.0.1'],
  };
  const lookup: PushLookup = async (hostname) => {
    asked.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: net.isIP(address) }));
  };

  beforeAll(async () => {
    listener = await connectionCounter();
    // `*`: any public https host, so only the address check stands between these rows and the listener.
    t = await createTestApp({ startEvents: true, env: { PUSH_SERVICE_HOSTS: '*' }, deps: { pushLookup: lookup } });
    service = await startPushService();
    t.deps.push.start();
    await until(() => t.deps.push.isLeader);
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
    await listener?.close();
  });

  it('connects to none of the rows stored before the checks, and the honest device still gets its push', async () => {
    const attacker = await t.signUp('ssrfattacker');
    const honest = await t.signUp('ssrfvictim');
    const [player] = await t.db.query<{ id: number }>(`select id from player order by rank limit 1`);
    for (const user of [attacker, honest]) await (await t.caller(user)).picks.save({ picks: [player!.id] });
    const keys = service.device().subscription.keys;
    const port = listener.port;
    const stored = [
      `https://127.1:${port}/literal`,
      `https://0x7f000001:${port}/hex`,
      `https://2130706433:${port}/decimal`,
      `https://[::ffff:127.0.0.1]:${port}/mapped`,
      `https://[::1]:${port}/v6`,
      ...Object.keys(answers).map((host) => `https://${host}:${port}/by-name`),
      `http://10.0.0.1:${port}/plain-http`,
    ];
    await t.db.query(
      `insert into push_subscription (participant_id, endpoint, p256dh, auth) select $1, e, $3, $4 from unnest($2::text[]) as e`,
      [attacker.id, stored, keys.p256dh, keys.auth],
    );
    const device = service.device();
    await (await t.caller(honest)).push.subscribe({ ...device.subscription });

    await startDraft(t.orm().em.fork(), t.deps.draft, 'test');
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 1, player!.id);
    await until(() => service.received.some((p) => p.deviceId === device.id));
    // Every stored row was looked at: refused, not tried again, and never connected to.
    await until(() => t.deps.push.counts.refused >= stored.length);
    expect(t.deps.push.counts.refused).toBe(stored.length);
    expect(listener.connections).toBe(0);
    expect([...new Set(asked)].sort()).toEqual(Object.keys(answers).sort());
    // Their rows leave the queue's table (in the next batch delete).
    await until(async () => (await t.db.query(`select id from push_delivery`)).length === 0);
    expect(service.refused).toEqual([]);
  });
});

describe('the plain-http stand-in setting', () => {
  const base = { NODE_ENV: 'production', PUBLIC_URL: 'https://firstround.example.com' };

  it('is refused in production', () => {
    expect(() => loadConfig({ ...base, PUSH_ALLOW_LOOPBACK_HTTP: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, PUSH_ALLOW_LOOPBACK_HTTP: 'true' })).toThrow(/PUSH_ALLOW_LOOPBACK_HTTP/);
    expect(loadConfig({ ...base, PUSH_ALLOW_LOOPBACK_HTTP: 'false' }).PUSH_ALLOW_LOOPBACK_HTTP).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', PUSH_ALLOW_LOOPBACK_HTTP: 'true' }).PUSH_ALLOW_LOOPBACK_HTTP).toBe(true);
  });

  it('push service hosts: the browsers’ by default, names or *. wildcards, * for any public host', () => {
    expect(loadConfig(base).PUSH_SERVICE_HOSTS).toEqual(['fcm.googleapis.com', 'updates.push.services.mozilla.com', '*.push.apple.com', '*.notify.windows.com']);
    expect(loadConfig({ ...base, PUSH_SERVICE_HOSTS: 'Push.Example.com, *.push.example.net' }).PUSH_SERVICE_HOSTS).toEqual(['push.example.com', '*.push.example.net']);
    expect(loadConfig({ ...base, PUSH_SERVICE_HOSTS: '*' }).PUSH_SERVICE_HOSTS).toEqual(['*']);
    for (const bad of ['https://fcm.googleapis.com', 'push.*.com', '*.', '10.0.0.1', 'fcm.googleapis.com:443', ' , ']) {
      expect(() => loadConfig({ ...base, PUSH_SERVICE_HOSTS: bad }), bad).toThrow(ConfigError);
    }
  });
});

describe('which addresses are public', () => {
  it('refuses every special range, IPv6 forms that carry a private IPv4 address included', () => {
    const notPublic = [
      '0.0.0.0', '127.0.0.1', '127.255.0.9', '10.0.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1',
      '100.127.255.254', '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1', '192.0.2.1', '198.18.0.1', '192.0.0.170',
      '::', '::1', '::ffff:127.0.0.1', '::ffff:8.8.8.8', '::127.0.0.1', '::10.0.0.1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0',
      'fec0::1', 'ff02::1', '2002:7f00:1::1', '2002:0a00:0001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:db8::1',
      '64:ff9b::7f00:1', '64:ff9b::a00:1', '64:ff9b:1::808:808', '100::1', 'not an address', '',
    ];
    for (const address of notPublic) expect(isPublicAddress(address), address).toBe(false);
    for (const address of ['8.8.8.8', '142.250.74.10', '93.184.215.14', '2607:f8b0:4004:c07::5f', '2a03:2880:f10c:83:face:b00c::25de', '64:ff9b::808:808']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});
