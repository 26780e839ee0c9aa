import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { BASE_URL, uniqueEmail, uniqueUsername } from './support/env';
import { apiSession } from './support/idp';
import { signInWithSession } from './support/session';
import { acceptRules } from './support/ui';

/**
 * Guessing a group's password from the Join a Group screen: each wrong password says how many tries are
 * left (it used to keep the generic 'check the group ID and password', which sent players guessing
 * on), and once the limit is reached the player is told when to try again and to ask for an invite link.
 */
describe('join by id, past the wrong-password limit', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Submits the form and waits for the server's answer to the join. */
  async function submitJoin(page: Page, password: string) {
    await page.getByLabel('Password').fill(password);
    const answered = page.waitForResponse((r) => r.url().includes('groups.join'));
    await page.getByRole('button', { name: 'Join Group' }).click();
    return (await answered).status();
  }

  it('says how many tries are left, then when to try again, instead of "check the group ID and password"', async () => {
    const host = await apiSession(uniqueEmail('vaulthost'), uniqueUsername('Vault'));
    const res = await fetch(`${BASE_URL}/api/groups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await host.token()}` },
      body: JSON.stringify({ name: `Vault ${Date.now()}`, password: 'open sesame' }),
    });
    const { group_id } = (await res.json()) as { group_id: number };
    expect(group_id).toBeGreaterThanOrEqual(10_000_000);

    const { page, context } = await newPerson(browser);
    await signInWithSession(page, uniqueEmail('guesser'), uniqueUsername('Guess'));
    await acceptRules(page);
    await page.goto('/groups/join');
    await page.getByRole('textbox', { name: 'Group ID' }).fill(String(group_id));
    // A few tries (5 per player and group in 15 minutes), each saying how many are left.
    for (let i = 1; i <= 4; i++) {
      expect(await submitJoin(page, `guess ${i}`)).toBe(403);
      await page.getByText(`Wrong password for this group. ${5 - i} ${i === 4 ? 'try' : 'tries'} left.`, { exact: true }).waitFor();
    }
    expect(await submitJoin(page, 'guess 5')).toBe(403);
    // The time in the reader's own clock, its zone named.
    await page.getByText(/^Wrong password for this group\. No tries left: try again in 15 minutes \(at \d{1,2}:\d{2} [AP]M \S+\), or ask a member for an invite link\.$/).waitFor();
    // The sixth try, even with the right password, is refused and says when to come back.
    expect(await submitJoin(page, 'open sesame')).toBe(429);
    await page.getByText(/^Too many wrong passwords for this group\. Try again in 15 minutes \(at \d{1,2}:\d{2} [AP]M \S+\), or ask a member for an invite link\.$/).waitFor();
    expect(await page.getByText('Please check the group ID and password').count()).toBe(0);
    await context.close();
  });
});
