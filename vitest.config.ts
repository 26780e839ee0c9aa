import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/src/**/*.test.ts', 'server/test/**/*.test.ts', 'scripts/**/*.test.ts', 'client/src/**/*.test.ts', 'examples/**/*.test.ts'],
    // The testing kit's own setup (server/src/testing/global-setup.ts), as anyone else's config names it.
    globalSetup: ['@first-round/server/testing/global-setup'],
    // Two cores here: files run in parallel, each on its own database cloned from a migrated template.
    pool: 'forks',
    maxWorkers: 2,
    // Files share their worker's module cache instead of importing the server's module graph again for each
    // of ~120 files: 203 s instead of 323 s for the whole set alone on this machine, and 316 instead of 552
    // CPU-seconds. Each file still has its own database and builds its own app; nothing a file changes at
    // module level may be left for the next (docs/decisions.md, "Test speed").
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
