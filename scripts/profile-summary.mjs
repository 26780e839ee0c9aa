// Where a `--cpu-prof` profile's time went: self time by package (or our own source directory) and the
// top functions. `node scripts/profile-summary.mjs <file.cpuprofile> [top]`. Used for docs/benchmarks.md.
import fs from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/profile-summary.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const top = Number(topArg ?? 25);

// Each sample names the node that was on top of the stack; time deltas say how long it stayed there.
const selfUs = new Map();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

function where(url) {
  if (!url) return '(native / idle / gc)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/(server|shared|scripts)\/src\/(.*?)[^/]*$/.exec(url) ?? /\/(server|shared|scripts)\/(.*?)[^/]*$/.exec(url);
  return own ? `ours: ${own[1]}/${own[2]}` : url;
}

const byPlace = new Map();
const byFunction = new Map();
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (!us) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const place = where(url);
  byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  const name = `${functionName || '(anonymous)'} ${place}${url ? `:${lineNumber + 1}` : ''}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${name}`);
};
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
print('Self time by place', byPlace);
print('Self time by function', byFunction);
