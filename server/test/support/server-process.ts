import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

import { until } from './game-process.js';

export { signUpOverHttp, startServer, until, type HttpUser, type ServerProcess } from './game-process.js';

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

/** The embedded cluster's postmaster pid and port, from `<DATA_DIR>/pg/postmaster.pid`. */
export function postmasterOf(dataDir: string): { pid: number; port: number } | undefined {
  const text = fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), { encoding: 'utf8', flag: 'r' }).split('\n');
  const pid = Number(text[0]);
  const port = Number(text[3]);
  return pid && port ? { pid, port } : undefined;
}

/** Every PostgreSQL process working in this data directory (they all run with it as their cwd). */
export function postgresProcessesIn(dataDir: string): number[] {
  return processesWorkingIn(path.join(fs.realpathSync(dataDir), 'pg'));
}

/** Every process whose working directory is `target`, a real path (a cluster's processes all run in its data directory). */
export function processesWorkingIn(target: string): number[] {
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

