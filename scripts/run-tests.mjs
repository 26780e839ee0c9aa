// `npm test`: the checks (typecheck and lint, side by side: each keeps one core busy), then the unit and API
// tests, then the browser tests; stops at the first stage that fails, and ends with each stage's time so
// a slow stage is seen where it happens.
import { spawn } from 'node:child_process';

const STAGES = [['typecheck', 'lint'], ['test:unit'], ['test:e2e']];
const times = [];

function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit' });
    child.once('exit', (code, signal) => {
      times.push({ script, seconds: (Date.now() - started) / 1000, ok: code === 0 });
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const started = Date.now();
let failed = false;
for (const stage of STAGES) {
  const codes = await Promise.all(stage.map(run));
  if (codes.some((c) => c !== 0)) {
    failed = true;
    break;
  }
}
const total = (Date.now() - started) / 1000;
console.log('\nnpm test, stage by stage (wall time):');
for (const t of times) console.log(`  ${t.script.padEnd(10)} ${t.seconds.toFixed(1).padStart(7)} s  ${t.ok ? 'passed' : 'FAILED'}`);
console.log(`  ${'total'.padEnd(10)} ${total.toFixed(1).padStart(7)} s  ${failed ? 'FAILED' : 'passed'}`);
process.exit(failed ? 1 : 0);
