import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { launchBrowser, newContext, newPerson } from './support/browser';
import { uniqueEmail, uniqueUsername } from './support/env';
import { acceptRules, signUpThroughUi } from './support/ui';

/**
 * The first load of / downloads at most 190 KB of JavaScript (compressed, as sent), the built
 * assets come compressed and cached for a year (the page itself is always asked again), and a reload
 * takes the hashed assets from the browser's cache without asking the server.
 */
const BUDGET_BYTES = 190 * 1024;
/** The build writes .br/.gz copies of files from this size up (client/vite-precompress.ts); smaller ones go as they are. */
const PRECOMPRESSED_FROM = 1024;

interface Loaded {
  url: string;
  /** Body bytes as they came over the wire (compressed), from the page's Resource Timing. */
  encodedBodySize: number;
  decodedBodySize: number;
  /** 0 when the browser took it from its cache without asking the server. */
  transferSize: number;
}

/** The scripts the document loaded, as its Resource Timing entries saw them. */
async function scriptsLoaded(page: Page): Promise<Loaded[]> {
  const entries = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => {
      // (A PerformanceResourceTiming: the e2e code is compiled without the DOM library.)
      const r = e as unknown as Loaded & { name: string };
      return { url: r.name, encodedBodySize: r.encodedBodySize, decodedBodySize: r.decodedBodySize, transferSize: r.transferSize };
    }),
  );
  return entries.filter((e) => new URL(e.url).pathname.endsWith('.js'));
}

/** Every response the page receives, by path. */
function recordResponses(page: Page): Map<string, Response> {
  const seen = new Map<string, Response>();
  page.on('response', (r) => seen.set(new URL(r.url()).pathname, r));
  return seen;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Loads / in a context whose HTTP cache is empty; waits until the first screen shows and the network is
 * quiet (signed in, the live stream stays open: then until it has opened, and a second more).
 */
async function firstLoad(page: Page, firstScreen: string, signedIn = false) {
  const responses = recordResponses(page);
  const stream = signedIn ? page.waitForRequest((r) => new URL(r.url()).pathname === '/trpc/draft.changes') : null;
  await page.goto('/');
  await page.getByRole('heading', { name: firstScreen }).waitFor();
  if (stream) {
    await stream;
    await page.waitForTimeout(1000);
  } else {
    await page.waitForLoadState('networkidle');
  }
  const scripts = await scriptsLoaded(page);
  return { responses, scripts, total: scripts.reduce((sum, s) => sum + s.encodedBodySize, 0) };
}

describe('first load', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
  });

  it('a visitor: at most 190 KB of JS, compressed, assets cached for a year, the page always revalidated', async () => {
    const { page, context } = await newPerson(browser);
    contexts.push(context);
    const { responses, scripts, total } = await firstLoad(page, 'Join the First Round');
    console.log(`first load of / (visitor): ${scripts.length} scripts, ${kb(total)} compressed, ${kb(scripts.reduce((s, e) => s + e.decodedBodySize, 0))} uncompressed`);
    expect(scripts.length).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);

    const page_ = responses.get('/');
    expect(page_?.status()).toBe(200);
    expect(page_?.headers()['cache-control']).toBe('no-cache');

    for (const script of scripts) {
      const path = new URL(script.url).pathname;
      expect(path, 'every script is a hashed build asset').toMatch(/^\/assets\/.+-[\w-]{8}\.js$/);
      const res = responses.get(path);
      expect(res, path).toBeDefined();
      const headers = await res!.allHeaders();
      expect(headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
      if (script.decodedBodySize >= PRECOMPRESSED_FROM) {
        expect(['br', 'gzip'], `${path} content-encoding`).toContain(headers['content-encoding']);
        expect(script.encodedBodySize, path).toBeLessThan(script.decodedBodySize);
      }
    }
  });

  it('a reload takes the hashed assets from the browser cache', async () => {
    const { page, context } = await newPerson(browser);
    contexts.push(context);
    await firstLoad(page, 'Join the First Round');
    const navigation = page.waitForResponse((r) => new URL(r.url()).pathname === '/sign-up');
    await page.reload();
    // The page itself is asked again (no-cache), so a new build is picked up at once.
    expect((await navigation).headers()['cache-control']).toBe('no-cache');
    await page.getByRole('heading', { name: 'Join the First Round' }).waitFor();
    await page.waitForLoadState('networkidle');
    const scripts = await scriptsLoaded(page);
    expect(scripts.length).toBeGreaterThan(0);
    // transferSize 0: taken from the cache without asking the server (a revalidation would count its 304).
    for (const script of scripts) expect(script.transferSize, `${script.url} came over the network`).toBe(0);
  });

  it('a signed-in player: at most 190 KB of JS on the first load of / (the groups screen and the live layer)', async () => {
    const first = await newPerson(browser);
    contexts.push(first.context);
    await signUpThroughUi(first.page, uniqueEmail('firstload'), uniqueUsername('Load'));
    await acceptRules(first.page);
    // Same session (cookies, storage), empty HTTP cache.
    const context = await newContext(browser, { viewport: { width: 1280, height: 900 }, storageState: await first.context.storageState() });
    contexts.push(context);
    const page = await context.newPage();
    const { scripts, total } = await firstLoad(page, 'My Groups', true);
    // The live layer is part of it (a lazy chunk, loaded for signed-in players only).
    expect(scripts.some((s) => /\/assets\/draft-live-/.test(s.url))).toBe(true);
    console.log(`first load of / (player): ${scripts.length} scripts, ${kb(total)} compressed`);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
