import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { TIEBREAK_RULE } from '@first-round/shared/messages';
import { launchBrowser, newContext } from './support/browser';
import { BASE_URL, uniqueEmail, uniqueUsername } from './support/env';
import { apiSession } from './support/idp';
import { rest } from './support/rest';
import { signInWithSession } from './support/session';
import { toastText, togglePlayer, waitForPath } from './support/ui';

/**
 * Words and time: one clock on every screen (the reader's own, named), the same words for one thing
 * everywhere, and the slips put right. A player in Los Angeles reads the deadline on the countdown chip,
 * My Picks and How to play the same way; the empty groups text, the join screen's example id, the saved
 * toast, the board's year and the tie-break rule read as they should.
 */
describe('words and time', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('one clock, the reader’s own and named, on every screen that tells the deadline', async () => {
    const email = uniqueEmail('clock');
    const session = await apiSession(email, uniqueUsername('Clock'));
    await rest(session, 'PATCH', '/users/me/status');
    const context = await newContext(browser, { viewport: { width: 1280, height: 900 }, timezoneId: 'America/Los_Angeles' });
    const page = await context.newPage();
    await signInWithSession(page, email);
    const { deadline } = (await (await fetch(`${BASE_URL}/api/draft/status`)).json()) as { deadline: string };
    // The deadline as Los Angeles reads it, written as the app writes every time.
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })
        .formatToParts(new Date(deadline))
        .map((p) => [p.type, p.value]),
    );
    const when = `${parts.weekday} ${parts.month} ${parts.day}, ${parts.hour}:${parts.minute} ${parts.dayPeriod} ${parts.timeZoneName}`;
    expect(when).toMatch(/ P[SD]T$/);

    // The empty groups text, corrected; the countdown chip in the reader's clock.
    await page.getByText("You haven't joined any groups yet. Create one and play against your friends.").waitFor();
    const chip = page.getByRole('timer').filter({ hasText: 'Picks lock' });
    expect(await chip.textContent()).toMatch(new RegExp(`^Picks lock ${when} · \\d+ d$`));
    // My Picks tells the same time in the same words.
    await page.goto('/my-picks');
    await page.getByRole('status', { name: 'Your entry' }).getByText(`editable until ${when}`).waitFor();
    // The saved toast: saved, not 'locked in' (nothing is locked before the lock).
    await page.goto('/select-players');
    await togglePlayer(page, 'Cam Ward');
    await page.getByRole('button', { name: 'Save Picks' }).click();
    await waitForPath(page, '/my-picks');
    expect(await toastText(page)).toContain('1 player saved. You can change your picks until they lock.');
    // How to play: the same clock, with the year; the board's year explained beside a later deadline.
    await page.goto('/how-to-play');
    await page.getByText(when.replace(/^(\w{3} \w{3} \d{1,2}), /, `$1, ${new Date(deadline).getFullYear()}, `)).waitFor();
    const boardYear = page.getByRole('note', { name: 'Which board this is' });
    expect(await boardYear.innerText()).toMatch(/^This board is the \d{4} draft class, to play with until the \d{4} board is loaded/);
    // The tie-break in its one wording, in the rules.
    await page.getByText(TIEBREAK_RULE).waitFor();
    // Joining by id: an example that looks like the real (8-digit) ids.
    await page.goto('/groups/join');
    expect(await page.getByRole('textbox', { name: 'Group ID' }).getAttribute('placeholder')).toBe('e.g. 48213597');
    await context.close();
  });
});
