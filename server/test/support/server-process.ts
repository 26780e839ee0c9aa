import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { freePort } from '../../src/free-port.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The real server as `npm start` runs it (`node scripts/start.mjs`), in a process group of its own so a
 * test can signal the whole group as a terminal's Ctrl-C does. Tests of process lifecycle use it:
 * signals, a database that dies, restarts on the same data directory.
 */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  /** Everything it printed so far (stdout and stderr), line by line. */
  lines: string[];
  waitForLine(pattern: RegExp, ms?: number): Promise<string>;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Last-resort cleanup: SIGKILL to its process group. */
  kill(): void;
}

/** A temporary DATA_DIR; as root the embedded PostgreSQL runs as its own user, which must enter it. */
export function makeDataDir(prefix = 'first-round-life-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/**
 * A temporary DATA_DIR with an embedded cluster already made (never started, its own copy): a copy of the
 * run's template takes a tenth of a second where initdb takes seconds. For tests of what the server does
 * with its cluster, not of how a cluster is made (embedded-password.test.ts makes its own). Without a
 * template (the run uses DATABASE_URL) the cluster is made at the first start, as before.
 */
export function makeDataDirWithCluster(prefix = 'first-round-life-'): string {
  const dir = makeDataDir(prefix);
  copyClusterTemplate(path.join(dir, 'pg'));
  return dir;
}

/** Puts a copy of the run's template cluster at `clusterDir` (and its password file beside it), if there is one. */
export function copyClusterTemplate(clusterDir: string): void {
  const template = inject('dataDirTemplate');
  if (!template) return;
  // cp -a: the owner (the postgres user, when the tests run as root) and the modes come along.
  execFileSync('cp', ['-a', path.join(template, 'pg'), clusterDir]);
  execFileSync('cp', ['-a', path.join(template, 'pg.password'), `${clusterDir}.password`]);
}

export async function until<T>(check: () => T | Promise<T>, ms: number, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `args`: node's arguments, `scripts/start.mjs` by default (`npm start`). */
export async function startServer(options: { dataDir: string; env?: Record<string, string>; port?: number; args?: string[] }): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, options.args ?? [path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Required in production: where links in pages and mail point.
      PUBLIC_URL: `http://localhost:${port}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      DATABASE_URL: '',
      SKIP_CLIENT_BUILD: '1',
      DRAFT_DEADLINE: '2099-04-23T20:00:00-04:00',
      IDP_IP_RATE_LIMIT: '100000',
      IDP_CODE_RESEND_SECONDS: '0',
      ADMIN_EMAILS: 'operator@example.com',
      LOG_LEVEL: 'info',
      ...options.env,
    },
  });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts);
      for (const wake of waiters) wake();
    });
  }
  let exitedYet = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      exitedYet = true;
      resolve({ code, signal });
      for (const wake of waiters) wake();
    }),
  );

  const waitForLine = (pattern: RegExp, ms = 30_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.find((l) => pattern.test(l));
        if (found !== undefined || exitedYet) {
          clearTimeout(timer);
          waiters.delete(check);
          if (found !== undefined) resolve(found);
          else reject(new Error(`The server exited before printing ${pattern}:\n${lines.join('\n')}`));
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`The server did not print ${pattern} within ${ms} ms:\n${lines.slice(-30).join('\n')}`));
      }, ms);
      waiters.add(check);
      check();
    });

  const server: ServerProcess = {
    child,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    lines,
    waitForLine,
    exited,
    kill() {
      if (exitedYet || !child.pid) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
  try {
    await waitForLine(/First Round is running/, 60_000);
  } catch (error) {
    server.kill();
    throw error;
  }
  return server;
}

/** The embedded cluster's postmaster pid and port, from `<DATA_DIR>/pg/postmaster.pid`. */
export function postmasterOf(dataDir: string): { pid: number; port: number } | undefined {
  const text = fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), { encoding: 'utf8', flag: 'r' }).split('\n');
  const pid = Number(text[0]);
  const port = Number(text[3]);
  return pid && port ? { pid, port } : undefined;
}

/** Every PostgreSQL process working in this data directory (they all run with it as their cwd). */
export function postgresProcessesIn(dataDir: string): number[] {
  const target = path.join(fs.realpathSync(dataDir), 'pg');
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readlinkSync(`/proc/${entry}/cwd`) === target) found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to look at
    }
  }
  return found;
}

/** The superuser password of the embedded cluster under DATA_DIR. */
export function embeddedPassword(dataDir: string): string {
  return fs.readFileSync(path.join(dataDir, 'pg.password'), 'utf8').trim();
}

/** A direct connection to the game's database in the embedded cluster (as an operator's psql would be). */
export async function connectEmbedded(dataDir: string, database = 'first_round'): Promise<pg.Client> {
  const { port } = postmasterOf(dataDir)!;
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: embeddedPassword(dataDir), database });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** Stops whatever PostgreSQL is left in the data directory and removes it (test cleanup, even after a failure). */
export async function removeDataDir(dataDir: string): Promise<void> {
  for (const pid of postgresProcessesIn(dataDir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await until(() => postgresProcessesIn(dataDir).length === 0, 10_000, 'postgres processes gone').catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
}

export interface HttpUser {
  email: string;
  token: string;
  authorization: string;
}

/** Signs a player up through the real /idp routes, reading the code from the outbox table. */
export async function signUpOverHttp(baseUrl: string, db: pg.Client, username: string): Promise<HttpUser> {
  const email = `${username.toLowerCase()}@example.com`;
  const post = (url: string, body: unknown) =>
    fetch(`${baseUrl}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const up = await post('/idp/sign-up', { email, username });
  if (up.status !== 200) throw new Error(`sign-up: ${up.status} ${await up.text()}`);
  const { rows } = await db.query<{ code: string }>(`select code from idp_outbox where lower(to_address) = lower($1) order by id desc limit 1`, [email]);
  const verified = await post('/idp/verify', { email, code: rows[0]!.code });
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${await verified.text()}`);
  const { token } = (await verified.json()) as { token: string };
  return { email, token, authorization: `Bearer ${token}` };
}
