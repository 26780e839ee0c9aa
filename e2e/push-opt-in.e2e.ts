import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MESSAGES } from '@first-round/shared/messages';
import { pushDeviceKeys, startPushService, type PushServiceStandIn } from '../server/src/testing/push-service';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { removeSeeded, seedEntries, serverDatabase } from './support/database';
import { uniqueEmail } from './support/env';
import { listPlayers, operator } from './support/operator';
import { signInWithSession } from './support/session';
import { acceptRules, waitForPath } from './support/ui';

/**
 * The opt-in flow in Chromium, end to end. Chromium's own PushManager.subscribe cannot
 * subscribe here: headless Debian Chromium, offline, with notifications granted, refuses at once with
 * "AbortError: Registration failed - permission denied" (the first test; it has no push messaging service
 * to register with, and Google's, FCM, is out of reach anyway). So the page's `subscribe` — and only it,
 * with `getSubscription` that returns what it made — is replaced by one
 * whose endpoint is the push service stand-in in this process and whose keys are real, made in the page with
 * WebCrypto. From there everything is the app's own: the click asks the browser's permission (granted through
 * Playwright), the server stores the device, a recorded pick is pushed to the stand-in, which checks VAPID and
 * decrypts it with the page's keys; that exact payload goes to the service worker through the DevTools
 * protocol (ServiceWorker.deliverPushMessage); the notification shows, and its click sends the page there.
 */

/**
 * Replaces PushManager's subscribe and getSubscription in this page: real P-256 keys, the stand-in's endpoint
 * (with several, each new subscription takes the next: a browser's new subscription has a new endpoint).
 */
const FAKE_SUBSCRIBE = (...endpoints: string[]) => `(() => {
  let current = null;
  const endpoints = ${JSON.stringify(endpoints)};
  let made = 0;
  const b64u = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  PushManager.prototype.getSubscription = async function () { return current; };
  PushManager.prototype.subscribe = async function (options) {
    const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const p256dh = b64u(await crypto.subtle.exportKey('raw', pair.publicKey));
    const auth = b64u(crypto.getRandomValues(new Uint8Array(16)));
    const { d } = await crypto.subtle.exportKey('jwk', pair.privateKey);
    window.__pushDevice = { d, auth, applicationServerKeyBytes: new Uint8Array(options.applicationServerKey).length };
    const endpoint = endpoints[Math.min(made++, endpoints.length - 1)];
    current = {
      endpoint,
      expirationTime: null,
      options,
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
      unsubscribe: async () => { current = null; return true; },
    };
    return current;
  };
})()`;

async function registrationId(person: Person, origin: string) {
  const cdp = await person.context.newCDPSession(person.page);
  const id = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return { cdp, id: await id };
}

const shownNotifications = (page: Page) =>
  page.evaluate(`(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, url: n.data && n.data.url })))()`) as Promise<
    { title: string; body: string; url: string }[]
  >;

describe('push notifications: opting in and a pick arriving, in Chromium', () => {
  let browser: Browser;
  let service: PushServiceStandIn;
  let op: Awaited<ReturnType<typeof operator>>;

  beforeAll(async () => {
    browser = await launchBrowser();
    service = await startPushService();
    op = await operator();
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
    await service?.close();
  });

  it("Chromium's own subscribe fails here (headless, offline), even with notifications granted", async () => {
    const { page, context } = await newPerson(browser, undefined, { serviceWorkers: 'allow' });
    await page.goto('/sign-up');
    await context.grantPermissions(['notifications'], { origin: new URL(page.url()).origin });
    // A valid VAPID public key (any P-256 point will do to ask).
    const outcome = (await page.evaluate(`(async () => {
      const registration = await navigator.serviceWorker.ready;
      const key = Uint8Array.from(atob('BEl62iUYgUivxIkv69yViEuiBIa+Ib9+SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U'), (c) => c.charCodeAt(0));
      const timeout = new Promise((resolve) => setTimeout(() => resolve('no answer within 8 s'), 8000));
      const attempt = registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }).then(
        (s) => 'subscribed at ' + new URL(s.endpoint).host,
        (e) => e.name + ': ' + e.message,
      );
      return Promise.race([attempt, timeout]);
    })()`)) as string;
    console.log(`Chromium's PushManager.subscribe offline: ${outcome}`);
    expect(outcome).not.toMatch(/^subscribed/);
    await context.close();
  });

  it('a click asks permission and subscribes; a recorded pick is pushed, decrypted, shown, and its click opens My Picks', async () => {
    const person = await newPerson(browser, { width: 375, height: 800 }, { serviceWorkers: 'allow' });
    const { page, context } = person;
    await signInWithSession(page, uniqueEmail('pushin'));
    await acceptRules(page);
    const origin = new URL(page.url()).origin;
    const [first] = await listPlayers();
    // The player's picks: the board's first, who goes first.
    const saved = await page.evaluate(async (playerId) => {
      const { token } = (await (await fetch('/idp/token', { method: 'POST', credentials: 'include' })).json()) as { token: string };
      return (await fetch('/api/picks/', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ picks: [playerId] }) })).status;
    }, first!.id);
    expect(saved).toBe(200);

    const deviceId = `page-${Date.now()}`;
    await context.grantPermissions(['notifications'], { origin });
    await page.goto('/settings');
    await page.evaluate(FAKE_SUBSCRIBE(`${service.origin}/push/${deviceId}`));
    const box = page.getByRole('checkbox', { name: 'Tell me when my picks go' });
    await expect.poll(() => box.isDisabled()).toBe(false);
    expect(await page.evaluate('Notification.permission')).toBe('granted');
    await box.click();
    await page.getByText('On for this device: a notification when one of your picks is taken.').waitFor();
    const keys = (await page.evaluate('window.__pushDevice')) as { d: string; auth: string; applicationServerKeyBytes: number };
    // The server's VAPID public key went to subscribe: an uncompressed P-256 point.
    expect(keys.applicationServerKeyBytes).toBe(65);
    service.adopt(deviceId, keys);

    await op.startDraft();
    await op.recordPick(1, first!.player_name);
    await expect.poll(() => service.received.filter((p) => p.deviceId === deviceId).length, { timeout: 15_000 }).toBe(1);
    const [push] = service.received;
    expect(push!.payload).toMatchObject({ title: expect.stringContaining(`✓ ${first!.player_name} — Pick 1`), body: '1 hit · Alive', url: '/my-picks' });
    expect(service.refused).toEqual([]);

    const { cdp, id } = await registrationId(person, origin);
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data: push!.text });
    await expect.poll(() => shownNotifications(page), { timeout: 10_000 }).toEqual([{ title: (push!.payload as { title: string }).title, body: '1 hit · Alive', url: '/my-picks' }]);

    // The tap: a notificationclick in the worker, on the notification it showed. Made by script, so the
    // event is untrusted (its waitUntil throws) and focusing is not allowed; sending the open window to
    // the page is, and that is what a player sees.
    const [worker] = context.serviceWorkers();
    expect(worker).toBeDefined();
    await worker!.evaluate(`(async () => {
      const [notification] = await self.registration.getNotifications();
      self.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    })()`);
    await waitForPath(page, '/my-picks');
    await page.getByRole('heading', { name: 'My Picks' }).waitFor();
  });

  it('a push service that never answers: within 10 s the switch says so and can be ticked again', async () => {
    const { page, context } = await newPerson(browser, { width: 375, height: 800 }, { serviceWorkers: 'allow' });
    await signInWithSession(page, uniqueEmail('pushsilent'));
    await acceptRules(page);
    await context.grantPermissions(['notifications'], { origin: new URL(page.url()).origin });
    await page.goto('/settings');
    const box = page.getByRole('checkbox', { name: 'Tell me when my picks go' });
    const silent = page.getByText(MESSAGES.pushServiceSilent);

    // The browser's push service: PushManager.subscribe never settles.
    await page.evaluate(`(() => {
      PushManager.prototype.getSubscription = async function () { return null; };
      PushManager.prototype.subscribe = function () { return new Promise(() => {}); };
    })()`);
    await expect.poll(() => box.isDisabled()).toBe(false);
    await box.click();
    await silent.waitFor({ timeout: 30_000 });
    await expect.poll(() => box.isDisabled()).toBe(false);
    expect(await box.isChecked()).toBe(false);

    // The subscription made, and the server's answer to it never comes.
    await page.goto('/settings');
    await page.evaluate(FAKE_SUBSCRIBE(`${service.origin}/push/silent-${Date.now()}`));
    await page.route((url) => url.pathname.includes('push.subscribe'), () => undefined);
    await expect.poll(() => box.isDisabled()).toBe(false);
    await box.click();
    await silent.waitFor({ timeout: 30_000 });
    await expect.poll(() => box.isDisabled()).toBe(false);
    expect(await box.isChecked()).toBe(false);
    expect(await page.getByTestId('push-state').textContent()).toContain('Your browser asks first');
    await context.close();
  });

  it("a browser whose subscription another player left behind: the click makes a new one for this player, and the other's stays theirs", async () => {
    const db = await serverDatabase();
    const prefix = `user_e2epushprev${Date.now()}`;
    try {
      const [previous] = await seedEntries(db, prefix, [{ name: 'Left Behind', picks: [] }]);
      const { page, context } = await newPerson(browser, { width: 375, height: 800 }, { serviceWorkers: 'allow' });
      await signInWithSession(page, uniqueEmail('pushnext'));
      await acceptRules(page);
      await context.grantPermissions(['notifications'], { origin: new URL(page.url()).origin });
      await page.goto('/settings');
      const [left, mine] = [`${service.origin}/push/left-${Date.now()}`, `${service.origin}/push/mine-${Date.now()}`];
      await page.evaluate(FAKE_SUBSCRIBE(left, mine));
      // The browser holds a subscription already, and the server has it as the previous player's.
      await page.evaluate(`(async () => (await navigator.serviceWorker.ready).pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: new Uint8Array(65) }))()`);
      const keys = pushDeviceKeys();
      await db.query(`insert into push_subscription (participant_id, endpoint, p256dh, auth) values ($1, $2, $3, $4)`, [previous, left, keys.p256dh, keys.auth]);

      const box = page.getByRole('checkbox', { name: 'Tell me when my picks go' });
      await expect.poll(() => box.isDisabled()).toBe(false);
      expect(await box.isChecked()).toBe(false);
      await box.click();
      await page.getByText('On for this device: a notification when one of your picks is taken.').waitFor();
      const owners = await db.query<{ endpoint: string; participant_id: string }>(`select endpoint, participant_id from push_subscription where endpoint = any($1::text[])`, [[left, mine]]);
      expect(owners.rows.find((r) => r.endpoint === left)?.participant_id).toBe(previous);
      expect(owners.rows.find((r) => r.endpoint === mine)?.participant_id).toMatch(/./);
      expect(owners.rows.find((r) => r.endpoint === mine)?.participant_id).not.toBe(previous);
      await context.close();
    } finally {
      await db.query(`delete from push_subscription where endpoint like $1`, [`${service.origin}/push/mine-%`]);
      await removeSeeded(db, prefix);
      await db.end();
    }
  });
});
