// `npm start`: build the web app when its build is missing or older than its sources, then run the
// server in this process (so Ctrl-C and SIGTERM reach its graceful shutdown directly).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientBuildIsStale } from './lib/client-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (fs.existsSync(path.join(root, '.env'))) process.loadEnvFile(path.join(root, '.env'));

if (process.env.SKIP_CLIENT_BUILD !== '1' && clientBuildIsStale(root)) {
  console.log('Building the web app (first start or changed sources)…');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: path.join(root, 'client'),
    stdio: 'inherit',
  });
}

const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'server', 'src', 'main.ts'));
