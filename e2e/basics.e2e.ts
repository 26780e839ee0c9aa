import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { uniqueEmail, uniqueUsername } from './support/env';
import { signInWithSession } from './support/session';
import { acceptRules, expectNoHorizontalScroll, waitForPath } from './support/ui';

describe('routes, validation and limits', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sends signed-out visitors from protected routes to /sign-in, and / to /sign-up', async () => {
    const { page, context } = await newPerson(browser);
    await page.goto('/my-picks');
    await waitForPath(page, '/sign-in');
    await page.getByRole('heading', { name: 'Welcome Back to First Round' }).waitFor();
    await page.getByText(/\d+ DAYS? LEFT/).waitFor();
    await page.goto('/');
    await waitForPath(page, '/sign-up');
    await context.close();
  });

  it('shows the 404 page with a way home', async () => {
    const { page, context } = await newPerson(browser);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Go back home' }).click();
    await waitForPath(page, '/sign-up');
    await context.close();
  });

  it('validates the sign-in and sign-up forms', async () => {
    const { page, context } = await newPerson(browser, { width: 375, height: 800 });
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Send Code' }).click();
    await page.getByText('Please enter your email').waitFor();
    // An address without an account is answered as any other (the mail says there is none): the code step,
    // which offers to make one.
    await page.getByRole('textbox', { name: 'Email' }).fill('nobody-here@example.com');
    await page.getByRole('button', { name: 'Send Code' }).click();
    await page.getByRole('textbox', { name: 'Verification code' }).waitFor();
    await page.getByRole('link', { name: 'Create an account with nobody-here@example.com' }).waitFor();

    await page.getByRole('link', { name: "I don't have an account" }).click();
    await page.getByRole('heading', { name: 'Join the First Round' }).waitFor();
    await page.getByText('The game is simple. Pick the players you think will be drafted in round one. No mistakes allowed.').waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill('someone@example.com');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Please enter a username').waitFor();
    await expectNoHorizontalScroll(page);

    // The code step: an empty code, a wrong code, and the way back.
    const email = uniqueEmail('validate');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('textbox', { name: 'Username' }).fill(uniqueUsername('Val'));
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('button', { name: 'Verify & Create Account' }).click();
    await page.getByText('Please enter the verification code').waitFor();
    await page.getByRole('textbox', { name: 'Verification code' }).fill('000000');
    await page.getByRole('button', { name: 'Verify & Create Account' }).click();
    await page.getByText('Invalid verification code').waitFor();
    await page.getByRole('button', { name: 'Use a different email' }).click();
    await page.getByRole('textbox', { name: 'Username' }).waitFor();
    await context.close();
  });

  it('highlights the right tab and reaches every nav control by keyboard', async () => {
    const { page, context } = await newPerson(browser);
    await signInWithSession(page, uniqueEmail('nav'), uniqueUsername('Nav'));
    await acceptRules(page);
    await page.goto('/select-players?groupId=5');
    expect(await page.getByRole('link', { name: 'Groups' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('link', { name: 'Back to group picks' }).waitFor();
    await page.goto('/how-to-play');
    await page.getByRole('heading', { name: 'How to Win the NFL Draft Game' }).waitFor();
    await page.getByRole('link', { name: 'Start Making Picks' }).click();
    await waitForPath(page, '/select-players');
    // A fresh load, so the keyboard starts at the top of the document.
    await page.goto('/select-players');
    await page.getByRole('heading', { name: 'Select Players', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    const names: string[] = [];
    for (let i = 0; i < 6; i++) {
      names.push(await page.evaluate<string>(`document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? ''`));
      await page.keyboard.press('Tab');
    }
    expect(names).toEqual(['Skip to main content', 'First Round home', 'Groups', 'My Picks', 'Leaderboard', 'Settings']);
    await context.close();
  });
});
