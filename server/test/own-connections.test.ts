import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { startEmbeddedPostgres, withDatabase, type RunningDatabase } from '../src/db/embedded-postgres.js';
import { LISTENER_NAME } from '../src/events/topic-bus.js';
import { FEED_POLLER_NAME as FEED_POLLER } from '../src/modules/feed/feed.poller.js';
import { PUSH_SENDER_NAME as PUSH_SENDER } from '../src/modules/push/push.sender.js';
import { startPushService } from '../src/testing/index.js';
import { startPgProxy } from './support/pg-proxy.js';
import { copyClusterTemplate, makeDataDir, processesWorkingIn, removeDataDir, signUpOverHttp, startServer, until, type ServerProcess } from './support/server-process.js';

/*
 * The connections the server opens to PostgreSQL itself, beside the ORM's pool: the push sender's and the
 * results feed's lock connections and the topic bus's listening one. PostgreSQL goes away (killed outright,
 * then by an immediate shutdown: no error for the query a client waits on, its connection just ends)
 * while each is in the middle of something: taking its lock or starting to listen (its query held back on
 * the way, test/support/pg-proxy.ts, so the moment is certain), or holding it. The
 * server stays up, /healthz answers all along, /readyz says when the database is away, and once it is
 * back every part works again: the feed is polled and records a pick, the topic bus hears it, the push
 * sender sends its push, and the entry book has read again what changed while nobody listened.
 */


const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

/** The server process still running; else its last lines (the error it died of). */
function expectRunning(server: ServerProcess) {
  expect(server.child.exitCode, `the server exited:\n${server.lines.slice(-25).join('\n')}`).toBeNull();
}

/** /healthz asked every 100 ms until stopped: every answer that was not 200 (or no answer at all). */
function watchHealth(server: ServerProcess) {
  const failures: string[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const status = await fetch(`${server.baseUrl}/healthz`).then(
        (res) => res.status,
        (error: Error) => error.message,
      );
      if (status !== 200) failures.push(String(status));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    failures,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

const readyz = async (server: ServerProcess) => (await fetch(`${server.baseUrl}/readyz`)).status;

/** Waits for /readyz to answer `status`, the server staying up meanwhile. */
async function readyBecomes(server: ServerProcess, status: 200 | 503, what: string) {
  await until(
    async () => {
      expectRunning(server);
      return (await readyz(server)) === status;
    },
    30_000,
    what,
  );
}

/** Application names of the connections holding an advisory lock. */
async function lockHolders(db: pg.Client): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select a.application_name as name from pg_locks l join pg_stat_activity a on a.pid = l.pid where l.locktype = 'advisory' and l.granted order by 1`,
  );
  return rows.map((r) => r.name);
}

const SERVER_SOURCE = path.resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe("the server's own PostgreSQL connections", () => {
  it('are all made by one module (server/src/db/own-connection.ts), which listens for their errors from the start', () => {
    // The test kit (server/src/testing) is not the server.
    const offenders = sourceFiles(SERVER_SOURCE)
      .filter((file) => !file.startsWith(path.join(SERVER_SOURCE, 'testing') + path.sep) && file !== path.join(SERVER_SOURCE, 'db', 'own-connection.ts'))
      .filter((file) => /new\s+(pg\.)?(Client|Pool)\s*\(/.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(SERVER_SOURCE, file));
    expect(offenders).toEqual([]);
  });

  it('survive PostgreSQL dying while they take their locks, start listening or hold them, and recover', async () => {
    const dataDir = makeDataDir('first-round-own-');
    cleanups.push(() => removeDataDir(dataDir));
    const clusterDir = path.join(dataDir, 'external');
    copyClusterTemplate(clusterDir);
    // Durable: what was committed survives PostgreSQL being killed, as on any real installation.
    let cluster: RunningDatabase = await startEmbeddedPostgres(clusterDir, { durable: true });
    cleanups.push(() => cluster.stop());
    const clusterPort = Number(new URL(cluster.serverUrl).port);
    const direct = withDatabase(cluster.serverUrl, 'first_round');
    const proxy = await startPgProxy({ port: clusterPort });
    cleanups.push(() => proxy.close());
    const viaProxy = new URL(direct);
    viaProxy.port = String(proxy.port);

    const pushService = await startPushService();
    cleanups.push(() => pushService.close());
    let feedBody = '[]';
    const feed = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(feedBody));
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => feed.close(() => resolve())));

    const clusterProcesses = () => processesWorkingIn(fs.realpathSync(clusterDir));
    const signal = (pid: number, name: NodeJS.Signals) => {
      try {
        process.kill(pid, name);
      } catch {
        // gone already
      }
    };
    /**
     * PostgreSQL dies outright (the machine's power, the OOM killer): every one of its processes stopped,
     * then killed, so none says anything to its client; each connection just ends.
     */
    const killPostgres = async () => {
      const stopped = new Set<number>();
      // Again until no new one appears: the postmaster may have started a backend meanwhile.
      for (let found = clusterProcesses(); found.some((pid) => !stopped.has(pid)); found = clusterProcesses()) {
        for (const pid of found) {
          if (stopped.has(pid)) continue;
          signal(pid, 'SIGSTOP');
          stopped.add(pid);
        }
      }
      for (const pid of stopped) signal(pid, 'SIGKILL');
      await until(() => clusterProcesses().length === 0, 10_000, 'PostgreSQL gone');
    };
    /**
     * PostgreSQL's immediate shutdown (`pg_ctl stop -m immediate`; also what every session gets when another
     * crashed): each backend warns its client and exits, without an error for the query it is waiting on.
     */
    const stopPostgresImmediately = async () => {
      const postmaster = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      signal(postmaster, 'SIGQUIT');
      await until(() => clusterProcesses().length === 0, 20_000, 'PostgreSQL stopped');
    };
    const restartPostgres = async () => {
      cluster = await startEmbeddedPostgres(clusterDir, { durable: true, port: clusterPort });
    };
    const connectDirect = async () => {
      const client = new pg.Client({ connectionString: direct });
      client.on('error', () => {});
      await client.connect();
      return client;
    };

    // The push sender's first lock query is held: it is taking its lock when PostgreSQL first dies.
    proxy.hold(PUSH_SENDER);
    const server = await startServer({
      dataDir,
      env: {
        DATABASE_URL: viaProxy.toString(),
        // Pushes to the stand-in on this machine (plain http on loopback): refused in production.
        NODE_ENV: 'test',
        PUSH_ALLOW_LOOPBACK_HTTP: 'true',
        FEED_URL: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/draft.json`,
        FEED_KIND: 'generic',
        FEED_INTERVAL_SECONDS: '1',
      },
    });
    cleanups.push(() => server.kill());
    const health = watchHealth(server);
    cleanups.push(() => health.stop());

    let db = await connectDirect();
    const operator = await signUpOverHttp(server.baseUrl, db, 'operator');
    const fan = await signUpOverHttp(server.baseUrl, db, 'fan');
    const phone = pushService.device();
    const subscribed = await fetch(`${server.baseUrl}/trpc/push.subscribe`, {
      method: 'POST',
      headers: { authorization: fan.authorization, 'content-type': 'application/json' },
      body: JSON.stringify(phone.subscription),
    });
    expect(subscribed.status).toBe(200);
    const [first] = (await db.query<{ id: number; player_name: string; school: string }>(`select id, player_name, school from player order by rank limit 1`)).rows;
    const [{ id: fanId }] = (await db.query<{ id: string }>(`select id from participant where email = $1`, [fan.email])).rows as [{ id: string }];

    // First death: the push sender taking its lock, the feed poller holding its own, the topic bus listening.
    await until(() => proxy.heldSoFar(PUSH_SENDER) === 1, 15_000, 'the push sender taking its lock');
    await until(async () => (await lockHolders(db)).includes(FEED_POLLER), 15_000, 'the feed poller holding its lock');
    // The book was read whole at start-up (what it reads again after the deaf spell below).
    await until(() => server.lines.some((line) => line.includes('entry book read whole')), 15_000, 'the entry book read');
    proxy.release(PUSH_SENDER);
    proxy.hold(FEED_POLLER);
    proxy.hold(LISTENER_NAME);
    await db.end();
    await killPostgres();
    await readyBecomes(server, 503, '/readyz 503 with PostgreSQL dead');

    // Back: the push sender takes its lock again, while the feed poller is taking its own and the topic bus
    // is starting to listen (their queries held), deaf to what changes now.
    await restartPostgres();
    await readyBecomes(server, 200, '/readyz 200 with PostgreSQL back');
    db = await connectDirect();
    await until(async () => (await lockHolders(db)).includes(PUSH_SENDER), 20_000, 'the push sender holding its lock again');
    await until(() => proxy.heldSoFar(FEED_POLLER) >= 1 && proxy.heldSoFar(LISTENER_NAME) >= 1, 20_000, 'the feed poller and the topic bus connecting');
    // Saved behind the server's back, never announced: only a whole read of the entry book finds it.
    await db.query(`insert into pick (participant_id, group_id, player_id) values ($1, $2, $3)`, [fanId, GLOBAL_GROUP_ID, first!.id]);
    await db.end();

    // Second death: the push sender holding its lock, the feed poller taking its own, the topic bus connecting.
    await stopPostgresImmediately();
    await readyBecomes(server, 503, '/readyz 503 with PostgreSQL dead again');
    proxy.release(FEED_POLLER);
    proxy.release(LISTENER_NAME);
    const booksRead = server.lines.filter((line) => line.includes('entry book read whole')).length;
    await restartPostgres();
    await readyBecomes(server, 200, '/readyz 200 with PostgreSQL back again');
    db = await connectDirect();
    cleanups.push(() => db.end());
    await until(async () => {
      const holders = await lockHolders(db);
      return holders.includes(PUSH_SENDER) && holders.includes(FEED_POLLER);
    }, 20_000, 'the push sender and the feed poller holding their locks');
    // The topic bus listening again tells its listeners to start over: the entry book is read whole.
    await until(() => server.lines.filter((line) => line.includes('entry book read whole')).length > booksRead, 20_000, 'the entry book read again');

    // A pick the feed reports: the feed poller records it, the topic bus hears it, the push sender tells the
    // fan (whose pick only the book's new read knows).
    const started = await fetch(`${server.baseUrl}/api/draft/start`, { method: 'POST', headers: { authorization: operator.authorization } });
    expect(started.status).toBe(200);
    feedBody = JSON.stringify([{ overall: 1, round: 1, player_name: first!.player_name, school: first!.school }]);
    await until(() => pushService.received.some((push) => push.deviceId === phone.id), 20_000, "the fan's push");
    expect(pushService.received.find((push) => push.deviceId === phone.id)!.payload).toMatchObject({ title: expect.stringContaining(`✓ ${first!.player_name} — Pick 1`) });
    const picks = await db.query<{ actor: string; slot: number }>(`select actor, slot from draft_event where kind = 'pick'`);
    expect(picks.rows).toEqual([{ actor: 'feed', slot: 1 }]);

    await health.stop();
    expectRunning(server);
    expect(health.failures).toEqual([]);
  }, 120_000);
});
