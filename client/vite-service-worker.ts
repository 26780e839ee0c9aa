import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import type { Plugin } from 'vite';

const SOURCE = path.resolve(import.meta.dirname, 'src', 'service-worker.ts');
/** Served from the root, so its scope is the whole app. */
export const SERVICE_WORKER_FILE = 'sw.js';

/**
 * Writes the service worker (src/service-worker.ts, bundled by esbuild as a classic script) into the
 * build as /sw.js, with the list it precaches (the shell and every file under assets/) and a version
 * hashed from that list and index.html: a new build is a new worker, whose new cache replaces the old one.
 * On `writeBundle`, so the precompress plugin (closeBundle) compresses it like the rest.
 */
export function serviceWorker(): Plugin {
  let outDir = 'dist';
  return {
    name: 'first-round:service-worker',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const assets = fs
        .readdirSync(path.join(outDir, 'assets'))
        .filter((name) => !/\.(br|gz)$/.test(name))
        .sort()
        .map((name) => `/assets/${name}`);
      const precache = ['/index.html', ...assets];
      const version = crypto
        .createHash('sha256')
        .update(precache.join('\n'))
        .update(fs.readFileSync(path.join(outDir, 'index.html')))
        .digest('hex')
        .slice(0, 12);
      buildSync({
        entryPoints: [SOURCE],
        outfile: path.join(outDir, SERVICE_WORKER_FILE),
        bundle: true,
        format: 'iife',
        target: 'es2022',
        minify: true,
        legalComments: 'none',
        define: { __PRECACHE__: JSON.stringify(precache), __BUILD_VERSION__: JSON.stringify(version) },
      });
    },
  };
}
