import { fileURLToPath } from 'node:url';

/**
 * The repository's root, from which the server reads its files at run time (shared/data, client/dist).
 * Found from this module's own place: server/src/paths.ts when the sources run (tsx, tests), or the bundle
 * server/dist/main.js that `npm run build` makes of them (scripts/lib/builds.mjs). Both sit two levels
 * below the root, so the one relative URL holds for either. Every file the server reads beside its code is
 * named through here: `new URL('../…', import.meta.url)` in any other module would point elsewhere once
 * bundled, where every module's import.meta.url is the bundle's (server/test/compiled-server.test.ts checks).
 */
const ROOT = new URL('../../', import.meta.url);

/** The absolute path of `relative` (a path from the repository's root, such as `shared/data/players-2025.csv`). */
export function fromRoot(relative: string): string {
  return fileURLToPath(new URL(relative, ROOT));
}
