// `npm run test:e2e` (and `npm run screenshots` with --screenshots): build the web app, start the real
// server on a free port with a throwaway database, run the browser specs against it, stop it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = '/usr/bin/chromium';
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

async function waitForReady(url, server, timeoutMs = 120_000) {
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
console.log('Building the web app…');
const build = spawnSync('npm', ['run', 'build', '--workspace', 'client'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-round-e2e-'));
// As root, embedded PostgreSQL runs as its own user, which must be able to enter the directory.
fs.chmodSync(dataDir, 0o755);
const baseUrl = `http://localhost:${port}`;
const server = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
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
    DRAFT_DEADLINE: draftNightAfter(new Date(Date.now() + 86_400_000)).toISOString(),
    // Signing in again right after signing up should not wait out the one-minute resend throttle.
    IDP_CODE_RESEND_SECONDS: '0',
    // The journeys read sign-in codes from the outbox; a reminder before the lock there is not theirs to read.
    REMINDERS: 'false',
    LOG_LEVEL: 'warn',
    SKIP_CLIENT_BUILD: '1',
  },
});

let code = 1;
const onSignal = async () => {
  await stop(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(130);
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);

try {
  await waitForReady(baseUrl, server);
  console.log(`Server ready at ${baseUrl} (${((Date.now() - started) / 1000).toFixed(1)} s); running ${screenshots ? 'the screenshot spec' : 'the browser specs'}…`);
  const vitest = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'e2e/vitest.config.ts', ...extraArgs], {
    cwd: root,
    stdio: 'inherit',
    // E2E_DATA_DIR: specs that seed many entries write them straight into the server's database (e2e/support/database.ts).
    env: { ...process.env, E2E_BASE_URL: baseUrl, E2E_DATA_DIR: dataDir, E2E_SCREENSHOTS: screenshots ? '1' : '' },
  });
  code = vitest.status ?? 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  await stop(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(`Browser tests ${code === 0 ? 'passed' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(code);
