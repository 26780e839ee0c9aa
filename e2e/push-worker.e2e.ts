import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPerson, type Person } from './support/browser';

/**
 * The service worker's `push` handler, driven through the DevTools protocol
 * (ServiceWorker.deliverPushMessage, as a push service's message arrives), shows the notification with its
 * tag, and a later one with the same tag replaces it. Where a tap leads is not driven here: a script-made
 * notificationclick has no user activation, so the worker may not focus or navigate a window; the URL the
 * tap opens is asserted in the notification's data.
 */
describe('push notifications in the service worker', () => {
  let browser: Browser;
  let player: Person;

  beforeAll(async () => {
    browser = await launchBrowser();
    player = await newPerson(browser, { width: 375, height: 800 }, { serviceWorkers: 'allow' });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the pick with its tag and keeps only the latest, with the page to open in its data', async () => {
    const { page, context } = player;
    await page.goto('/sign-up');
    const origin = new URL(page.url()).origin;
    await context.grantPermissions(['notifications'], { origin });
    await page.evaluate('navigator.serviceWorker.ready.then(() => undefined)');
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const id = await registrationId;
    const deliver = (data: object) => cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data: JSON.stringify(data) });
    await deliver({ title: '✓ Cam Ward — #1 to TEN', body: '1 hit in your picks so far', tag: 'first-round-picks', url: '/my-picks' });
    await deliver({ title: '✓ Travis Hunter — #2 to CLE', body: '2 hits in your picks so far', tag: 'first-round-picks', url: '/leaderboard' });
    const shown = async () =>
      page.evaluate(`(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url })))()`) as Promise<
        { title: string; body: string; tag: string; url: string }[]
      >;
    await expect.poll(shown, { timeout: 10_000 }).toEqual([{ title: '✓ Travis Hunter — #2 to CLE', body: '2 hits in your picks so far', tag: 'first-round-picks', url: '/leaderboard' }]);

  });
});
