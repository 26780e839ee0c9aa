// `npm run bench:start`: how long `npm start` takes to be ready and how much memory the server holds then.
// Starts the game exactly as `npm start` does (`node scripts/start.mjs`, its own process), on a data
// directory initialised by a first, untimed start (initdb, migrations, the board), with the web app built.
// Each run: spawn → GET /readyz answers 200 (polled every 10 ms) is the start time; the server's VmRSS
// (/proc/<pid>/status, the node process alone, not PostgreSQL) 1 s later is its memory; then SIGTERM.
// Two cases, --runs N each (5): the server starts its embedded PostgreSQL itself (what `npm start` does
// after a reboot), and PostgreSQL already runs (the bench started it; the server joins it, as with
// DATABASE_URL), which leaves the server's own part. Prints each run and the medians.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '../server/src/db/embedded-postgres.js';
import { freePort } from '../server/src/free-port.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const RUNS = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 5;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-round-bench-start-'));
// When run as root the embedded PostgreSQL runs as another user, which must reach its directory.
fs.chmodSync(dataDir, 0o755);


const rssMiB = (pid: number) => {
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
};

/** One start: milliseconds from spawn to the first 200 of /readyz, and the server's RSS a second later. */
async function startOnce(): Promise<{ readyMs: number; rss: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', NODE_ENV: 'production', PUBLIC_URL: `http://localhost:${port}` },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let readyMs = 0;
  while (!readyMs) {
    if (child.exitCode !== null) throw new Error(`the server exited (code ${child.exitCode})`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) readyMs = performance.now() - started;
    else await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const rss = rssMiB(child.pid!);
  child.kill('SIGTERM');
  await exited;
  return { readyMs, rss };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function measure(label: string) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await startOnce());
  console.log(`${label}:`);
  console.log(`  ready in ${runs.map((r) => r.readyMs.toFixed(0)).join(', ')} ms → median ${median(runs.map((r) => r.readyMs)).toFixed(0)} ms`);
  console.log(`  RSS      ${runs.map((r) => r.rss.toFixed(0)).join(', ')} MiB → median ${median(runs.map((r) => r.rss)).toFixed(0)} MiB`);
}

try {
  console.log(`${os.cpus()[0]?.model ?? 'CPU'}, ${os.cpus().length} cores; Node ${process.version}; ${RUNS} runs each`);
  await startOnce(); // initdb, migrations, the board: the data directory is initialised from here on
  await measure('Server starts its embedded PostgreSQL');
  const cluster = await startEmbeddedPostgres(path.join(dataDir, 'pg'));
  try {
    await measure('PostgreSQL already running');
  } finally {
    await cluster.stop();
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
