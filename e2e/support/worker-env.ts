/*
 * Runs before each spec file (e2e/vitest.config.ts, setupFiles): points the spec at its worker's own server
 * and Chromium, which scripts/run-e2e.mjs started one of per worker (E2E_WORKERS_JSON, in the order of
 * vitest's pool ids 1…N). Specs change the draft for everyone on their server, so two specs running at the
 * same time never share one. The rest of e2e/support reads E2E_BASE_URL, E2E_DATA_DIR and E2E_BROWSER_WS.
 */
interface WorkerServer {
  baseUrl: string;
  dataDir: string;
  browser: string;
}

const all = JSON.parse(process.env.E2E_WORKERS_JSON ?? '[]') as WorkerServer[];
const poolId = Number(process.env.VITEST_POOL_ID ?? '1');
const mine = all[poolId - 1];
if (all.length > 0 && !mine) throw new Error(`No server for browser worker ${poolId} (${all.length} started): run the browser specs with npm run test:e2e`);
if (mine) {
  process.env.E2E_BASE_URL = mine.baseUrl;
  process.env.E2E_DATA_DIR = mine.dataDir;
  process.env.E2E_BROWSER_WS = mine.browser;
}
