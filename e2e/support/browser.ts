import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { BASE_URL } from './env';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Debian's Chromium, headless, with the flags it needs as root on a machine with no outside network (no
 * sandbox, no GPU, no background networking, component updates or sync: each would fail or hang here).
 * Under scripts/run-e2e.mjs a spec connects to its worker's Chromium (E2E_BROWSER_WS, started with these
 * flags), which then serves every spec of that worker in turn: starting one per spec cost a second or
 * two each. `close()` then ends the spec's contexts and disconnects. Otherwise Playwright's `launch`
 * gives every run a fresh temporary profile (its own --user-data-dir), removed when the browser closes.
 */
export function launchBrowser(): Promise<Browser> {
  if (process.env.E2E_BROWSER_WS) return chromium.connect(process.env.E2E_BROWSER_WS);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface Person {
  context: BrowserContext;
  page: Page;
}

/**
 * A browser context as the specs open one: with the app's service worker blocked unless `options` asks
 * for it (`serviceWorkers: 'allow'`, as the specs of the installable app and of push do). Registered in
 * every context, the worker precaches the whole build (~110 files) into the context's Cache Storage each
 * time, work that nothing in the other specs looks at and that the machine, shared by two workers, pays
 * for in every test (docs/decisions.md, "Test speed"). Blocked, `navigator.serviceWorker.register` resolves
 * and does nothing, so the app's own code path is unchanged.
 */
export function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  // eslint-disable-next-line no-restricted-properties -- the one place that opens contexts
  return browser.newContext({ baseURL: BASE_URL, serviceWorkers: 'block', ...options });
}

/**
 * One person = one browser context (own cookies and storage), desktop size unless told otherwise; `options`
 * for more (a time zone, say).
 */
export async function newPerson(browser: Browser, viewport = { width: 1280, height: 900 }, options: BrowserContextOptions = {}): Promise<Person> {
  const context = await newContext(browser, { viewport, reducedMotion: 'reduce', ...options });
  // A bound on a hang for every wait and navigation, not a speed target: a page that loads in a second on a
  // quiet machine can take ten with both cores busy.
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  return { context, page };
}
