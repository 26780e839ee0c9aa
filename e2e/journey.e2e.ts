import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { uniqueEmail, uniqueUsername, STEWARD_EMAIL } from './support/env';
import { operator } from './support/operator';
import { acceptRules, signInThroughUi, signUpThroughUi, togglePlayer, waitForPath } from './support/ui';
import { watchForText } from './support/watch-text';

/**
 * The core journey, in order: one player from sign-up to a ranked entry, with the operator starting the
 * draft and recording picks in between. Steps share the page, so they run in sequence.
 */
describe('a player’s draft night', () => {
  let browser: Browser;
  let page: Page;
  let op: Awaited<ReturnType<typeof operator>>;
  const email = uniqueEmail('journey');
  const username = uniqueUsername('Journey');

  beforeAll(async () => {
    browser = await launchBrowser();
    page = (await newPerson(browser)).page;
    op = await operator(STEWARD_EMAIL);
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('signs up with the mailed code and sees the rules, which only their button closes', async () => {
    await signUpThroughUi(page, email, username);
    const dialog = page.getByRole('alertdialog', { name: 'Rules of the Game' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    expect(await dialog.isVisible()).toBe(true);
    await acceptRules(page);
    await page.getByRole('heading', { name: 'Edit Picks', level: 1 }).waitFor();
    await page.getByRole('status', { name: 'Your entry' }).getByText('0 picks').waitFor();
  });

  it('searches, filters and picks five players, then sees them on My Picks', async () => {
    await page.getByRole('link', { name: 'Select Players' }).click();
    await page.getByRole('heading', { name: 'Select Players', level: 1 }).waitFor();
    // My Picks is the current tab on /select-players without a group.
    expect(await page.getByRole('link', { name: 'My Picks' }).getAttribute('aria-current')).toBe('page');

    const search = page.getByRole('textbox', { name: 'Search Players' });
    await search.fill('CAM WARD');
    await togglePlayer(page, 'Cam Ward');
    await search.fill('colorado'); // school search: Travis Hunter and Shedeur Sanders
    await togglePlayer(page, 'Travis Hunter');
    await togglePlayer(page, 'Shedeur Sanders');
    await search.fill('');
    const pos = page.getByRole('combobox', { name: 'Pos' });
    await pos.selectOption('OL'); // OL covers OT, OL and IOL
    await page.getByRole('button', { name: 'Tyler Booker' }).waitFor();
    await togglePlayer(page, 'Will Campbell');
    expect(await page.getByRole('button', { name: 'Abdul Carter' }).count()).toBe(0);
    await pos.selectOption('EDGE');
    await togglePlayer(page, 'Abdul Carter');
    await page.getByText('5 selections').waitFor();
    expect(await page.getByRole('button', { name: 'Abdul Carter' }).getAttribute('aria-pressed')).toBe('true');

    await page.getByRole('button', { name: 'Save Picks' }).click();
    await waitForPath(page, '/my-picks');
    await page.getByRole('status', { name: 'Your entry' }).getByText('5 picks').waitFor();
    const list = page.getByRole('list', { name: 'My picks' });
    for (const name of ['Cam Ward', 'Travis Hunter', 'Shedeur Sanders', 'Will Campbell', 'Abdul Carter']) await list.getByText(name).waitFor();
  });

  it('edits the picks up to six', async () => {
    await page.getByRole('link', { name: 'Edit Picks' }).click();
    await page.getByRole('heading', { name: 'Edit Picks', level: 1 }).waitFor();
    await page.getByText('5 selections').waitFor();
    await page.getByRole('textbox', { name: 'Search Players' }).fill('jeanty');
    await togglePlayer(page, 'Ashton Jeanty');
    await page.getByText('6 selections').waitFor();
    await page.getByRole('button', { name: 'Save Picks' }).click();
    await waitForPath(page, '/my-picks');
    await page.getByRole('status', { name: 'Your entry' }).getByText('6 picks').waitFor();
    // The count comes with the picks, the rows also need the board: wait for the rows themselves.
    const rows = page.getByRole('list', { name: 'My picks' }).getByRole('listitem');
    await rows.nth(5).waitFor();
    expect(await rows.count()).toBe(6);
  });

  it('shows the leaderboard’s before-start text', async () => {
    await page.getByRole('link', { name: 'Leaderboard' }).click();
    await page.getByRole('heading', { name: 'Global Leaderboard' }).waitFor();
    await page.getByText('See how you stack up against all players').waitFor();
    await page.getByText('The leaderboard will be available once the NFL Draft begins.').waitFor();
  });

  it('locks the picks once the operator starts the draft', async () => {
    await op.startDraft();
    await page.goto('/select-players');
    await page.getByRole('heading', { name: 'View Picks', level: 1 }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Search Players' }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Pos' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save Picks' }).count()).toBe(0);
    expect(await page.getByRole('list', { name: 'Your picks' }).getByRole('listitem').count()).toBe(6);
    await page.goto('/my-picks');
    // Locked: the page is a status now, titled My Picks.
    await page.getByRole('heading', { name: 'My Picks', level: 1 }).waitFor();
    await page.getByRole('status', { name: 'Your entry' }).getByText('0 of 6 hit').waitFor();
    expect(await page.getByRole('link', { name: 'Edit Picks' }).count()).toBe(0);
  });

  it('shows check marks and a ranked entry as the operator records picks', async () => {
    await op.recordPick(1, 'Cam Ward');
    await op.recordPick(2, 'Travis Hunter');
    await op.recordPick(3, 'Abdul Carter');
    await page.goto('/my-picks');
    const hits = page.getByRole('img', { name: 'Drafted in round one' });
    await hits.nth(2).waitFor();
    expect(await hits.count()).toBe(3);
    // Drafted picks come first, in draft order.
    const first = await page.getByRole('list', { name: 'My picks' }).getByRole('listitem').first().innerText();
    expect(first).toContain('Cam Ward');

    await page.goto('/leaderboard');
    const row = page.getByRole('list', { name: 'Rankings' }).getByRole('listitem').filter({ hasText: username });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/1\s+.*\s+3/s);
  });

  it('signs out and back in', async () => {
    // Any failure the sign-in could bring ('Failed to …', in a toast or on the page), however briefly.
    const failures = await watchForText(page.context(), ['Failed']);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.getByText(email).waitFor();
    await page.getByRole('button', { name: 'Log Out' }).click();
    await waitForPath(page, '/sign-in');
    await page.goto('/my-picks');
    await waitForPath(page, '/sign-in');
    await signInThroughUi(page, email);
    await page.getByRole('heading', { name: 'My Groups' }).waitFor();
    // The screen has its answers: the player's groups (none) and the public ones, listed or said to be none.
    await page.getByText("You haven't joined any groups yet").waitFor();
    await page.getByRole('list', { name: 'Public groups' }).or(page.getByText('No public groups available to join.')).waitFor();
    // The rules were accepted once: no modal on the next sign-in.
    await page.waitForTimeout(300);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    // No failure since the sign-out, not even for a moment, and none on screen now.
    expect(failures).toEqual([]);
    expect((await page.locator('[data-scope="toast"][data-part="root"]').allInnerTexts()).join(' | ')).not.toContain('Failed');
  }, 120_000);
});
