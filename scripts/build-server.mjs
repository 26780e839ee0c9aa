// `npm run build` (its first half): bundles the server into server/dist/main.js (scripts/lib/builds.mjs).
// `--if-stale`: only when the bundle is older than its sources, as `npm start` does.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, isStale } from './lib/builds.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!process.argv.includes('--if-stale') || isStale(root, 'server')) {
  const started = performance.now();
  const { file, bytes } = await buildServer(root);
  console.log(`Built ${path.relative(root, file)} (${(bytes / 1024).toFixed(0)} KiB with its source map) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
