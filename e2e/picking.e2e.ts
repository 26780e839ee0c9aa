import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { uniqueEmail, uniqueUsername } from './support/env';
import { listPlayers } from './support/operator';
import { signInWithSession } from './support/session';
import { acceptRules, expectNoHorizontalScroll, toastText, togglePlayer, waitForPath } from './support/ui';
import { watchForText } from './support/watch-text';

/**
 * Picking that shows the risk: '10 / 32' with a progress bar and a hard stop at 32,
 * Save disabled at 0, '1 selection', 'Selected only', a band per player with the board's legend and the
 * one-miss reminder, and the riskiest pick named on save. At 375 px, where the bar is tightest. The editor's
 * logic alone (taps made before the saved picks arrive, the unsaved-changes guard, search and filters) is
 * checked in client/src/components/player-selection/picks-editor.test.tsx.
 */
describe('picking that shows the risk', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const count = (page: Page) => page.getByTestId('pick-count');
  const progress = (page: Page) => page.getByRole('progressbar', { name: 'Picks used' });
  const save = (page: Page) => page.getByRole('button', { name: 'Save Picks' });
  const bandOf = (page: Page, name: string) => page.getByRole('list', { name: 'Players' }).getByRole('button', { name }).locator('[data-band]');

  it('counts to 32 and stops there, with the bands, Selected only, and the riskiest pick on save', async () => {
    const { page, context } = await newPerson(browser, { width: 375, height: 800 });
    // The count may never pass the limit, not even for a frame.
    const overLimit = await watchForText(context, ['33 / 32', '33 selections']);
    await signInWithSession(page, uniqueEmail('risk'), uniqueUsername('Risk'));
    await acceptRules(page);
    await page.goto('/select-players');
    await page.getByRole('heading', { name: 'Select Players', level: 1 }).waitFor();
    await expectNoHorizontalScroll(page);

    // Nothing picked: 0 / 32, and Save disabled with the reason next to it.
    expect(await count(page).innerText()).toBe('0 / 32');
    await page.getByText('0 selections', { exact: true }).waitFor();
    expect(await progress(page).getAttribute('aria-valuenow')).toBe('0');
    expect(await save(page).isDisabled()).toBe(true);
    await page.getByText('Please select at least one player').waitFor();

    // The bands as the board draws them, and the rule that makes them matter.
    const legend = page.getByRole('list', { name: 'Risk bands' }).getByRole('listitem');
    expect(await legend.allInnerTexts()).toEqual(['SAFE #1–20', 'BUBBLE #21–40', 'LONG SHOT #41+']);
    await page.getByText('One miss zeroes the entry').waitFor();
    const board = await listPlayers();
    const rank = (r: number) => board.find((p) => p.rank === r)!.player_name;
    for (const [r, band] of [[1, 'safe'], [20, 'safe'], [21, 'bubble'], [35, 'bubble'], [40, 'bubble'], [41, 'long_shot'], [120, 'long_shot']] as const) {
      expect(await bandOf(page, rank(r)).getAttribute('data-band'), `#${r}`).toBe(band);
    }
    expect(await bandOf(page, 'Jaxson Dart').innerText()).toMatch(/^bubble$/i);

    // One pick: the singular, 1 / 32, Save enabled.
    await togglePlayer(page, 'Travis Hunter');
    await page.getByText('1 selection', { exact: true }).waitFor();
    expect(await count(page).innerText()).toBe('1 / 32');
    expect(await save(page).isEnabled()).toBe(true);
    expect(await page.getByText('Please select at least one player').count()).toBe(0);
    await togglePlayer(page, 'Jaxson Dart');
    await page.getByText('2 selections', { exact: true }).waitFor();

    // Selected only: just the two picks, in board order; off again, the whole board.
    const rows = page.getByRole('list', { name: 'Players' }).getByRole('button');
    await page.getByRole('button', { name: 'Selected only' }).click();
    expect(await page.getByRole('button', { name: 'Selected only' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => rows.count()).toBe(2);
    expect((await rows.allInnerTexts()).map((t) => t.split('\n').find((line) => /[a-z]/.test(line)))).toEqual(['Travis Hunter', 'Jaxson Dart']);
    await expectNoHorizontalScroll(page);
    await page.getByRole('button', { name: 'Selected only' }).click();
    await expect.poll(() => rows.count()).toBe(board.length);

    // Up to 32: ranks 2–31 join Travis Hunter (#1) and Jaxson Dart (#35).
    for (let r = 2; r <= 31; r++) await togglePlayer(page, rank(r));
    await page.getByText('32 selections', { exact: true }).waitFor();
    expect(await count(page).innerText()).toBe('32 / 32');
    expect(await progress(page).getAttribute('aria-valuenow')).toBe('32');
    await page.getByText("That's the limit: 32 picks").waitFor();

    // The hard stop: a 33rd tap is refused and says why; the count stays.
    await togglePlayer(page, rank(32));
    await page.locator('[data-scope="toast"][data-part="root"]', { hasText: 'Too Many Picks' }).waitFor();
    expect(await toastText(page)).toContain('Cannot pick more than 32 players');
    expect(await page.getByRole('button', { name: rank(32) }).getAttribute('aria-pressed')).toBe('false');
    expect(await count(page).innerText()).toBe('32 / 32');
    // F8 moves the keyboard to the notifications.
    await page.keyboard.press('F8');
    expect(await page.evaluate(`document.activeElement?.closest('[data-scope="toast"]') != null`)).toBe(true);
    await page.getByRole('button', { name: 'Dismiss notification' }).click();
    // Dropping one makes room again.
    await togglePlayer(page, rank(31));
    await page.getByText('31 selections', { exact: true }).waitFor();
    await togglePlayer(page, rank(31));
    await page.getByText('32 selections', { exact: true }).waitFor();

    // Saved: the toast names the pick most likely to bust the entry.
    await save(page).click();
    await waitForPath(page, '/my-picks');
    await page.locator('[data-scope="toast"][data-part="root"]', { hasText: 'Picks saved' }).waitFor();
    expect(await toastText(page)).toContain('32 players saved. You can change your picks until they lock. Riskiest pick: Jaxson Dart (#35).');
    expect(overLimit).toEqual([]);
    await context.close();
  });

  it("says '1 pick' (singular) on My Picks' status card and names a lone pick as the riskiest", async () => {
    const { page, context } = await newPerson(browser);
    await signInWithSession(page, uniqueEmail('lone'), uniqueUsername('Lone'));
    await acceptRules(page);
    await page.goto('/select-players');
    await togglePlayer(page, 'Tyler Warren');
    await save(page).click();
    await waitForPath(page, '/my-picks');
    await page.locator('[data-scope="toast"][data-part="root"]', { hasText: 'Picks saved' }).waitFor();
    expect(await toastText(page)).toMatch(/1 player saved\. You can change your picks until they lock\. Riskiest pick: Tyler Warren \(#\d+\)\./);
    // My Picks' status card counts the entry: '1 pick · editable until …', never '1 picks'.
    await page.getByRole('status', { name: 'Your entry' }).getByText(/^1 pick(?!s)/).waitFor();
    expect(await page.getByRole('status', { name: 'Your entry' }).getByText(/1 picks/).count()).toBe(0);
    await context.close();
  });
});
