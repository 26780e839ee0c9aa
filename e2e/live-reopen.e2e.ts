import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { DEPUTY_EMAIL, LIVE_MS, uniqueEmail, uniqueUsername } from './support/env';
import { operator } from './support/operator';
import { signInWithSession } from './support/session';
import { acceptRules, liveStrip } from './support/ui';

/**
 * A page reopens its live stream when the standings page on screen changes (opening the Leaderboard). A
 * change made while the old stream is closed and the new one not yet open reaches neither; the new stream
 * must resume from the draft the page shows and replay it. On a busy machine the operator's start fell in
 * that gap in e2e/live.e2e.ts: the standings showed, the strip never did. Here the reopened stream's request
 * is held back until the start has been made, so the gap is there every time.
 */
describe('a change made while the live stream is reopened', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator(DEPUTY_EMAIL);
    await op.resetDraft();
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('the start made while the Leaderboard reopens the stream still reaches the strip', async () => {
    const { page } = await newPerson(browser);
    await signInWithSession(page, uniqueEmail('reopen'), uniqueUsername('Reopen'));
    await acceptRules(page);
    // The stream that carries the Leaderboard's page (its input names it) waits until the start is made.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    await page.route('**/trpc/draft.changes**', async (route) => {
      if (!decodeURIComponent(route.request().url()).includes('"standings"')) return route.continue();
      held += 1;
      await released;
      return route.continue();
    });
    await page.getByRole('link', { name: 'Leaderboard' }).click();
    await page.getByText('The leaderboard will be available once the NFL Draft begins.').waitFor();
    await expect.poll(() => held, { timeout: LIVE_MS }).toBe(1);

    await op.startDraft();
    release();
    await liveStrip(page, 'The draft has started').waitFor({ timeout: LIVE_MS });
  });
});
