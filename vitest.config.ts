import { defineConfig } from 'vitest/config';

/** The unit and API tests (node) and the web app's component tests (happy-dom): one `npm run test:unit`. */
export default defineConfig({
  test: {
    // Two cores here: files run in parallel, each on its own database cloned from a migrated template.
    maxWorkers: 2,
    // The usual report, then the 20 files that took longest (scripts/lib/file-times-reporter.mjs).
    reporters: ['default', ['./scripts/lib/file-times-reporter.mjs', { top: 20 }]],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['shared/src/**/*.test.ts', 'server/test/**/*.test.ts', 'scripts/**/*.test.ts', 'client/src/**/*.test.ts', 'examples/**/*.test.ts'],
          // The testing kit's own setup (server/src/testing/global-setup.ts), as anyone else's config names it.
          globalSetup: ['@first-round/server/testing/global-setup'],
          pool: 'forks',
          // Files share their worker's module cache instead of importing the server's module graph again for each
          // of ~120 files: 203 s instead of 323 s for the whole set alone on this machine, and 316 instead of 552
          // CPU-seconds. Each file still has its own database and builds its own app; nothing a file changes at
          // module level may be left for the next (docs/decisions.md, "Test speed").
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The screens in a simulated DOM, with the network faked at the tRPC link (client/src/test/render.tsx).
        // Isolated: the app's module-level stores (the viewing delay, the hold gate, the navigation guard) start
        // fresh in each file. No database, so no global setup: `vitest run --project components` is quick.
        test: {
          name: 'components',
          include: ['client/src/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['client/src/test/setup.ts'],
          pool: 'threads',
          // A bound on a hang: a screen re-renders in tens of milliseconds alone, several times that with both
          // cores busy (the unit tests, a build, Chromium).
          testTimeout: 30_000,
        },
      },
    ],
  },
});
