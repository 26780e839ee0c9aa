import net from 'node:net';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectEmbedded,
  makeDataDirWithCluster,
  postgresProcessesIn,
  removeDataDir,
  signUpOverHttp,
  startServer,
  until,
  type HttpUser,
  type ServerProcess,
} from './support/server-process.js';

/*
 * `npm start` stopped by a supervisor (SIGTERM to the node process) or by Ctrl-C in a terminal (SIGINT to
 * the whole process group): saves that are in flight at that moment must all finish and be kept.
 */

const SAVES = 20;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

/** True once nothing accepts connections on the port any more. */
const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

async function shutdownWithSavesInFlight(signal: (server: ServerProcess) => void) {
  const dataDir = makeDataDirWithCluster();
  cleanups.push(() => removeDataDir(dataDir));
  // Request lines are logged at debug (not at info, where they would cost as much as a hot read).
  const server = await startServer({ dataDir, env: { LOG_LEVEL: 'debug' } });
  cleanups.push(() => server.kill());
  const db = await connectEmbedded(dataDir);
  cleanups.push(() => db.end());

  const users: HttpUser[] = [];
  for (let i = 0; i < SAVES; i++) {
    const user = await signUpOverHttp(server.baseUrl, db, `saver${i}`);
    // The first signed-in call creates the player's participant row.
    expect((await fetch(`${server.baseUrl}/api/picks/my-picks`, { headers: { authorization: user.authorization } })).status).toBe(200);
    users.push(user);
  }
  const players = (await db.query<{ id: number }>(`select id from player order by rank limit ${SAVES + 1}`)).rows.map((r) => r.id);
  const picksOf = (i: number) => [players[i]!, players[i + 1]!].sort((a, b) => a - b);

  // Every save waits inside its transaction for its participant row, which this connection holds.
  const lock: pg.Client = await connectEmbedded(dataDir);
  cleanups.push(() => lock.end());
  await lock.query('begin');
  await lock.query('select id from participant for update');

  const saves = users.map((user, i) =>
    fetch(`${server.baseUrl}/api/picks/`, {
      method: 'POST',
      headers: { authorization: user.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ picks: picksOf(i) }),
    }).then(
      async (res) => ({ status: res.status, body: await res.text() }),
      (error: Error) => ({ status: 0, body: String(error.cause ?? error) }),
    ),
  );
  // All received by the server, and the first ones blocked in the database.
  const received = () => server.lines.filter((l) => l.includes('"incoming request"') && l.includes('"url":"/api/picks/"')).length;
  await until(() => received() === SAVES, 20_000, 'all saves received');
  await until(
    async () => Number((await db.query(`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = 'first_round'`)).rows[0].n) > 0,
    20_000,
    'saves waiting for the lock',
  );

  signal(server);
  await server.waitForLine(/received: finishing requests and shutting down/, 10_000);
  // It stops accepting new connections while the saves are still waiting.
  await until(() => refusesConnections(server.port), 5_000, 'listener closed');
  // (Before the fix PostgreSQL was already gone here, this connection with it.)
  await lock.query('commit').catch(() => {});

  const results = await Promise.all(saves);
  expect(results.filter((r) => r.status !== 200)).toEqual([]);
  expect(await server.exited).toEqual({ code: 0, signal: null });
  expect(postgresProcessesIn(dataDir)).toEqual([]);

  // Started again on the same data directory: every save is there.
  const again = await startServer({ dataDir });
  cleanups.push(() => again.kill());
  const db2 = await connectEmbedded(dataDir);
  cleanups.push(() => db2.end());
  const stored = await db2.query<{ email: string; picks: number[] }>(
    `select lower(pt.email) as email, array_agg(p.player_id order by p.player_id) as picks
       from pick p join participant pt on pt.id = p.participant_id where p.group_id = 1 group by pt.email`,
  );
  const byEmail = new Map(stored.rows.map((r) => [r.email, r.picks]));
  users.forEach((user, i) => expect(byEmail.get(user.email), user.email).toEqual(picksOf(i)));
  process.kill(again.child.pid!, 'SIGTERM');
  expect(await again.exited).toEqual({ code: 0, signal: null });
  expect(postgresProcessesIn(dataDir)).toEqual([]);
}

/**
 * The drain, short here (DRAIN_SECONDS; 10 s by default) so the test does not wait out the default: a request
 * that cannot finish (its row stays locked) is cut off once it has passed, and not before: exit 1, no postgres left.
 */
const DRAIN_SECONDS = 2;
async function shutdownWithStuckRequest() {
  const dataDir = makeDataDirWithCluster();
  cleanups.push(() => removeDataDir(dataDir));
  const server = await startServer({ dataDir, env: { DRAIN_SECONDS: String(DRAIN_SECONDS) } });
  cleanups.push(() => server.kill());
  const db = await connectEmbedded(dataDir);
  cleanups.push(() => db.end());
  const user = await signUpOverHttp(server.baseUrl, db, 'stuck');
  expect((await fetch(`${server.baseUrl}/api/picks/my-picks`, { headers: { authorization: user.authorization } })).status).toBe(200);
  await db.query('begin');
  await db.query('select id from participant for update');
  const save = fetch(`${server.baseUrl}/api/picks/`, {
    method: 'POST',
    headers: { authorization: user.authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ picks: [1] }),
  }).then(
    (res) => res.status,
    () => 'cut off',
  );
  await until(
    async () => Number((await db.query(`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = 'first_round'`)).rows[0].n) > 0,
    20_000,
    'the save waiting for the lock',
  );
  const signalled = Date.now();
  process.kill(server.child.pid!, 'SIGTERM');
  expect(await server.exited).toEqual({ code: 1, signal: null });
  const seconds = (Date.now() - signalled) / 1000;
  expect(seconds).toBeGreaterThanOrEqual(DRAIN_SECONDS);
  // The drain, as long again at most for the pool (5 s at most), PostgreSQL's fast shutdown.
  expect(seconds).toBeLessThan(DRAIN_SECONDS + 15);
  expect(await save).toBe('cut off');
  expect(server.lines).toContain(`Requests still running after ${DRAIN_SECONDS} s were cut off`);
  expect(postgresProcessesIn(dataDir)).toEqual([]);
}

describe('graceful shutdown of npm start', () => {
  it('SIGTERM to the node process: in-flight saves finish, exit 0, no postgres left', async () => {
    await shutdownWithSavesInFlight((server) => process.kill(server.child.pid!, 'SIGTERM'));
  }, 90_000);

  it('Ctrl-C (SIGINT to the whole process group): in-flight saves finish, exit 0, no postgres left', async () => {
    await shutdownWithSavesInFlight((server) => process.kill(-server.child.pid!, 'SIGINT'));
  }, 90_000);

  it('a request still running after the drain (DRAIN_SECONDS) is cut off: exit 1, no postgres left', shutdownWithStuckRequest, 90_000);
});
