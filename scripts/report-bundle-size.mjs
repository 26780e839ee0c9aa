// Run after `vite build` by the client's build script (not by `npm start`): prints the JavaScript a first
// load of / downloads, compressed as the server sends it (brotli and gzip), and fails the build when it
// passes the budget. A first load is the shell (the entry and its static imports, which index.html
// preloads) plus the first screen's lazy chunks: / sends a visitor to /sign-up and a signed-in player
// to /groups, where the live layer and its draft-night strip load too (the first-login rules and the
// toasts load only when shown).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * 193 since a first visit during a viewing delay's hold shows the standings as they were (the hold gate's
 * as-of reads, ~0.7 KB); 192 since the offline work (pages that recover from a failed chunk, the kept
 * answers) and the shared words; 190 before.
 */
const BUDGET_KB = 193;
const dist = path.resolve(process.cwd(), 'dist');
const assets = path.join(dist, 'assets');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');

/**
 * The built chunks of a source module (chunks are named after their module: sign-up-page-<hash>.js;
 * two modules of the same name, such as components/ and lib/draft-live.ts, give two).
 */
function chunksOf(name) {
  const files = fs.readdirSync(assets).filter((f) => new RegExp(`^${name}-[\\w-]{8}\\.js$`).test(f));
  if (files.length === 0) throw new Error(`No built chunk for ${name} in ${assets}`);
  return files.map((f) => `assets/${f}`);
}

/** A chunk and everything it imports statically (`import{…}from"./x.js"`, not `import("./x.js")`). */
function closure(file, into = new Set()) {
  if (into.has(file)) return into;
  into.add(file);
  const code = fs.readFileSync(path.join(dist, file), 'utf8');
  for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*"\.\/([^"]+\.js)"/g)) closure(`assets/${m[1]}`, into);
  return into;
}

const shell = new Set();
for (const m of html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/?([^"]+\.js)"/g)) closure(m[1], shell);

const firstLoads = {
  'shell only': [],
  'a visitor (/ → /sign-up)': ['sign-up-page'],
  'a player (/ → /groups)': ['groups-page', 'draft-live', 'draft-strip'],
};

const sizes = new Map();
function compressed(file) {
  if (!sizes.has(file)) {
    const raw = fs.readFileSync(path.join(dist, file));
    const br = zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    sizes.set(file, { br, gzip: zlib.gzipSync(raw, { level: 9 }).length });
  }
  return sizes.get(file);
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
let worst = 0;
for (const [who, screens] of Object.entries(firstLoads)) {
  const files = new Set(shell);
  for (const screen of screens) for (const chunk of chunksOf(screen)) closure(chunk, files);
  let br = 0;
  let gzip = 0;
  for (const file of files) {
    br += compressed(file).br;
    gzip += compressed(file).gzip;
  }
  worst = Math.max(worst, gzip);
  console.log(`Initial JS, first load of ${who}: ${kb(br)} KB brotli, ${kb(gzip)} KB gzip in ${files.size} file(s)`);
}
console.log(`Budget: ${BUDGET_KB} KB compressed (checked against gzip, the larger)`);
if (worst > BUDGET_KB * 1024) {
  console.error(`Initial JS is over the ${BUDGET_KB} KB budget: ${kb(worst)} KB gzip`);
  process.exit(1);
}
