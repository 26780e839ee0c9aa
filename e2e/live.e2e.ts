import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { LIVE_MS, OPERATOR_EMAIL, uniqueEmail, uniqueUsername } from './support/env';
import { operator } from './support/operator';
import { acceptRules, liveStrip, signUpThroughUi, togglePlayer, waitForPath } from './support/ui';
import { signInWithSession } from './support/session';
import { serverDatabase } from './support/database';
import { BUST_RULE } from '@first-round/shared/entry-words';

/**
 * Draft night live: a player keeps the leaderboard and My Picks open (no reload, no navigation)
 * while the operator starts the draft and records picks, from the REST API and from the /admin console.
 * A third tab has its push stream blocked and must catch up by polling. Picks and the start are announced
 * on the draft-night strip under the header; what it cannot show (an undo) still in a toast.
 */

/** A toast with this text on the page. */
function toast(page: Page, text: string) {
  return page.locator('[data-scope="toast"][data-part="root"]').filter({ hasText: text }).first();
}

/** The player's row on the standings. */
function myRow(page: Page, username: string) {
  return page.getByRole('list', { name: 'Rankings' }).getByRole('listitem').filter({ hasText: username });
}

/** The player's own entry, pinned above the standings. */
function yourEntry(page: Page) {
  return page.getByRole('region', { name: 'Your entry' });
}

describe('draft night, live', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  let board: Page; // /leaderboard, never reloaded
  let picks: Page; // /my-picks, never reloaded
  let polled: Page; // /leaderboard with the push stream blocked
  let console_: Page; // the operator's /admin
  let blockedStreams = 0;
  const email = uniqueEmail('live');
  const username = uniqueUsername('Live');

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator();
    await op.resetDraft();
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('a player with picks opens the leaderboard and My Picks', async () => {
    const player = await newPerson(browser);
    board = player.page;
    await signUpThroughUi(board, email, username);
    await acceptRules(board);
    await board.getByRole('link', { name: 'Select Players' }).click();
    const search = board.getByRole('textbox', { name: 'Search Players' });
    for (const name of ['Cam Ward', 'Travis Hunter', 'Shedeur Sanders']) {
      await search.fill(name);
      await togglePlayer(board, name);
    }
    await board.getByRole('button', { name: 'Save Picks' }).click();
    await waitForPath(board, '/my-picks');

    picks = await player.context.newPage();
    await picks.goto('/my-picks');
    await picks.getByRole('status', { name: 'Your entry' }).getByText('3 picks').waitFor();
    await picks.getByRole('link', { name: 'Edit Picks' }).waitFor();

    polled = await player.context.newPage();
    await polled.route('**/trpc/draft.changes**', (route) => {
      blockedStreams += 1;
      return route.abort();
    });
    await polled.goto('/leaderboard');
    await polled.getByText('The leaderboard will be available once the NFL Draft begins.').waitFor();

    await board.getByRole('link', { name: 'Leaderboard' }).click();
    await board.getByText('The leaderboard will be available once the NFL Draft begins.').waitFor();
  });

  it('the draft starting locks the picks and opens the standings, live', async () => {
    await op.startDraft();
    await myRow(board, username).waitFor({ timeout: LIVE_MS });
    await liveStrip(board, 'The draft has started').waitFor({ timeout: LIVE_MS });
    await board.getByText('1 entry · 1 still alive').or(board.getByText(/entries · \d+ still alive/)).waitFor();
    expect(await myRow(board, username).innerText()).toContain('Alive');
    // My Picks loses its Edit Picks button without a reload.
    await picks.getByRole('link', { name: 'Edit Picks' }).waitFor({ state: 'detached', timeout: LIVE_MS });
    await picks.getByText('3 pending').waitFor();
  });

  it('a recorded pick shows up on the strip, as a score and a check mark', async () => {
    await op.recordPick(1, 'Cam Ward');
    await liveStrip(board, 'Pick 1 · TEN · Cam Ward, QB, Miami').waitFor({ timeout: LIVE_MS });
    // Cam Ward is in the player's entry; My Picks carries the same strip.
    await liveStrip(board, 'Cam Ward, QB, Miami · your entry ✓').waitFor({ timeout: LIVE_MS });
    await liveStrip(picks, 'Pick 1 · TEN · Cam Ward, QB, Miami · your entry ✓').waitFor({ timeout: LIVE_MS });
    expect(await toast(board, 'Pick 1').count()).toBe(0);
    await myRow(board, username).getByLabel('1 correct pick').waitFor({ timeout: LIVE_MS });
    expect(await myRow(board, username).innerText()).toMatch(/Tie-break: boldest hit, #\d+ on the board/);
    const list = picks.getByRole('list', { name: 'My picks' });
    await list.getByRole('img', { name: 'Drafted in round one' }).waitFor({ timeout: LIVE_MS });
    expect(await list.getByRole('listitem').first().innerText()).toMatch(/Cam Ward[\s\S]*Hit · Pick 1/i);
    expect(await list.getByText('Pending').count()).toBe(2);
  });

  it('the operator records a pick from the console by searching, undoes it, and sees the audit log', async () => {
    // The operator's account exists (operator() signed it up): a first login, as for a new operator.
    const db = await serverDatabase();
    try {
      await db.query('update participant set is_first_login = true where lower(email) = lower($1)', [OPERATOR_EMAIL]);
    } finally {
      await db.end();
    }
    console_ = (await newPerson(browser)).page;
    await signInWithSession(console_, OPERATOR_EMAIL);
    // The rules of a first login, dismissed on the console, leave the operator on the console.
    await console_.goto('/admin');
    const rules = console_.getByRole('alertdialog', { name: 'Rules of the Game' });
    await rules.getByRole('button', { name: 'Play First Round' }).click();
    await rules.waitFor({ state: 'hidden' });
    await console_.getByRole('heading', { name: 'Draft control' }).waitFor();
    expect(new URL(console_.url()).pathname).toBe('/admin');
    await console_.getByText('1 / 32').waitFor();

    const slot = console_.getByRole('textbox', { name: 'Slot' });
    expect(await slot.inputValue()).toBe('2');
    await console_.getByRole('textbox', { name: 'Player' }).fill('colorado');
    const matches = console_.getByRole('list', { name: 'Matching players' });
    await matches.getByRole('button', { name: /Travis Hunter/ }).click();
    await console_.getByRole('button', { name: 'Record pick 2: Travis Hunter' }).click();

    await liveStrip(board, 'Pick 2 · JAX · Travis Hunter, CB/WR, Colorado · your entry ✓').waitFor({ timeout: LIVE_MS });
    await board.getByRole('list', { name: 'Earlier picks' }).getByText('Pick 1 · TEN · Cam Ward, QB').waitFor();
    await myRow(board, username).getByLabel('2 correct picks').waitFor({ timeout: LIVE_MS });
    // The audit log outlives this spec (others record picks too): look at the newest entry only.
    const log = console_.getByRole('list', { name: 'Audit log' });
    const newest = () => log.getByRole('listitem').first();
    await newest().getByText('Pick 2: Travis Hunter').waitFor();
    expect(await log.getByRole('listitem').first().innerText()).toContain(`by ${OPERATOR_EMAIL}`);
    // Its time names its zone, as every time the game tells ('Apr 23, 08:14:05 PM EDT', 'UTC', 'GMT+2').
    expect(await newest().locator('time').innerText()).toMatch(/\d\d:\d\d:\d\d [AP]M (UTC|GMT[+-]?\d*|[A-Z]{2,5})$/);
    // Drafted players leave the search.
    await console_.getByRole('textbox', { name: 'Player' }).fill('Travis Hunter');
    await console_.getByText('No undrafted player matches.').waitFor();

    await console_.getByRole('button', { name: 'Undo last change' }).click();
    const dialog = console_.getByRole('alertdialog', { name: 'Undo the last change?' });
    await dialog.getByText('pick 2 (Travis Hunter)').waitFor();
    await dialog.getByRole('button', { name: 'Undo' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await newest().getByText('Undid pick 2 (Travis Hunter)').waitFor();
    // The strip cannot say a pick was taken back (it just shows the one before): that is still a toast.
    await toast(board, 'Pick 2 undone').waitFor({ timeout: LIVE_MS });
    await liveStrip(board, 'Pick 1 · TEN · Cam Ward, QB, Miami').waitFor({ timeout: LIVE_MS });
    await myRow(board, username).getByLabel('1 correct pick').waitFor({ timeout: LIVE_MS });
    expect(await slot.inputValue()).toBe('2');
  });

  it('marking round one complete busts the entry everywhere, also where push is blocked (polling)', async () => {
    await console_.getByRole('button', { name: 'Mark round one complete' }).click();
    const dialog = console_.getByRole('alertdialog', { name: 'Mark round one complete?' });
    // One pick of 32 is in: the console asks knowing the rest stay empty.
    await dialog.getByText('1 of 32 picks are in: 31 slots have no pick: they will stay empty.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Mark complete' }).click();
    await console_.getByRole('list', { name: 'Audit log' }).getByRole('listitem').first().getByText('Marked round one complete').waitFor();

    // The pinned entry says it at once; the row is in the standings, or, once fewer entries are alive than
    // busted (other specs' entries may be on the board too), under 'Busted (N)' until that is opened.
    await yourEntry(board).getByText('Busted', { exact: true }).waitFor({ timeout: LIVE_MS });
    // One number: the hits it had, and why it busted (the standings have no names: the misses counted).
    await yourEntry(board).getByText('had 1 hit · 2 picks were not drafted in round one', { exact: true }).waitFor();
    const rowIn = (list: string) => board.getByRole('list', { name: list }).getByRole('listitem').filter({ hasText: username });
    const fold = board.getByRole('button', { name: /^Busted \(\d+\)$/ });
    await fold.or(rowIn('Rankings').getByText('Busted', { exact: true })).first().waitFor();
    if (await fold.isVisible()) await fold.click();
    await rowIn((await fold.isVisible()) ? 'Busted entries' : 'Rankings').getByLabel('Busted: score 0, had 1 hit').waitFor();
    const list = picks.getByRole('list', { name: 'My picks' });
    await list.getByText(/✗ Missed/).nth(1).waitFor({ timeout: LIVE_MS });
    await picks.getByText(/^BUSTED: (Travis Hunter|Shedeur Sanders) was not drafted in round one \(and 1 other miss\)$/).waitFor();
    // One number everywhere: the score is 0, and the hits it had read as the standings say them.
    await picks.getByRole('status', { name: 'Your entry' }).getByText(/^Final · busted · had 1 hit · \d+(st|nd|rd|th) of \d+$/).waitFor();
    expect(await picks.getByText(/\d+ of 3 hit/).count()).toBe(0);
    // The standings that say Busted say why an entry busts, the slots-left way included.
    await board.getByTestId('bust-rule').getByText(BUST_RULE).waitFor();

    // The blocked tab never had a stream: it fell back to polling draft.status and caught up.
    expect(blockedStreams).toBeGreaterThan(0);
    // Without push the tab polls draft.status every POLL_INTERVAL_MS (15 s): allow one period plus margin.
    await yourEntry(polled).getByText('Busted', { exact: true }).waitFor({ timeout: 35_000 });
    expect(await toast(polled, 'Pick 1: Cam Ward').count()).toBe(0);
  }, 60_000);

  it('/live after the round: Final, and the slots nobody filled are empty, not waiting', async () => {
    const visitor = await newPerson(browser, { width: 375, height: 800 });
    try {
      const { page } = visitor;
      await page.goto('/live');
      await page.getByRole('heading', { name: 'Draft night: Final', level: 1 }).waitFor();
      const board = page.getByRole('list', { name: 'Round one picks' });
      await board.locator('li[data-slot="2"]').getByText('No pick (round complete)').waitFor();
      expect(await page.getByText('Not picked yet').count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Draft night, live' }).count()).toBe(0);
    } finally {
      await visitor.context.close();
    }
  });

  it('the console is a 404 for everyone else', async () => {
    // Only now does the player's tab navigate: every check above ran without a reload.
    await picks.goto('/admin');
    await picks.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await picks.getByRole('heading', { name: 'Draft control' }).count()).toBe(0);
  });
});
