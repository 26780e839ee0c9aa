// `npx tsx scripts/bench-risk-meter.ts [--changes 20]`: how soon the risk meter on the selection screen
// says a changed selection's odds, in Chromium at 375 px. Starts the game as `npm start` does (its own data
// directory, the web app built when stale), signs a player in, opens /select-players, adds one player
// (untimed: the meter shows), then times --changes changes (half adds, then as many removals): from the
// tap's click reaching the document (a capturing listener, performance.now() in the page) to the meter's
// new text in the DOM (a MutationObserver). Prints each change, p50 and max, the date and the machine.
// A measurement, not a test: nothing here passes or fails on time (docs/benchmarks.md, "The night's odds").
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../server/src/free-port.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const CHANGES = args.includes('--changes') ? Number(args[args.indexOf('--changes') + 1]) : 20;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-round-bench-meter-'));
// When run as root the embedded PostgreSQL runs as another user, which must reach its directory.
fs.chmodSync(dataDir, 0o755);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
// The browser helpers of the specs read these when first imported (e2e/support/env.ts, session.ts).
process.env.E2E_BASE_URL = base;
process.env.E2E_DATA_DIR = dataDir;

const server = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', PUBLIC_URL: base },
});
const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));

/** Sets up the page to time the next change: the click's time, then the meter's new text's. */
const ARM = `(() => {
  const meterText = () => document.querySelector('[data-testid="risk-meter"]')?.textContent ?? null;
  const before = meterText();
  let clickedAt = null;
  document.addEventListener('click', () => { clickedAt = performance.now(); }, { capture: true, once: true });
  window.__meterChange = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (clickedAt === null || meterText() === before) return;
      observer.disconnect();
      resolve(performance.now() - clickedAt);
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
})()`;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

try {
  for (let ready = false; !ready; ) {
    if (server.exitCode !== null) throw new Error(`the server exited (code ${server.exitCode})`);
    ready = await fetch(`${base}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (!ready) await new Promise((r) => setTimeout(r, 200));
  }
  const { apiSession } = await import('../e2e/support/idp.js');
  const { signInWithSession } = await import('../e2e/support/session.js');
  const { launchBrowser, newPerson } = await import('../e2e/support/browser.js');
  const { rest } = await import('../e2e/support/rest.js');
  const { listPlayers } = await import('../e2e/support/operator.js');

  const email = `meter-${Date.now().toString(36)}@example.com`;
  const session = await apiSession(email, 'MeterBench');
  await rest(session, 'PATCH', '/users/me/status');
  const players = [...(await listPlayers())].sort((a, b) => a.rank - b.rank);
  const browser = await launchBrowser();
  try {
    const { page } = await newPerson(browser, { width: 375, height: 800 });
    await signInWithSession(page, email);
    await page.goto('/select-players');
    const row = (name: string) => page.getByRole('button', { name }).first();
    await row(players[0]!.player_name).click();
    await page.getByTestId('risk-meter').waitFor();
    const half = Math.ceil(CHANGES / 2);
    const toggled = players.slice(1, 1 + half).map((p) => p.player_name);
    const order = [...toggled, ...toggled].slice(0, CHANGES);
    const times: number[] = [];
    for (const [i, name] of order.entries()) {
      await row(name).scrollIntoViewIfNeeded();
      await page.evaluate(ARM);
      await row(name).click();
      const ms = await page.evaluate<number>('window.__meterChange');
      times.push(ms);
      console.log(`${String(i + 1).padStart(2)} ${i < half ? 'add   ' : 'remove'} ${name.padEnd(24)} ${ms.toFixed(1)} ms  (${await page.getByTestId('risk-meter').innerText()})`);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    console.log(`\n${times.length} changes at 375 px: p50 ${quantile(sorted, 0.5).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`);
    console.log(`${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${cpu}, load ${os.loadavg()[0]!.toFixed(2)}`);
  } finally {
    await browser.close();
  }
} finally {
  server.kill('SIGTERM');
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}
