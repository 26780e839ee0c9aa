import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { APP_DATABASE, startEmbeddedPostgres, withDatabase } from '../../server/src/db/embedded-postgres';
import { BASE_URL, DEPUTY_EMAIL, MARSHAL_EMAIL, OPERATOR_EMAIL, STEWARD_EMAIL } from './env';
import { freePort } from '../../server/src/free-port';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Instance {
  /** http://localhost:<port>: the same host as BASE_URL, so the session cookies signInWithSession sets count here too. */
  baseUrl: string;
  /** Everything it printed (stdout and stderr), for a failure message. */
  output: string[];
  /** SIGTERM, then waits for its graceful shutdown (SIGKILL after 20 s). */
  stop(): Promise<void>;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * A second instance of the game beside the one scripts/run-e2e.mjs started, on the same database and
 * data directory (signing keys, so sessions work on both), with the same settings plus `env`: for specs
 * that need configuration the shared server does not have (a results feed, say). Several instances on one
 * database is a supported setup (docs/operations.md, "Running against your own PostgreSQL").
 */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the browser specs with npm run test:e2e');
  const cluster = await startEmbeddedPostgres(path.join(dataDir, 'pg'));
  if (cluster.startedHere) throw new Error('The server under test is not running on E2E_DATA_DIR');
  // The same deadline as the shared server, whatever day it is (run-e2e.mjs computes it).
  const { deadline } = (await (await fetch(`${BASE_URL}/api/draft/status`)).json()) as { deadline: string };
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: withDatabase(cluster.serverUrl, APP_DATABASE),
      ADMIN_EMAILS: [OPERATOR_EMAIL, DEPUTY_EMAIL, STEWARD_EMAIL, MARSHAL_EMAIL].join(','),
      IDP_IP_RATE_LIMIT: '100000',
      IDP_CODE_RESEND_SECONDS: '0',
      DRAFT_DEADLINE: deadline,
      REMINDERS: 'false',
      LOG_LEVEL: 'warn',
      SKIP_CLIENT_BUILD: '1',
      ...env,
    },
  });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const baseUrl = `http://localhost:${port}`;
  const deadlineMs = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The second instance exited (code ${child.exitCode}):\n${output.join('\n')}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadlineMs) {
      await stopChild(child);
      throw new Error(`The second instance was not ready within 60 s:\n${output.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseUrl, output, stop: () => stopChild(child) };
}
