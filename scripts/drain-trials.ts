// `npm run drain:trials -- --trials 20 [--saves 20] [--ready-drain-seconds 0]`: the full count of the drain
// trials the unit suite runs a few of (server/test/lifecycle-drain.test.ts). Per trial a fresh server process
// (`node scripts/start.mjs`) gets SIGTERM right after 20 saves are written to their sockets; every save must
// get a complete 200, be in the database afterwards, and the process must exit 0. The database is
// DATABASE_URL's server when set (a new database on it, dropped afterwards), else a throwaway embedded
// PostgreSQL. Exit code 0 only when every trial passed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startEmbeddedPostgres, withDatabase, type RunningDatabase } from '../server/src/db/embedded-postgres.js';
import { runDrainTrials, type DrainTrialResult } from '../server/test/support/drain-trials.js';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '20' },
    saves: { type: 'string', default: '20' },
    'ready-drain-seconds': { type: 'string' },
  },
});
const trials = Number(values.trials);
const saves = Number(values.saves);
if (!Number.isInteger(trials) || trials < 1 || !Number.isInteger(saves) || saves < 1) {
  console.error('Usage: npm run drain:trials -- --trials 20 [--saves 20] [--ready-drain-seconds 0]');
  process.exit(1);
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'first-round-drain-'));
// As root, the embedded PostgreSQL runs as its own user, which must enter the directory.
fs.chmodSync(scratch, 0o755);
let embedded: RunningDatabase | undefined;
let serverUrl = process.env.DATABASE_URL;
const database = `fr_drain_${crypto.randomBytes(4).toString('hex')}`;
let admin: pg.Client | undefined;
let results: DrainTrialResult[] | undefined;
try {
  if (!serverUrl) {
    console.log('Starting a throwaway embedded PostgreSQL…');
    embedded = await startEmbeddedPostgres(path.join(scratch, 'pg'), { durable: false });
    serverUrl = embedded.serverUrl;
  }
  admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const env: Record<string, string> = values['ready-drain-seconds'] === undefined ? {} : { READY_DRAIN_SECONDS: values['ready-drain-seconds'] };
  console.log(`${trials} trials of ${saves} saves then SIGTERM${env.READY_DRAIN_SECONDS ? `, READY_DRAIN_SECONDS=${env.READY_DRAIN_SECONDS}` : ''}`);
  results = await runDrainTrials({
    databaseUrl: withDatabase(serverUrl, database),
    dataDir: path.join(scratch, 'data'),
    trials,
    saves,
    env,
    log: (line) => console.log(line),
  });
} finally {
  await admin?.query(`drop database if exists ${database} with (force)`).catch(() => {});
  await admin?.end().catch(() => {});
  await embedded?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}

const done = results ?? [];
const passed = done.filter(
  (r) =>
    r.outcomes.every((o) => o.kind === 'answer' && o.status === 200 && o.connection === 'close') &&
    r.lost.length === 0 &&
    r.idle.every((end) => end === 'closed') &&
    r.exit.code === 0,
);
const answered = done.reduce((n, r) => n + r.ok, 0);
console.log(`${passed.length}/${done.length} trials passed: ${answered}/${done.length * saves} saves answered 200, ${done.reduce((n, r) => n + r.lost.length, 0)} lost`);
process.exit(passed.length === trials ? 0 : 1);
