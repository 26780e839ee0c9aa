import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MESSAGES } from '@first-round/shared/messages';
import { launchBrowser, newPerson } from './support/browser';
import { BASE_URL, DEPUTY_EMAIL, uniqueEmail, uniqueUsername } from './support/env';
import { apiSession, readCode, readMail } from './support/idp';
import { enterMailedCode, signInThroughUi, waitForPath } from './support/ui';

/** The landing a signed-out visitor meets on /sign-up, and signing in as a person would. */
describe('the landing and signing in', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    // Something to count: an entry and a group.
    const session = await apiSession(uniqueEmail('counted'), uniqueUsername('Counted'));
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${await session.token()}` };
    const players = (await (await fetch(`${BASE_URL}/api/players/`)).json()) as { id: number }[];
    await fetch(`${BASE_URL}/api/picks/`, { method: 'POST', headers, body: JSON.stringify({ picks: [players[0]!.id] }) });
    await fetch(`${BASE_URL}/api/groups`, { method: 'POST', headers, body: JSON.stringify({ name: `Counted ${Date.now().toString(36)}` }) });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('explains the game before the form: headline, Pick · Lock · Survive, an example entry, live counts', async () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 375, height: 760 },
    ]) {
      const { page, context } = await newPerson(browser, viewport);
      // The counts this page was answered (the other worker's specs add entries meanwhile, and the server
      // counts again each minute, so a read of its own could already be newer than what the page shows).
      const answered = page.waitForResponse((r) => r.url().includes('groups.publicCounts') && r.status() === 200);
      await page.goto('/sign-up');
      await page.getByRole('heading', { name: 'Join the First Round' }).waitFor();
      await page.getByText('Call round one. Survive draft night.').waitFor();
      const steps = page.getByRole('list', { name: 'How to play' }).getByRole('listitem');
      expect((await steps.allInnerTexts()).map((t) => t.split('\n').map((l) => l.trim()).filter(Boolean)[1])).toEqual(['PICK', 'LOCK', 'SURVIVE']);
      const example = page.getByRole('group', { name: 'Example entry' });
      expect(await example.getByRole('img', { name: 'Drafted in round one', exact: true }).count()).toBe(3);
      expect(await example.getByRole('img', { name: 'Not drafted in round one', exact: true }).count()).toBe(1);
      // The counts are the server's, as its answer to this page said them.
      const counts = countsIn(await (await answered).json());
      await page.getByTestId('live-counts').waitFor();
      const shown = await page.getByTestId('live-counts').innerText();
      expect(counts.entries).toBeGreaterThan(0);
      const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
      expect(shown).toBe(`${plural(counts.entries, 'entry', 'entries')} · ${plural(counts.groups, 'group', 'groups')}`);
      // On a phone the pitch comes first, then the form; on a desktop they sit side by side.
      const pitch = (await page.getByRole('region', { name: 'How First Round works' }).boundingBox())!;
      const form = (await page.getByRole('heading', { name: 'Join the First Round' }).boundingBox())!;
      if (viewport.width < 1000) expect(pitch.y + pitch.height).toBeLessThan(form.y);
      else expect(pitch.x + pitch.width).toBeLessThan(form.x);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await context.close();
    }
  });

  it("answers an address no account has as any other, mails it how to make one, and offers 'Create an account with …'", async () => {
    const { page, context } = await newPerson(browser);
    const email = uniqueEmail('bob');
    await page.goto('/sign-in');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Send Code' }).click();
    // The code step, as for an address with an account: the page cannot tell, the mail does.
    await page.getByRole('textbox', { name: 'Verification code' }).waitFor();
    await page.getByText(MESSAGES.codeStepNoAccount).waitFor();
    const note = await readMail(email, (m) => m.code === null);
    expect(note.text).toContain(`There is no First Round account for ${email}`);
    const offer = page.getByRole('link', { name: `Create an account with ${email}` });
    await offer.click();
    await waitForPath(page, '/sign-up');
    expect(await page.getByRole('textbox', { name: 'Email' }).inputValue()).toBe(email);
    await page.getByRole('textbox', { name: 'Username' }).fill(uniqueUsername('Bob'));
    await enterMailedCode(page, email, 'Sign Up');
    await page.getByRole('button', { name: 'Verify & Create Account' }).click();
    await waitForPath(page, '/groups');
    await context.close();
  });

  it("shows the wait before 'Resend code', then sends a new code that signs in", async () => {
    const { page, context } = await newPerson(browser);
    await page.clock.install();
    const email = uniqueEmail('again');
    await apiSession(email, uniqueUsername('Again'));
    await page.goto('/sign-in');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Send Code' }).click();
    const waiting = page.getByRole('button', { name: /^Resend code in (1:00|0:[0-5]\d)$/ });
    await waiting.waitFor();
    expect(await waiting.isDisabled()).toBe(true);
    await page.clock.runFor(30_000);
    await page.getByRole('button', { name: /^Resend code in 0:(2\d|30|3[01])$/ }).waitFor();
    await page.clock.runFor(31_000);
    const resend = page.getByRole('button', { name: 'Resend code', exact: true });
    await resend.waitFor();
    expect(await resend.isEnabled()).toBe(true);
    const since = Date.now();
    await resend.click();
    await waiting.waitFor();
    await page.getByRole('textbox', { name: 'Verification code' }).fill(await readCode(email, since));
    await page.getByRole('button', { name: 'Verify & Sign In' }).click();
    await waitForPath(page, '/groups');
    await context.close();
  });

  it('returns the player to the page they asked for after signing in', async () => {
    const { page, context } = await newPerson(browser);
    const email = uniqueEmail('asked');
    const session = await apiSession(email, uniqueUsername('Asked'));
    await fetch(`${BASE_URL}/api/users/me/status`, { method: 'PATCH', headers: { authorization: `Bearer ${await session.token()}` } });
    await page.goto('/leaderboard');
    await waitForPath(page, '/sign-in?next=%2Fleaderboard');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await enterMailedCode(page, email, 'Send Code');
    await page.getByRole('button', { name: 'Verify & Sign In' }).click();
    await waitForPath(page, '/leaderboard');
    await page.getByRole('heading', { name: 'Global Leaderboard' }).waitFor();
    // A crafted ?next= cannot send anyone off the site.
    await page.goto('/sign-in?next=//evil.example/');
    await waitForPath(page, '/groups');
    await context.close();
  });

  it("links 'How to play' from the header, and /admin for operators only", async () => {
    const { page, context } = await newPerson(browser);
    const email = uniqueEmail('nav');
    const session = await apiSession(email, uniqueUsername('Nav'));
    await fetch(`${BASE_URL}/api/users/me/status`, { method: 'PATCH', headers: { authorization: `Bearer ${await session.token()}` } });
    await signInThroughUi(page, email);
    const header = page.getByRole('banner');
    await header.getByRole('link', { name: 'How to play' }).click();
    await waitForPath(page, '/how-to-play');
    await page.getByRole('heading', { name: 'How to Win the NFL Draft Game' }).waitFor();
    expect(await header.getByRole('link', { name: 'How to play' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('heading', { name: 'My Groups' }).or(page.getByRole('link', { name: 'Groups' })).first().waitFor();
    expect(await header.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await context.close();

    const op = await newPerson(browser);
    const operatorSession = await apiSession(DEPUTY_EMAIL, 'DraftDeputy');
    await fetch(`${BASE_URL}/api/users/me/status`, { method: 'PATCH', headers: { authorization: `Bearer ${await operatorSession.token()}` } });
    await signInThroughUi(op.page, DEPUTY_EMAIL);
    await op.page.getByRole('banner').getByRole('link', { name: 'Admin' }).click();
    await waitForPath(op.page, '/admin');
    await op.page.getByRole('heading', { name: 'Draft control' }).waitFor();
    await op.context.close();
  });
});

/** The `{ entries, groups }` inside a tRPC answer, batched or not. */
function countsIn(body: unknown): { entries: number; groups: number } {
  const found: { entries: number; groups: number }[] = [];
  const walk = (value: unknown) => {
    if (!value || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    if (typeof record.entries === 'number' && typeof record.groups === 'number') found.push({ entries: record.entries, groups: record.groups });
    else Object.values(record).forEach(walk);
  };
  walk(body);
  expect(found, 'one counts answer').toHaveLength(1);
  return found[0]!;
}
