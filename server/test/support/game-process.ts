import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type pg from 'pg';
import { freePort } from '../../src/free-port.js';

/*
 * Starting the real server in a child process, without vitest: the suite's server-process.ts adds the
 * template cluster (which needs vitest's `inject`) on top, and the drain trials (run by the suite and by
 * `npm run drain:trials`) use this alone.
 */

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

export interface HttpUser {
  /** The session cookie (`fr_session=…`), for a new token from /idp/token. */
  cookie: string;
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
  const cookie = verified.headers.getSetCookie().find((c) => c.startsWith('fr_session='))?.split(';')[0];
  if (!cookie) throw new Error('verify: no session cookie');
  return { email, token, cookie, authorization: `Bearer ${token}` };
}
