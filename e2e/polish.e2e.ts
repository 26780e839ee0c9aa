import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Request, Response } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { BASE_URL, uniqueEmail, uniqueUsername } from './support/env';
import { signInWithSession } from './support/session';
import { acceptRules, signUpThroughUi, waitForPath } from './support/ui';

/**
 * Polish: the loading shell in index.html, a title per screen, the skip link, a
 * signed-out visit with no failing request, and the self-hosted display face for headings.
 */
describe('polish', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** document.title follows the page's h1 ("Edit Picks · First Round"; a title naming the product stands alone). */
  async function expectTitleOfHeading(page: Page) {
    const h1 = (await page.getByRole('heading', { level: 1 }).first().innerText()).trim();
    const expected = h1.includes('First Round') ? h1 : `${h1} · First Round`;
    await expect.poll(() => page.title()).toBe(expected);
    return expected;
  }

  it('index.html carries a branded loading shell, shown before any script runs and replaced by the app', async () => {
    const html = await (await fetch(`${BASE_URL}/sign-up`)).text();
    expect(html).toMatch(/<div id="root">\s*<div class="fr-shell" data-loading-shell>/);
    expect(html).toContain('Getting the draft board ready');
    // The policy allows no inline script: every script tag loads a file.
    expect(html.match(/<script\b[^>]*>/g)?.every((tag) => /\bsrc=/.test(tag))).toBe(true);

    const { page, context } = await newPerson(browser, { width: 375, height: 800 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A very slow link for the app's code: nothing of it arrives until released.
    await context.route('**/assets/*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/sign-up', { waitUntil: 'commit' });
    const shell = page.locator('[data-loading-shell]');
    await shell.getByRole('status').getByText('Getting the draft board ready').waitFor();
    await shell.getByText('First Round').waitFor();
    expect(await page.evaluate<string>(`getComputedStyle(document.querySelector('[data-loading-shell] header')).backgroundColor`)).toBe('rgb(11, 31, 58)');
    expect(await page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor')).toBe('rgb(250, 250, 250)');
    release();
    await page.getByRole('heading', { name: 'Join the First Round' }).waitFor();
    expect(await shell.count()).toBe(0);
    await context.close();
  });

  it('a signed-out visit makes no failing request and asks for no token; a session asks again after a reload, a signed-out one not', async () => {
    const { page, context } = await newPerson(browser);
    const failures: string[] = [];
    const tokenAsks: string[] = [];
    page.on('response', (res: Response) => {
      if (res.status() >= 400) failures.push(`${res.status()} ${res.request().method()} ${new URL(res.url()).pathname}`);
    });
    // A request the page itself cancels (the live stream closing at sign-out or a reload) is no failure.
    page.on('requestfailed', (req: Request) => {
      if (req.failure()?.errorText !== 'net::ERR_ABORTED') failures.push(`failed ${new URL(req.url()).pathname}: ${req.failure()?.errorText}`);
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error') failures.push(`console: ${msg.text()}`);
    });
    page.on('request', (req: Request) => {
      if (new URL(req.url()).pathname === '/idp/token') tokenAsks.push(page.url());
    });
    for (const path of ['/', '/sign-up', '/sign-in', '/how-to-play', '/my-picks']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
    }
    expect(failures).toEqual([]);
    expect(tokenAsks).toEqual([]);

    // Signed in, the readable hint is there (never the session itself) and a reload keeps the session.
    await signUpThroughUi(page, uniqueEmail('hint'), uniqueUsername('Hint'));
    await acceptRules(page);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'fr_signed_in')).toMatchObject({ value: '1', path: '/', httpOnly: false });
    expect(cookies.find((c) => c.name === 'fr_session')).toMatchObject({ path: '/idp', httpOnly: true });
    const asked = page.waitForResponse((res) => new URL(res.url()).pathname === '/idp/token');
    await page.reload();
    expect((await asked).status()).toBe(200);
    await page.getByRole('link', { name: 'Settings' }).waitFor();

    // Signed out, the hint is gone with the session, and the next visit asks nothing again.
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Log Out' }).click();
    await waitForPath(page, '/sign-in');
    expect((await context.cookies()).map((c) => c.name)).not.toContain('fr_signed_in');
    tokenAsks.length = 0;
    failures.length = 0;
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome Back to First Round' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(tokenAsks).toEqual([]);
    expect(failures).toEqual([]);
    await context.close();
  });

  it('gives every screen its own title, on a full load and on navigation inside the app', async () => {
    const { page, context } = await newPerson(browser);
    await page.goto('/sign-in');
    await page.getByRole('heading', { name: 'Welcome Back to First Round' }).waitFor();
    expect(await expectTitleOfHeading(page)).toBe('Welcome Back to First Round');
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await page.title()).toBe('Page Not Found · First Round');

    await signInWithSession(page, uniqueEmail('titles'), uniqueUsername('Titles'));
    await acceptRules(page);
    // The page the rules lead to, once drawn (the screen behind the dialog may still show its own heading).
    await page.getByRole('heading', { name: 'Edit Picks', level: 1 }).waitFor();
    expect(await expectTitleOfHeading(page)).toBe('Edit Picks · First Round');
    const seen = new Set<string>();
    for (const [path, heading] of [
      ['/groups', 'My Groups'],
      ['/select-players', 'Select Players'],
      ['/leaderboard', 'Global Leaderboard'],
      ['/settings', 'Settings'],
      ['/how-to-play', 'How to Win the NFL Draft Game'],
      ['/groups/create', 'Create a Group'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      seen.add(await expectTitleOfHeading(page));
    }
    expect(seen.size).toBe(6);

    // A group's page is titled with its name; the tabs retitle the page as they go.
    const name = `Title Club ${Date.now().toString(36)}`;
    await page.getByRole('textbox', { name: 'Group Name' }).fill(name);
    await page.getByRole('button', { name: 'Create Group' }).click();
    await waitForPath(page, /^\/groups\/\d+$/);
    await expect.poll(() => page.title()).toBe(`${name} · First Round`);
    await page.getByRole('link', { name: 'Leaderboard' }).click();
    await expect.poll(() => page.title()).toBe('Global Leaderboard · First Round');
    await page.getByRole('link', { name: 'My Picks' }).click();
    await expect.poll(() => page.title()).toBe('Edit Picks · First Round');
    await context.close();
  });

  it('offers a skip link first, which takes the keyboard past the header into the page', async () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 375, height: 800 },
    ]) {
      const { page, context } = await newPerson(browser, viewport);
      await page.goto('/sign-in');
      await page.getByRole('heading', { name: 'Welcome Back to First Round' }).waitFor();
      const skip = page.getByRole('link', { name: 'Skip to main content' });
      // Out of sight until the keyboard reaches it.
      expect((await skip.boundingBox())!.y + (await skip.boundingBox())!.height).toBeLessThanOrEqual(0);
      await page.keyboard.press('Tab');
      expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Skip to main content');
      const box = (await skip.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      await page.keyboard.press('Enter');
      expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('main');
      expect(new URL(page.url()).pathname).toBe('/sign-in');
      // The next stop is inside the page, not the header's home link.
      await page.keyboard.press('Tab');
      expect(await page.evaluate<boolean>(`Boolean(document.activeElement?.closest('main'))`)).toBe(true);
      await context.close();
    }
  });

  it('sets headings in the self-hosted display face, fetching nothing from another origin', async () => {
    const { page, context } = await newPerson(browser);
    const origins = new Set<string>();
    const fonts: string[] = [];
    page.on('request', (req: Request) => {
      origins.add(new URL(req.url()).origin);
      if (req.resourceType() === 'font') fonts.push(new URL(req.url()).pathname);
    });
    await page.goto('/sign-up');
    await page.getByRole('heading', { name: 'Join the First Round' }).waitFor();
    await page.evaluate('document.fonts.ready.then(() => true)');
    await page.waitForLoadState('networkidle');
    expect([...origins]).toEqual([new URL(BASE_URL).origin]);
    expect(fonts).toEqual([expect.stringMatching(/^\/assets\/barlow-condensed-latin-800-normal-[\w-]+\.woff2$/)]);
    const face = await page.evaluate<string>(`getComputedStyle(document.querySelector('h1')).fontFamily`);
    expect(face).toMatch(/^"?Barlow Condensed"?,/);
    expect(await page.evaluate<boolean>(`document.fonts.check('800 24px "Barlow Condensed"')`)).toBe(true);
    await context.close();
  });
});
