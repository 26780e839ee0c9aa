import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { EventSource } from 'eventsource';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveMessage } from '@first-round/shared/schemas';
import type { AppRouter } from '../src/trpc/root.js';
import { startEmbeddedPostgres, withDatabase } from '../src/db/embedded-postgres.js';
import {
  connectEmbedded,
  copyClusterTemplate,
  makeDataDir,
  makeDataDirWithCluster,
  postmasterOf,
  removeDataDir,
  signUpOverHttp,
  startServer,
  until,
  type HttpUser,
  type ServerProcess,
} from './support/server-process.js';

/*
 * The database goes away under a running server: API calls answer 503 with a message a player can act on
 * (never a 500), /readyz says so while /healthz stays 200, and the server serves again by itself.
 */

const UNAVAILABLE = 'The game is temporarily unavailable. Please try again in a moment.';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

interface Observed {
  what: string;
  status: number;
  message?: string;
  /** The error's kind: `code` of a REST or /idp body, `error.data.kind` over tRPC. */
  code?: string;
}

/** One round of the calls a player's browser makes (as `user`): REST, tRPC, the identity provider, and the probes. */
async function probe(server: ServerProcess, user: HttpUser): Promise<{ api: Observed[]; ready: number; health: number }> {
  const call = async (what: string, url: string, init?: RequestInit): Promise<Observed> => {
    const res = await fetch(`${server.baseUrl}${url}`, init);
    const body = (await res.json().catch(() => ({}))) as { message?: string; code?: string; error?: { message?: string; data?: { kind?: string } } };
    return { what, status: res.status, message: body.message ?? body.error?.message, code: body.code ?? body.error?.data?.kind };
  };
  const json = { 'content-type': 'application/json' };
  const api = await Promise.all([
    call('rest my-picks', '/api/picks/my-picks', { headers: { authorization: user.authorization } }),
    call('rest save', '/api/picks/', { method: 'POST', headers: { ...json, authorization: user.authorization }, body: JSON.stringify({ picks: [1, 2, 3] }) }),
    call('trpc draft.status', '/trpc/draft.status'),
    call('idp sign-in', '/idp/sign-in', { method: 'POST', headers: json, body: JSON.stringify({ email: 'nobody@example.com' }) }),
  ]);
  const [ready, health] = await Promise.all([fetch(`${server.baseUrl}/readyz`), fetch(`${server.baseUrl}/healthz`)]);
  return { api, ready: ready.status, health: health.status };
}

/**
 * Probes until /readyz is 200 again (at most `ms`), checking every answer on the way: 503 with the
 * message or a normal answer, never a 500; /healthz always 200. Returns what was seen while down.
 */
async function probeUntilReady(server: ServerProcess, user: HttpUser, ms: number) {
  const start = Date.now();
  const unavailable = new Set<string>();
  let readyDown = 0;
  for (;;) {
    const { api, ready, health } = await probe(server, user);
    expect(health).toBe(200);
    for (const o of api) {
      if (o.status === 503) {
        expect(o.message, o.what).toBe(UNAVAILABLE);
        expect(o.code, o.what).toBe('UNAVAILABLE');
        unavailable.add(o.what);
      } else {
        expect(o.status, `${o.what}: ${o.message}`).toBeLessThan(500);
      }
    }
    if (ready === 503) readyDown++;
    else if (ready === 200) return { unavailable, readyDown, seconds: (Date.now() - start) / 1000 };
    else expect(ready).toBe(200);
    if (Date.now() - start > ms) throw new Error(`not ready again within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function liveChanges(baseUrl: string, token: string) {
  const received: LiveMessage[] = [];
  const client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: `${baseUrl}/trpc`, EventSource, connectionParams: async () => ({ token }) }),
        false: httpBatchLink({ url: `${baseUrl}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) }),
      }),
    ],
  });
  let opened!: () => void;
  const ready = new Promise<void>((r) => (opened = r));
  const sub = client.draft.changes.subscribe(undefined, { onStarted: () => opened(), onData: (e) => received.push(e.data) });
  return { received, ready, stop: () => sub.unsubscribe() };
}

const save = (server: ServerProcess, user: HttpUser, picks: number[]) =>
  fetch(`${server.baseUrl}/api/picks/`, {
    method: 'POST',
    headers: { authorization: user.authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ picks }),
  });
const myPicks = async (server: ServerProcess, user: HttpUser) =>
  ((await (await fetch(`${server.baseUrl}/api/picks/my-picks`, { headers: { authorization: user.authorization } })).json()) as { picks: number[] }).picks;

describe('a database that dies', () => {
  it('embedded: the postmaster killed outright is restarted by the server, which serves again within 30 s', async () => {
    const dataDir = makeDataDirWithCluster();
    cleanups.push(() => removeDataDir(dataDir));
    const server = await startServer({ dataDir });
    cleanups.push(() => server.kill());
    const db = await connectEmbedded(dataDir);
    const user = await signUpOverHttp(server.baseUrl, db, 'survivor');
    const operator = await signUpOverHttp(server.baseUrl, db, 'operator');
    const prober = await signUpOverHttp(server.baseUrl, db, 'prober');
    await db.end();
    expect((await save(server, user, [5, 6, 7])).status).toBe(200);
    const live = liveChanges(server.baseUrl, user.token);
    cleanups.push(() => live.stop());
    await live.ready;

    const before = postmasterOf(dataDir)!;
    process.kill(before.pid, 'SIGKILL');
    const seen = await probeUntilReady(server, prober, 30_000);
    expect([...seen.unavailable].sort()).toEqual(['idp sign-in', 'rest my-picks', 'rest save', 'trpc draft.status']);
    expect(seen.readyDown).toBeGreaterThan(0);
    expect(postmasterOf(dataDir)!.pid).not.toBe(before.pid);
    expect(server.child.exitCode).toBeNull();

    // Earlier data is intact, saving works, and the open live stream hears the next change.
    expect(await myPicks(server, user)).toEqual([5, 6, 7]);
    expect((await save(server, user, [8, 9])).status).toBe(200);
    expect(await myPicks(server, user)).toEqual([8, 9]);
    const started = await fetch(`${server.baseUrl}/api/draft/start`, { method: 'POST', headers: { authorization: operator.authorization } });
    expect(started.status).toBe(200);
    await until(() => live.received.some((c) => c.kind === 'start'), 15_000, 'the live stream hears the start');
  }, 90_000);

  it('DATABASE_URL: answers 503 while the database is down and reconnects when it is back', async () => {
    const dataDir = makeDataDir();
    cleanups.push(() => removeDataDir(dataDir));
    const clusterDir = path.join(dataDir, 'external');
    copyClusterTemplate(clusterDir);
    let cluster = await startEmbeddedPostgres(clusterDir, { durable: false });
    cleanups.push(() => cluster.stop());
    const port = Number(new URL(cluster.serverUrl).port);
    const url = withDatabase(cluster.serverUrl, 'first_round');
    const server = await startServer({ dataDir, env: { DATABASE_URL: url } });
    cleanups.push(() => server.kill());
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const user = await signUpOverHttp(server.baseUrl, db, 'patient');
    const prober = await signUpOverHttp(server.baseUrl, db, 'prober');
    await db.end();
    expect((await save(server, user, [5, 6, 7])).status).toBe(200);

    await cluster.stop();
    // Down for a while: 503s all along, nothing recovers by itself without the database.
    const down = Date.now();
    const seen = new Set<string>();
    while (Date.now() - down < 3000) {
      const { api, ready, health } = await probe(server, prober);
      expect(health).toBe(200);
      expect(ready).toBe(503);
      for (const o of api) {
        expect({ what: o.what, status: o.status, message: o.message, code: o.code }).toEqual({ what: o.what, status: 503, message: UNAVAILABLE, code: 'UNAVAILABLE' });
        seen.add(o.what);
      }
    }
    expect(seen.size).toBe(4);

    cluster = await startEmbeddedPostgres(clusterDir, { durable: false, port });
    await probeUntilReady(server, prober, 30_000);
    expect(await myPicks(server, user)).toEqual([5, 6, 7]);
    expect((await save(server, user, [8, 9])).status).toBe(200);
    expect(fs.existsSync(path.join(dataDir, 'pg'))).toBe(false); // it never started an embedded cluster of its own
  }, 90_000);
});
