import { defineConfig } from 'vitest/config';

/**
 * Browser journeys (scripts/run-e2e.mjs): spec files side by side, one per worker at a time, each worker with
 * a server and a Chromium of its own (support/worker-env.ts maps a worker to them); the runner passes
 * --maxWorkers, the number it started.
 */
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: process.env.E2E_SCREENSHOTS === '1' ? ['e2e/screenshots.e2e.ts', 'e2e/groups.e2e.ts'] : ['e2e/**/*.e2e.ts'],
    exclude: process.env.E2E_SCREENSHOTS === '1' ? [] : ['e2e/screenshots.e2e.ts'],
    setupFiles: ['e2e/support/worker-env.ts'],
    pool: 'forks',
    // A worker keeps its module cache from file to file: the support code and the server modules it reads (the
    // signing keys, the session cookie's names) are imported once per worker, not once per file (~2.4 CPU-s
    // each). Every spec still opens its own browser contexts, people and data; support keeps nothing per spec.
    isolate: false,
    // A bound on a hang, not a speed target: the longest journeys (32 taps and a save; axe on a dozen
    // screens) take 45–100 s on this 2-core machine, where Chromium costs ~2 CPU-s per new page; 60 s cut
    // one off in CI while the unit tests ran beside it (docs/decisions.md, "Test speed").
    testTimeout: 150_000,
    hookTimeout: 60_000,
    // Each file's span and own time at the end (scripts/lib/file-times-reporter.mjs): where the tier's time goes.
    reporters: ['verbose', ['./scripts/lib/file-times-reporter.mjs', {}]],
  },
});
