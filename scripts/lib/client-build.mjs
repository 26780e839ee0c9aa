// Whether the web app's build (client/dist) is older than what it is built from: `npm start` and the browser
// tests build it only then.
import fs from 'node:fs';
import path from 'node:path';

function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** Everything a build reads that can change: the app's sources, its page, its build settings, shared/. */
const SOURCES = ['client/src', 'client/public', 'client/index.html', 'client/vite.config.ts', 'client/vite-precompress.ts', 'shared/src', 'client/package.json'];

/** True when client/dist/index.html is missing or older than any source file. */
export function clientBuildIsStale(root) {
  const built = path.join(root, 'client', 'dist', 'index.html');
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  return Math.max(...SOURCES.map((p) => newestMtime(path.join(root, p)))) > builtAt;
}
