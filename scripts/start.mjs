// `npm start`: build the web app and the server when a build is missing or older than its sources
// (scripts/lib/builds.mjs), then run the compiled server (server/dist/main.js) in this process, so Ctrl-C and
// SIGTERM reach its graceful shutdown directly.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUILDS, buildServer, isStale } from './lib/builds.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (fs.existsSync(path.join(root, '.env'))) process.loadEnvFile(path.join(root, '.env'));

if (process.env.SKIP_CLIENT_BUILD !== '1' && isStale(root, 'client')) {
  console.log('Building the web app (first start or changed sources)…');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: path.join(root, 'client'),
    stdio: 'inherit',
  });
}
if (isStale(root, 'server')) {
  console.log('Building the server (first start or changed sources)…');
  await buildServer(root);
}

// As `node --enable-source-maps`: stack traces name the TypeScript files and lines, not the bundle's.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(root, BUILDS.server.output)).href);
