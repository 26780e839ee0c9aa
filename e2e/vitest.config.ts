import { defineConfig } from 'vitest/config';

/** Browser journeys: one file at a time against one running server (scripts/run-e2e.mjs). */
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: process.env.E2E_SCREENSHOTS === '1' ? ['e2e/screenshots.e2e.ts', 'e2e/groups.e2e.ts'] : ['e2e/**/*.e2e.ts'],
    exclude: process.env.E2E_SCREENSHOTS === '1' ? [] : ['e2e/screenshots.e2e.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['verbose'],
  },
});
