import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { axeFindings, serveAxe } from './support/axe';
import { uniqueEmail } from './support/env';
import { acceptRules } from './support/ui';
import { signInWithSession } from './support/session';

/**
 * The checks Lighthouse makes of an installable app, as a player's browser meets them: the
 * manifest (served as application/manifest+json, with the name, the icons at the sizes it says, /groups
 * to start at, standalone, the colours), the service worker (registered, in control after a reload,
 * served never stale), and a reload offline that still opens the app and says it is offline, with no
 * API answer kept in the worker's caches.
 */
const OFFLINE = "You're offline — standings update when you're back";

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** Waits until a service worker controls the page (a reload after the first visit hands it over). */
async function controlled(page: Page) {
  await page.waitForFunction('navigator.serviceWorker.controller !== null && navigator.serviceWorker.controller.state === "activated"', undefined, { timeout: 15_000 });
}

/** Every URL held in the page's Cache Storage, cache by cache. */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(`(async () => {
    const urls = [];
    for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
    return urls;
  })()`);
}

describe('installable: manifest, service worker, offline', () => {
  let browser: Browser;
  let player: Person;

  beforeAll(async () => {
    browser = await launchBrowser();
    // The one spec (with push-worker's) that keeps the worker: it is what this spec checks.
    player = await newPerson(browser, { width: 375, height: 800 }, { serviceWorkers: 'allow' });
    await serveAxe(player.context);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the manifest is linked, served as application/manifest+json and valid; its icons load at their sizes', async () => {
    const { page } = player;
    await page.goto('/sign-up');
    await page.getByRole('heading', { name: 'Join the First Round' }).waitFor();
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as Record<string, unknown> & { icons: ManifestIcon[] };
    expect(manifest.name).toBe('First Round');
    expect(manifest.short_name).toBe('First Round');
    expect(manifest.start_url).toBe('/groups');
    expect(manifest.display).toBe('standalone');
    expect(manifest.theme_color).toBe('#0b1f3a');
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
    // The page's own theme colour agrees with the manifest's (the browser's bar while it loads).
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe(manifest.theme_color);

    // Lighthouse wants a 192 px and a 512 px icon, and a maskable one for Android's shapes.
    const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`);
    expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
    const apple = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    const icons = [...manifest.icons, { src: apple!, sizes: '180x180', type: 'image/png' }];
    for (const icon of icons) {
      const drawn = await page.evaluate(
        `new Promise((resolve, reject) => { const img = new Image(); img.onload = () => resolve(img.naturalWidth + 'x' + img.naturalHeight); img.onerror = () => reject(new Error('no image')); img.src = ${JSON.stringify(icon.src)}; })`,
      );
      expect(drawn, icon.src).toBe(icon.sizes);
      const served = await page.request.get(icon.src);
      expect(served.headers()['content-type'], icon.src).toBe(icon.type);
    }
  });

  it('the service worker registers, is never cached stale, and controls the page from the next visit', async () => {
    const { page } = player;
    await signInWithSession(page, uniqueEmail('installed'));
    await acceptRules(page);
    const scope = await page.evaluate('navigator.serviceWorker.ready.then((r) => r.scope)');
    expect(scope).toBe(`${new URL(page.url()).origin}/`);
    const sw = await page.request.get('/sw.js');
    expect(sw.status()).toBe(200);
    expect(sw.headers()['content-type']).toMatch(/^application\/javascript/);
    expect(sw.headers()['cache-control']).toBe('no-cache');
    expect((await page.request.get('/manifest.webmanifest')).headers()['cache-control']).toBe('no-cache');

    // The app as installed opens at /groups (the manifest's start_url).
    await page.goto('/groups');
    await page.getByRole('heading', { name: 'My Groups', level: 1 }).waitFor();
    await controlled(page);
    const urls = await cachedUrls(page);
    // The shell and the build's hashed files are there; not one answer of the API, the sign-in or the stream.
    expect(urls).toContain('/index.html');
    expect(urls.some((u) => /^\/assets\/index-[\w-]{8}\.js$/.test(u))).toBe(true);
    expect(urls.filter((u) => /^\/(api|trpc|idp|s)\//.test(u))).toEqual([]);
  });

  it('offline, a reload still opens the app and says so plainly; back online the message goes and the page fills', async () => {
    const { page, context } = player;
    await controlled(page);
    await context.setOffline(true);
    await page.reload();
    // The shell from the worker's cache, the app's header, and the one plain message: no error page.
    await page.getByRole('status').filter({ hasText: OFFLINE }).waitFor();
    await page.getByRole('link', { name: 'Groups' }).first().waitFor();
    await expect(page.getByText(/Failed to load|Something went wrong|This site can.t be reached/i).count()).resolves.toBe(0);
    expect(new URL(page.url()).pathname).toBe('/groups');
    expect(await axeFindings(page)).toEqual([]);

    await context.setOffline(false);
    await page.getByRole('heading', { name: 'My Groups', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Public Groups' }).waitFor();
    await page.getByText(OFFLINE).waitFor({ state: 'detached' });
    // Still nothing of the API in the caches after all those reads.
    expect((await cachedUrls(page)).filter((u) => /^\/(api|trpc|idp|s)\//.test(u))).toEqual([]);
  });

  it('offline, a page not yet opened still opens: its code comes from the worker whatever the headers of the request', async () => {
    const { page, context } = player;
    const groupName = `Offline ${Date.now().toString(36)}`;
    await page.goto('/groups/create');
    await page.getByRole('textbox', { name: 'Group Name' }).fill(groupName);
    await page.getByRole('button', { name: 'Create Group' }).click();
    await page.waitForURL(/\/groups\/\d+$/);
    const groupPath = new URL(page.url()).pathname;
    await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
    await controlled(page);

    await context.setOffline(true);
    // The leaderboard's chunk was never loaded on this page: a module script, asked for with an Origin header.
    await page.getByRole('link', { name: 'Leaderboard' }).first().click();
    await page.getByRole('heading', { name: 'Global Leaderboard', level: 1 }).waitFor();
    expect(await page.getByText(/Failed to fetch dynamically imported module/).count()).toBe(0);

    // A reload offline opens the group with what was known last, said so, instead of an endless "Loading group...".
    await page.goto(groupPath);
    await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
    await page.getByRole('status').filter({ hasText: /last known/i }).waitFor();
    // Back online it reads again by itself: the mark goes.
    await context.setOffline(false);
    await page.getByRole('status').filter({ hasText: /last known/i }).waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
  });

  it('a page whose code could not load offline (no worker yet) opens once the network is back: never a blank page', async () => {
    const visitor = await newPerson(browser, { width: 375, height: 800 });
    try {
      const { page, context } = visitor;
      await signInWithSession(page, uniqueEmail('chunk'));
      await acceptRules(page);
      await page.goto('/groups');
      await page.getByRole('heading', { name: 'My Groups', level: 1 }).waitFor();
      await context.setOffline(true);
      await page.getByRole('link', { name: 'Leaderboard' }).first().click();
      await page.getByRole('status').filter({ hasText: OFFLINE }).waitFor();
      await context.setOffline(false);
      await page.getByRole('heading', { name: 'Global Leaderboard', level: 1 }).waitFor({ timeout: 20_000 });
    } finally {
      await visitor.context.close();
    }
  });
});
