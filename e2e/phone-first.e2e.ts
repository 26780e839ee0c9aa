import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { sidewaysOverflow } from './support/ui';

/**
 * Phone first (375 px): a visitor who lands on the game reaches sign-up without scrolling — the pitch
 * stands above the form on a phone, so its first screen carries the way to the form.
 */
describe('phone first', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('the landing page offers sign-up above the fold, and it leads to the form, focused', async () => {
    const { page, context } = await newPerson(browser, { width: 375, height: 667 });
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/sign-up');
    const cta = page.getByRole('button', { name: 'Get started' });
    await cta.waitFor();
    const box = (await cta.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(667);
    expect(box.x).toBeGreaterThanOrEqual(0);
    await cta.click();
    const email = page.getByRole('textbox', { name: 'Email' });
    await expect.poll(() => email.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    const field = (await email.boundingBox())!;
    expect(field.y).toBeGreaterThanOrEqual(0);
    expect(field.y + field.height).toBeLessThanOrEqual(667);
    expect(await sidewaysOverflow(page)).toMatchObject({ scroll: 0, element: 0 });
    // On a desktop the form stands beside the pitch: no such button.
    await page.setViewportSize({ width: 1280, height: 900 });
    await cta.waitFor({ state: 'hidden' });
    await context.close();
  });
});
