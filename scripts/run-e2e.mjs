// `npm run test:e2e` (and `npm run screenshots` with --screenshots): build the server and the web app when stale,
// then for each browser worker start the real server on a free port with a throwaway database of its own and
// one Chromium, run the browser specs (a file at a time per worker, the workers side by side) and stop it all.
// `npm run test:e2e -- e2e/live.e2e.ts` runs one spec (on one server); E2E_WORKERS sets the number of workers.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { buildServer, isStale } from './lib/builds.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = '/usr/bin/chromium';
/** As e2e/support/browser.ts launches it when run alone (see there why each flag). */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const screenshots = process.argv.includes('--screenshots');

/** The first draft night (last Thursday of April, 20:00 EDT) after `from`; as nextDraftNight in shared/src/constants.ts. */
function draftNightAfter(from) {
  for (let year = from.getUTCFullYear(); ; year++) {
    const lastOfApril = new Date(Date.UTC(year, 3, 30));
    const deadline = new Date(Date.UTC(year, 3, 30 - ((lastOfApril.getUTCDay() - 4 + 7) % 7), 24));
    if (deadline > from) return deadline;
  }
}
const extraArgs = process.argv.slice(2).filter((a) => a !== '--screenshots');

if (!fs.existsSync(CHROMIUM)) {
  console.error(`Browser tests need Chromium at ${CHROMIUM}. Install it with: apt-get install -y chromium`);
  process.exit(1);
}

/**
 * Workers, each with a server of its own: specs change the draft for everyone on their server (start,
 * picks, reset), so two specs must never share one at the same time. Two by default (the test machine's
 * cores); never more than the spec files named on the command line.
 */
const named = extraArgs.filter((a) => /\.e2e\.ts$/.test(a)).length;
const wanted = Number(process.env.E2E_WORKERS) || 2;
const workers = screenshots ? 2 : Math.max(1, named > 0 ? Math.min(wanted, named) : wanted);

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// A bound on a hang: a first start (initdb, migrations, the board) takes ~20 s alone, minutes on a loaded machine.
async function waitForReady(url, server, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited early (code ${server.exitCode})`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server was not ready within ${timeoutMs / 1000} s`);
}

function stop(server) {
  if (server.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => server.kill('SIGKILL'), 20_000);
    server.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

const started = Date.now();
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);
// The servers run the compiled server: built here once, not by each server's start at the same time.
if (isStale(root, 'server')) {
  console.log('Building the server…');
  await buildServer(root);
}
if (isStale(root, 'client')) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '--workspace', 'client'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
} else {
  // The build is newer than every source: the same bytes again. Its first-load budget is still checked.
  console.log('The web app is built and newer than its sources: not building it again');
  const report = spawnSync(process.execPath, [path.join(root, 'scripts', 'report-bundle-size.mjs')], { cwd: path.join(root, 'client'), stdio: 'inherit' });
  if (report.status !== 0) process.exit(report.status ?? 1);
}
const built = Date.now();

const deadline = draftNightAfter(new Date(Date.now() + 86_400_000)).toISOString();
/** One server, its data directory and its Chromium per worker (worker N uses servers[N - 1]: e2e/support/worker-env.ts). */
const servers = [];
const browsers = [];
let code = 1;
const cleanup = async () => {
  await Promise.all(browsers.map((b) => b.close().catch(() => undefined)));
  await Promise.all(servers.map((s) => stop(s.process)));
  for (const s of servers) fs.rmSync(s.dataDir, { recursive: true, force: true });
};
const onSignal = async () => {
  await cleanup();
  process.exit(130);
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);

async function startServer() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-round-e2e-'));
  // As root, embedded PostgreSQL runs as its own user, which must be able to enter the directory.
  fs.chmodSync(dataDir, 0o755);
  const baseUrl = `http://localhost:${port}`;
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      // Several operators: the provider sends one address at most 10 codes an hour, and the suite signs in often.
      ADMIN_EMAILS: 'operator@example.com,deputy@example.com,steward@example.com,marshal@example.com,umpire@example.com',
      IDP_IP_RATE_LIMIT: '100000',
      // The journeys need the draft not to have started, whatever day the suite runs (draft night included).
      DRAFT_DEADLINE: deadline,
      // Signing in again right after signing up should not wait out the one-minute resend throttle.
      IDP_CODE_RESEND_SECONDS: '0',
      // The journeys read sign-in codes from the outbox; a reminder before the lock there is not theirs to read.
      REMINDERS: 'false',
      // Stopping at the end should not wait out the default drain for a request a spec left open, nor pause
      // for a load balancer there is none of.
      DRAIN_SECONDS: '2',
      READY_DRAIN_SECONDS: '0',
      LOG_LEVEL: 'warn',
      SKIP_CLIENT_BUILD: '1',
      // The push spec's push service stand-in is plain http on this machine (e2e/push-opt-in.e2e.ts).
      PUSH_ALLOW_LOOPBACK_HTTP: 'true',
    },
  });
  const server = { process: child, baseUrl, dataDir };
  servers.push(server);
  await waitForReady(baseUrl, child);
  return server;
}

try {
  // Servers and browsers start side by side: each server's first start (initdb, migrations, the board) takes seconds.
  const [ready] = await Promise.all([
    Promise.all(Array.from({ length: workers }, () => startServer())),
    Promise.all(
      Array.from({ length: workers }, async () => {
        const browser = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
        browsers.push(browser);
        return browser;
      }),
    ),
  ]);
  console.log(
    `${workers} server(s) ready at ${ready.map((s) => s.baseUrl).join(', ')} (${seconds(built)} s); running ${screenshots ? 'the screenshot spec' : 'the browser specs'}…`,
  );
  const perWorker = ready.map((s, i) => ({ baseUrl: s.baseUrl, dataDir: s.dataDir, browser: browsers[i].wsEndpoint() }));
  // Not spawnSync: the browsers' endpoints are served from this process, which must keep running meanwhile.
  const vitest = spawn(
    process.execPath,
    [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'e2e/vitest.config.ts', '--maxWorkers', String(workers), ...extraArgs],
    {
      cwd: root,
      stdio: 'inherit',
      // E2E_WORKERS_JSON: each worker's server (its address, and its DATA_DIR, where specs that seed many entries
      // write them straight into its database: e2e/support/database.ts) and its Chromium.
      env: { ...process.env, E2E_WORKERS_JSON: JSON.stringify(perWorker), E2E_SCREENSHOTS: screenshots ? '1' : '' },
    },
  );
  code = await new Promise((resolve) => vitest.once('exit', (status) => resolve(status ?? 1)));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  await cleanup();
}
console.log(`Browser tests ${code === 0 ? 'passed' : 'failed'} in ${seconds(started)} s (building ${((built - started) / 1000).toFixed(1)} s, ${workers} worker(s))`);
process.exit(code);
