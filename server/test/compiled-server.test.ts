import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationsList } from '../src/db/migrations/index.js';
import { connectEmbedded, makeDataDirWithCluster, removeDataDir, signUpOverHttp, startServer } from './support/server-process.js';

/*
 * The compiled server (server/dist/main.js, `npm run build`; the global setup builds it when stale) run as
 * the Docker image runs it, without tsx: everything it reads beside its code must be found from the
 * bundle, where every module's import.meta.url is the bundle's. Migrations on a fresh database (one reads
 * shared/data), the default board, the web app's files, a share card (fonts from node_modules).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUNDLE = path.join(ROOT, 'server', 'dist', 'main.js');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the compiled server', () => {
  it('names files beside its code from one module only (server/src/paths.ts), which resolves them from the bundle too', () => {
    // A package's own files are found by package resolution (createRequire(import.meta.url)): allowed.
    const relativeToItself = /new URL\(\s*['"`]\.|import\.meta\.(dirname|filename)|__dirname|__filename|fileURLToPath\(import\.meta\.url\)/;
    const offenders = sourceFiles(path.join(ROOT, 'server', 'src'))
      .filter((file) => !file.endsWith(path.join('server', 'src', 'paths.ts')))
      .filter((file) => relativeToItself.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(ROOT, file));
    expect(offenders).toEqual([]);
  });

  it('starts on a fresh database, serves the game and its share cards, and stops on SIGTERM', async () => {
    const dataDir = makeDataDirWithCluster('first-round-compiled-');
    cleanups.push(() => removeDataDir(dataDir));
    const server = await startServer({ dataDir, args: ['--enable-source-maps', BUNDLE] });
    cleanups.push(() => server.kill());
    expect(server.lines.some((line) => /^Loaded the default 2025 big board \(\d+ players\)$/.test(line))).toBe(true);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);

    const db = await connectEmbedded(dataDir);
    cleanups.push(() => db.end());
    const migrated = await db.query<{ name: string }>('select name from mikro_orm_migrations order by id');
    expect(migrated.rows.map((r) => r.name)).toEqual(migrationsList.map((m) => m.name));
    // The order migration reads shared/data/round-one-order-2025.csv.
    expect((await db.query('select slot from round_one_order')).rowCount).toBe(32);

    // The web app from client/dist when it is built; else the page saying to build it.
    const page = await fetch(`${server.baseUrl}/`);
    expect(page.status).toBe(200);
    const built = path.join(ROOT, 'client', 'dist', 'index.html');
    if (fs.existsSync(built)) expect(await page.text()).toBe(fs.readFileSync(built, 'utf8'));
    else expect(await page.text()).toContain('The web app has not been built yet');

    const user = await signUpOverHttp(server.baseUrl, db, 'Carder');
    expect((await fetch(`${server.baseUrl}/api/picks/my-picks`, { headers: { authorization: user.authorization } })).status).toBe(200);
    const link = await fetch(`${server.baseUrl}/api/share/links`, {
      method: 'POST',
      headers: { authorization: user.authorization, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(link.status).toBe(200);
    const { image_url } = (await link.json()) as { image_url: string };
    // Absolute, from the configured address (never the request's Host); fetched here on the server's own port.
    const image = await fetch(`${server.baseUrl}${new URL(image_url).pathname}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await image.arrayBuffer());
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);

    process.kill(server.child.pid!, 'SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.lines).toContain('First Round stopped');
  });
});
