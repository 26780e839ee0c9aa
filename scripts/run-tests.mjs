// `npm test`: every check and test tier, side by side in two lanes, then each stage's wall time.
//   lane 1: typecheck and lint (together), then the unit and API tests
//   lane 2: the browser tests (which build the web app first when its build is stale), then the deployment
//           test (two instances behind nginx with TLS, a rolling restart, mail over SMTP: scripts/test-deploy.ts)
// The deployment test sits where it evens the lanes out (measured on a fresh clone: lane 1 ~420 s, the
// browser tests ~390 s, the deployment test ~37 s).
// The lanes overlap because neither keeps both cores busy alone: the browser tests mostly wait on the
// browser and the servers. Each stage's output is printed whole when it ends (not interleaved); a lane stops
// at its first failing stage, and the run fails if any stage did.
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';

const LANES = [[['typecheck', 'lint'], ['test:unit']], [['test:e2e'], ['test:deploy']]];
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

async function lane(stages) {
  for (const stage of stages) {
    const results = await Promise.all(stage.map(run));
    if (results.includes(false)) return false;
  }
  return true;
}

const started = Date.now();
const passed = (await Promise.all(LANES.map(lane))).every(Boolean);
const total = (Date.now() - started) / 1000;
// A failure's details scroll far up behind the other lane's output; CI logs often keep only the end.
// So a failed stage's failure report (vitest's "Failed Tests" block, or the stage's last lines) is
// printed again here, next to the summary.
for (const t of times.filter((stage) => !stage.ok)) {
  console.log(`\n──── ${t.script} failed; its failures again ────\n${failureReport(t.output)}`);
}
console.log('\nnpm test, stage by stage (wall time; the two lanes run side by side):');
for (const t of times) console.log(`  ${t.script.padEnd(12)} ${t.seconds.toFixed(1).padStart(7)} s  ${t.ok ? 'passed' : 'FAILED'}`);
console.log(`  ${'total'.padEnd(12)} ${total.toFixed(1).padStart(7)} s  ${passed ? 'passed' : 'FAILED'}`);
process.exit(passed ? 0 : 1);

function failureReport(output) {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => /Failed Tests \d+|Unhandled Errors?/.test(stripVTControlCharacters(line)));
  const picked = start >= 0 ? lines.slice(start) : lines.slice(-80);
  return picked.slice(0, 200).join('\n');
}
