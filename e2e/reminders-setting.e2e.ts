import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { uniqueEmail } from './support/env';
import { signInWithSession } from './support/session';
import { acceptRules } from './support/ui';

/**
 * Settings, 'E-mail me before picks lock' (docs/operations.md, "Reminders before the lock"): a player switches the
 * reminders off, and after a reload the box is still off, as the server says (GET /api/users/me/reminders);
 * then on again. The e2e server runs with REMINDERS=false, which stops the timer that sends them, not the
 * player's own setting.
 */

/** The player's setting as the server has it, asked with the browser's own session (a bearer from /idp/token). */
async function serverSetting(page: Page): Promise<unknown> {
  return page.evaluate(async () => {
    const { token } = (await (await fetch('/idp/token', { method: 'POST', credentials: 'include' })).json()) as { token: string };
    const res = await fetch('/api/users/me/reminders', { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as unknown };
  });
}

/**
 * Records the reminders box's state at every animation frame from the start of each page load (an init
 * script, so it sees the load itself): whether it was there, checked and disabled.
 */
const SAMPLE_BOX = `(() => {
  window.__reminderBox = [];
  const sample = () => {
    const box = document.getElementById('email-reminders');
    if (box) window.__reminderBox.push({ checked: box.checked, disabled: box.disabled });
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
})();`;
const samples = (page: Page) => page.evaluate<{ checked: boolean; disabled: boolean }[]>('window.__reminderBox');

describe('Settings: e-mail me before picks lock', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a player switches reminders off; after a reload they are still off, on the page and on the server; then on again', async () => {
    const person = await newPerson(browser);
    page = person.page;
    await person.context.addInitScript(SAMPLE_BOX);
    await signInWithSession(page, uniqueEmail('remind'));
    await acceptRules(page);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Reminders' }).waitFor();
    const box = page.getByRole('checkbox', { name: 'E-mail me before picks lock' });
    // On by default, for a new player too.
    await expectBox(box, { checked: true });
    expect(await serverSetting(page)).toEqual({ status: 200, body: { reminders: true } });

    await box.click();
    await page.getByText('No more e-mails before picks lock').waitFor();
    await expectBox(box, { checked: false });
    expect(await serverSetting(page)).toEqual({ status: 200, body: { reminders: false } });

    await page.reload();
    await page.getByRole('heading', { name: 'Reminders' }).waitFor();
    await expectBox(box, { checked: false });
    // Once it could be used, the box never showed 'on' during the load (sampled every frame).
    const reloaded = await samples(page);
    expect(reloaded.length).toBeGreaterThan(0);
    expect(reloaded.filter((s) => !s.disabled && s.checked)).toEqual([]);
    expect(await serverSetting(page)).toEqual({ status: 200, body: { reminders: false } });

    await box.click();
    await page.getByText('You will get an e-mail before picks lock').waitFor();
    await expectBox(box, { checked: true });
    expect(await serverSetting(page)).toEqual({ status: 200, body: { reminders: true } });
    await page.reload();
    await page.getByRole('heading', { name: 'Reminders' }).waitFor();
    await expectBox(box, { checked: true });
    const loaded = await samples(page);
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter((s) => !s.disabled && !s.checked)).toEqual([]);
  });
});

/** Waits until the box can be used (its setting loaded, no save pending), then checks it. */
async function expectBox(box: ReturnType<Page['getByRole']>, want: { checked: boolean }) {
  await box.and(box.page().locator(':enabled')).waitFor();
  expect(await box.isChecked()).toBe(want.checked);
}
