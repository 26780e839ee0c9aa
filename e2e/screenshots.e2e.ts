import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { BASE_URL, OPERATOR_EMAIL, uniqueEmail } from './support/env';
import { apiSession } from './support/idp';
import { operator } from './support/operator';
import { acceptRules, signInThroughUi, signUpThroughUi, togglePlayer, waitForPath } from './support/ui';

/** `npm run screenshots`: the main screens at 1280 and 375 px into docs/screenshots/. */
const OUT = path.resolve(import.meta.dirname, '..', 'docs', 'screenshots');
const SIZES = [
  { name: 'desktop', width: 1280, height: 860 },
  { name: 'phone', width: 375, height: 760 },
] as const;

async function shot(page: Page, name: string, width: number) {
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: path.join(OUT, `${name}-${width}.png`), animations: 'disabled' });
}

describe('screenshots', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  const pages: { page: Page; width: number }[] = [];

  beforeAll(async () => {
    fs.mkdirSync(OUT, { recursive: true });
    browser = await launchBrowser();
    op = await operator();
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('signed-out screens', async () => {
    for (const size of SIZES) {
      const { page, context } = await newPerson(browser, size);
      await page.goto('/sign-up');
      await page.getByRole('heading', { name: 'Join the First Round' }).waitFor();
      await shot(page, 'sign-up', size.width);
      await page.goto('/sign-in');
      await page.getByRole('heading', { name: 'Welcome Back to First Round' }).waitFor();
      await shot(page, 'sign-in', size.width);
      await page.goto('/nowhere');
      await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
      await shot(page, 'not-found', size.width);
      await context.close();
    }
  });

  it('before the draft', async () => {
    const names = { 1280: 'GridironGuru', 375: 'MockDraftMaven' } as const;
    for (const size of SIZES) {
      const { page } = await newPerson(browser, size);
      pages.push({ page, width: size.width });
      await signUpThroughUi(page, uniqueEmail(size.name), names[size.width]);
      await page.getByRole('alertdialog', { name: 'Rules of the Game' }).waitFor();
      await shot(page, 'rules-modal', size.width);
      await acceptRules(page);
      await shot(page, 'my-picks-empty', size.width);
      await page.goto('/select-players');
      await page.getByRole('heading', { name: 'Select Players' }).waitFor();
      const picks = size.width === 1280 ? ['Travis Hunter', 'Abdul Carter', 'Cam Ward', 'Will Campbell', 'Mason Graham', 'Shedeur Sanders'] : ['Travis Hunter', 'Abdul Carter', 'Ashton Jeanty', 'Tyler Warren'];
      for (const name of picks) await togglePlayer(page, name);
      await page.evaluate('window.scrollTo(0, 0)');
      await shot(page, 'select-players', size.width);
      await page.getByRole('combobox', { name: 'Pos' }).selectOption('OL');
      await shot(page, 'select-players-filtered', size.width);
      await page.getByRole('button', { name: 'Save Picks' }).click();
      await waitForPath(page, '/my-picks');
      await page.getByText(`${picks.length} selections`).waitFor();
      await shot(page, 'my-picks', size.width);
      await page.goto('/leaderboard');
      await page.getByText('The leaderboard will be available once the NFL Draft begins.').waitFor();
      await shot(page, 'leaderboard-before-start', size.width);
      await page.goto('/how-to-play');
      await page.getByRole('heading', { name: 'How to Win the NFL Draft Game' }).waitFor();
      await shot(page, 'how-to-play', size.width);
      await page.goto('/settings');
      await page.getByRole('button', { name: 'Update Username' }).waitFor();
      await shot(page, 'settings', size.width);
      await page.goto('/groups');
      await page.getByRole('heading', { name: 'My Groups' }).waitFor();
      await shot(page, 'groups-list', size.width);
    }
  });

  it('after the draft has started', async () => {
    await op.startDraft();
    const results = ['Cam Ward', 'Travis Hunter', 'Abdul Carter', 'Will Campbell', 'Mason Graham', 'Ashton Jeanty', 'Armand Membou', 'Tetairoa McMillan', 'Kelvin Banks Jr.', 'Colston Loveland'];
    for (let i = 0; i < results.length; i++) await op.recordPick(i + 1, results[i]!);
    for (const { page, width } of pages) {
      await page.goto('/my-picks');
      await page.getByRole('img', { name: 'Drafted in round one' }).first().waitFor();
      await shot(page, 'my-picks-drafted', width);
      await page.goto('/select-players');
      await page.getByRole('heading', { name: 'View Picks' }).waitFor();
      await shot(page, 'view-picks', width);
      await page.goto('/leaderboard');
      await page.getByRole('list', { name: 'Rankings' }).waitFor();
      await shot(page, 'leaderboard', width);
      await page.goto('/auth-test');
      await page.getByText('Backend analysis').waitFor();
      await page.getByText('Success', { exact: true }).waitFor();
      await shot(page, 'auth-test', width);
    }
  });

  it('the operator console', async () => {
    // Skip the operator's first-login rules (the account exists: operator() signed it up).
    const session = await apiSession(OPERATOR_EMAIL, 'DraftOperator');
    await fetch(`${BASE_URL}/api/users/me/status`, { method: 'PATCH', headers: { authorization: `Bearer ${await session.token()}` } });
    for (const size of SIZES) {
      const { page, context } = await newPerson(browser, size);
      await signInThroughUi(page, OPERATOR_EMAIL);
      await page.goto('/admin');
      await page.getByRole('heading', { name: 'Draft control' }).waitFor();
      await page.getByRole('list', { name: 'Audit log' }).waitFor();
      await page.getByRole('textbox', { name: 'Player' }).fill('ohio state');
      await page.getByRole('list', { name: 'Matching players' }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(OUT, `admin-${size.width}.png`), fullPage: true, animations: 'disabled' });
      await context.close();
    }
  });
});
