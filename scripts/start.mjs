// `npm start`: build the web app when its build is missing or older than its sources, then run the
// server in this process (so Ctrl-C and SIGTERM reach its graceful shutdown directly).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (fs.existsSync(path.join(root, '.env'))) process.loadEnvFile(path.join(root, '.env'));

function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

const built = path.join(root, 'client', 'dist', 'index.html');
const sources = ['client/src', 'client/index.html', 'client/vite.config.ts', 'client/vite-precompress.ts', 'shared/src', 'client/package.json'].map((p) => path.join(root, p));
const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
if (process.env.SKIP_CLIENT_BUILD !== '1' && Math.max(...sources.map(newestMtime)) > builtAt) {
  console.log('Building the web app (first start or changed sources)…');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: path.join(root, 'client'),
    stdio: 'inherit',
  });
}

const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'server', 'src', 'main.ts'));
