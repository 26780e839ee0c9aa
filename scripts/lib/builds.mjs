// The two builds: the web app (client/dist, by Vite) and the server (server/dist/main.js, one ESM file by
// esbuild). `npm run build` makes both; `npm start`, the tests and the browser tests make one again only
// when it is older than what it is built from (`isStale`).
import fs from 'node:fs';
import path from 'node:path';

/** What each build writes last (its freshness) and everything it reads that can change. */
export const BUILDS = {
  client: {
    output: 'client/dist/index.html',
    sources: ['client/src', 'client/public', 'client/index.html', 'client/vite.config.ts', 'client/vite-precompress.ts', 'client/vite-service-worker.ts', 'shared/src', 'client/package.json'],
  },
  server: {
    output: 'server/dist/main.js',
    // The server's code and the shared code bundled into it (Unicode's look-alike table, imported by
    // shared/src/name-keys.ts, among it); this file holds the build's settings.
    sources: ['server/src', 'shared/src', 'shared/data/confusables-17.0.0.json', 'server/package.json', 'shared/package.json', 'scripts/lib/builds.mjs'],
  },
};

/** The newest modification time under `entry`, directories included (a deleted or renamed file changes its directory's). */
function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** True when the build's output is missing or older than any of its sources. */
export function isStale(root, name) {
  const { output, sources } = BUILDS[name];
  const built = path.join(root, output);
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  return Math.max(...sources.map((p) => newestMtime(path.join(root, p)))) > builtAt;
}

/**
 * Bundles server/src/main.ts and the shared code it imports into server/dist/main.js (ESM, Node 20) with
 * its source map; packages stay imports (node_modules is there at run time), only the workspace's own
 * (@first-round/shared, TypeScript) are bundled. The bundle sits where server/src/paths.ts expects it. Each
 * file is written beside and renamed into place, map first: a server starting meanwhile, or another build
 * at the same time (`npm test` starts servers in two lanes), never reads half a file. `outfile`: elsewhere (tests).
 */
export async function buildServer(root, outfile = path.join(root, BUILDS.server.output)) {
  const esbuild = await import('esbuild').catch(() => {
    throw new Error('esbuild is not installed (it is a development dependency): run `npm install`, then `npm run build`');
  });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [path.join(root, 'server', 'src', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // Stack traces need the mappings only; the sources stay in the repository.
    sourcesContent: false,
    plugins: [externalPackages],
    logLevel: 'warning',
    metafile: true,
    write: false,
  });
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  const files = [...result.outputFiles].sort((a, b) => Number(b.path.endsWith('.map')) - Number(a.path.endsWith('.map')));
  for (const file of files) {
    const partial = `${file.path}.${process.pid}.partial`;
    fs.writeFileSync(partial, file.contents);
    fs.renameSync(partial, file.path);
  }
  // What it read, from the root: all of it must be among BUILDS.server.sources (scripts/lib/builds.test.ts).
  return { file: outfile, bytes: files.reduce((sum, f) => sum + f.contents.length, 0), inputs: Object.keys(result.metafile.inputs) };
}

/** Every bare import (a package) stays an import, but the workspace's own packages, which are TypeScript. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@first-round/') ? undefined : { path: args.path, external: true }));
  },
};
