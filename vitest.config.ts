import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/src/**/*.test.ts', 'server/test/**/*.test.ts', 'scripts/**/*.test.ts', 'client/src/**/*.test.ts', 'examples/**/*.test.ts'],
    // The testing kit's own setup (server/src/testing/global-setup.ts), as anyone else's config names it.
    globalSetup: ['@first-round/server/testing/global-setup'],
    // Two cores here: files run in parallel, each on its own database cloned from a migrated template.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
