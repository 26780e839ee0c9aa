import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { uniqueEmail } from './support/env';
import { signInWithSession } from './support/session';
import { acceptRules } from './support/ui';

/**
 * Settings, beside 'Tell me when my picks go': a setting for each other kind of notification (an entry
 * busted, the final result, the reminder before the lock), the player's for all their devices. All on at
 * first; one switched off stays off after a reload, as the server has it (push.preferences).
 */

/** The player's settings as the server has them, asked with the browser's own session. */
function serverPreferences(page: Page): Promise<unknown> {
  return page.evaluate(async () => {
    const { token } = (await (await fetch('/idp/token', { method: 'POST', credentials: 'include' })).json()) as { token: string };
    const res = await fetch('/trpc/push.preferences', { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { result: { data: unknown } }).result.data;
  });
}

const LABELS = ['Tell me when an entry of mine is busted', 'Tell me my final result', 'Remind me before picks lock'] as const;

describe('Settings: a notification setting for each kind', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('all on at first; one switched off stays off after a reload, and the others on', async () => {
    const { page, context } = await newPerson(browser, { width: 375, height: 800 });
    await signInWithSession(page, uniqueEmail('pushkinds'));
    await acceptRules(page);
    await page.goto('/settings');
    const boxes = LABELS.map((name) => page.getByRole('checkbox', { name }));
    for (const box of boxes) await expect.poll(() => box.isDisabled()).toBe(false);
    expect(await Promise.all(boxes.map((b) => b.isChecked()))).toEqual([true, true, true]);

    await boxes[0]!.click();
    await expect.poll(() => serverPreferences(page)).toEqual({ busted: false, final: true, reminder: true });
    await page.reload();
    for (const box of boxes) await expect.poll(() => box.isDisabled()).toBe(false);
    expect(await Promise.all(boxes.map((b) => b.isChecked()))).toEqual([false, true, true]);
    await context.close();
  });
});
