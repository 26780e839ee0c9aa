// Prints the initial JavaScript the browser downloads before the first screen (gzip), and fails the
// build when it passes the budget: entry chunk plus its static imports, not lazily loaded routes.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_KB = 200;
const dist = path.resolve(process.cwd(), 'dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = new Set();
for (const m of html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/?([^"]+\.js)"/g)) initial.add(m[1]);
let total = 0;
for (const file of initial) total += zlib.gzipSync(fs.readFileSync(path.join(dist, file))).length;
const kb = total / 1024;
console.log(`Initial JS (gzip): ${kb.toFixed(1)} KB in ${initial.size} file(s) (budget ${BUDGET_KB} KB)`);
if (kb > BUDGET_KB) {
  console.error(`Initial JS is over the ${BUDGET_KB} KB budget`);
  process.exit(1);
}
