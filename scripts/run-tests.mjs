// `npm test`: every check and test tier, in three stages one after another, then each one's wall time.
//   1. typecheck, lint and the deployment test side by side: the first two are single-threaded, and the
//      deployment test (two instances behind nginx with TLS, a rolling restart, mail over SMTP:
//      scripts/test-deploy.ts; it builds the server and the web app when their builds are stale, which the
//      browser tests then reuse) mostly waits on its instances, so the three fill two cores without fighting
//   2. the unit and API tests (two files at a time)
//   3. the browser tests (two workers)
// The unit and browser tiers each keep both cores busy, so they run one after the other: side by side they
// only slowed each other, and the loaded minutes cut browser journeys off (docs/decisions.md, "Test speed").
// Every stage runs even when one before it failed, so one run reports every failure; each stage's output
// is printed whole when it ends, and the run fails if any stage did.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

// The browser and deployment tests need three Debian packages. Say so before the first stage starts,
// not after minutes of other stages.
const NEEDS = [
  { what: 'Chromium (the browser tests)', found: () => fs.existsSync('/usr/bin/chromium'), pkg: 'chromium' },
  { what: 'nginx (the deployment test)', found: () => fs.existsSync('/usr/sbin/nginx'), pkg: 'nginx-light' },
  { what: 'openssl (the deployment test\'s certificate)', found: () => !spawnSync('openssl', ['version']).error, pkg: 'openssl' },
];
const missing = NEEDS.filter((need) => !need.found());
if (missing.length > 0) {
  console.error(`npm test needs ${missing.map((need) => need.what).join(', ')}. Install with:\n\n  apt-get update && apt-get install -y ${missing.map((need) => need.pkg).join(' ')}\n`);
  process.exit(1);
}

const STAGES = [['typecheck', 'lint', 'test:deploy'], ['test:unit'], ['test:e2e']];
const times = [];

function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' } });
    const out = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => out.push(chunk));
    child.once('close', (code, signal) => {
      const seconds = (Date.now() - started) / 1000;
      const ok = code === 0 && !signal;
      process.stdout.write(`\n──── ${script}: ${ok ? 'passed' : 'FAILED'} in ${seconds.toFixed(1)} s ────\n`);
      process.stdout.write(Buffer.concat(out));
      times.push({ script, seconds, ok, output: Buffer.concat(out).toString() });
      resolve(ok);
    });
  });
}

const started = Date.now();
let passed = true;
for (const stage of STAGES) {
  const results = await Promise.all(stage.map(run));
  if (results.includes(false)) passed = false;
}
const total = (Date.now() - started) / 1000;
// A failure's details scroll far up behind the later stages' output; CI logs often keep only the end.
// So a failed stage's failure report (vitest's "Failed Tests" block, or the stage's last lines) is
// printed again here, next to the summary.
for (const t of times.filter((stage) => !stage.ok)) {
  console.log(`\n──── ${t.script} failed; its failures again ────\n${failureReport(t.output)}`);
}
console.log('\nnpm test, stage by stage (wall time):');
for (const t of times) console.log(`  ${t.script.padEnd(12)} ${t.seconds.toFixed(1).padStart(7)} s  ${t.ok ? 'passed' : 'FAILED'}`);
console.log(`  ${'total'.padEnd(12)} ${total.toFixed(1).padStart(7)} s  ${passed ? 'passed' : 'FAILED'}`);
process.exit(passed ? 0 : 1);

function failureReport(output) {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => /Failed Tests \d+|Unhandled Errors?/.test(stripVTControlCharacters(line)));
  const picked = start >= 0 ? lines.slice(start) : lines.slice(-80);
  return picked.slice(0, 200).join('\n');
}
