// `npm run dev`: the server (restarting on changes) and Vite's dev server with hot reload; Vite proxies
// /trpc, /api and /idp to the server. Open http://localhost:5173.
import { spawn } from 'node:child_process';

const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'server/src/main.ts'], { stdio: 'inherit', env: { ...process.env, CORS_ORIGINS: 'http://localhost:5173' } }),
  spawn(process.execPath, ['../node_modules/vite/bin/vite.js'], { stdio: 'inherit', cwd: 'client' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', () => stop());
