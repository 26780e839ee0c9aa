import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { BASE_URL, OPERATOR_EMAIL, uniqueEmail, uniqueUsername } from './support/env';
import { apiSession } from './support/idp';
import { settledViolations, watchCsp } from './support/csp';
import { acceptRules, signInThroughUi, signUpThroughUi, toastText, togglePlayer, waitForPath } from './support/ui';

/**
 * The server sends a Content-Security-Policy; every screen of the SPA must still render
 * under it with no violation. Each person's browser context records `securitypolicyviolation` events
 * (window.__cspViolations), console messages about the policy and uncaught errors on every document it
 * opens; each screen is visited until its content shows, and the records must stay empty.
 */
describe('content security policy: every screen renders with no violation', () => {
  let browser: Browser;
  let opSession: Awaited<ReturnType<typeof apiSession>>;
  let draftStarted = false;
  const groupName = `Policy Club ${Date.now().toString(36)}`;
  let groupId = 0;
  let inviteLink = '';
  let owner: Person;
  let ownerWatch: Awaited<ReturnType<typeof watchCsp>>;

  beforeAll(async () => {
    browser = await launchBrowser();
    opSession = await apiSession(OPERATOR_EMAIL, 'DraftOperator');
  });
  afterAll(async () => {
    if (draftStarted) await operatorCall('/draft/reset').catch(() => undefined);
    await browser?.close();
  });

  async function operatorCall(path: string) {
    const res = await fetch(`${BASE_URL}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await opSession.token()}` },
      body: '{}',
    });
    if (!res.ok) throw new Error(`${path} failed: ${res.status}`);
  }

  /** Visits one screen (its steps end when its content shows), then lets queued violation events fire. */
  async function screen(page: Page, visited: string[], name: string, steps: () => Promise<unknown>) {
    await steps();
    expect(await settledViolations(page), name).toEqual([]);
    visited.push(name);
  }

  function expectClean(watch: Awaited<ReturnType<typeof watchCsp>>) {
    expect(watch.violations).toEqual([]);
    expect(watch.cspConsoleMessages()).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
  }

  it('signed out: sign-in, sign-up, the callback, the 404 page and a bad invite link', async () => {
    const { page, context } = await newPerson(browser);
    const watch = await watchCsp(context);
    const visited: string[] = [];
    await screen(page, visited, 'sign-in', async () => {
      await page.goto('/sign-in');
      await page.getByRole('heading', { name: 'Welcome Back to First Round' }).waitFor();
      await page.getByText(/\d+ DAYS? LEFT/).waitFor();
    });
    await screen(page, visited, 'sign-up', async () => {
      await page.goto('/sign-up');
      await page.getByRole('heading', { name: 'Join the First Round' }).waitFor();
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.getByText('Please enter a username').waitFor();
    });
    await screen(page, visited, 'callback', async () => {
      await page.goto('/auth/callback');
      await page.getByRole('heading', { name: 'Redirecting...' }).waitFor();
      // Not signed in: after its polling the callback gives up and sends the visitor to sign in.
      await waitForPath(page, '/sign-in', 20_000);
    });
    await screen(page, visited, '404', async () => {
      await page.goto('/no/such/page');
      await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    });
    await screen(page, visited, 'invite landing (bad link)', async () => {
      await page.goto('/groups/join/not-a-real-token');
      await page.getByRole('heading', { name: 'Error' }).waitFor();
      await page.getByText('This invite link is invalid or has expired').waitFor();
    });
    expectClean(watch);
    expect(visited).toHaveLength(5);
    await context.close();
  });

  it('signed in: groups, create, group page, invite, join, picks, my picks, leaderboard, settings and the diagnostics', async () => {
    owner = await newPerson(browser);
    const { page, context } = owner;
    ownerWatch = await watchCsp(context);
    const visited: string[] = [];
    await screen(page, visited, 'sign-up code step, callback, groups and the rules', async () => {
      await signUpThroughUi(page, uniqueEmail('csp'), uniqueUsername('Csp'));
      await acceptRules(page);
    });
    await screen(page, visited, 'my picks (empty)', async () => {
      await page.goto('/my-picks');
      await page.getByRole('heading', { name: 'Edit Picks' }).waitFor();
      await page.getByRole('link', { name: 'Select Players' }).waitFor();
    });
    await screen(page, visited, 'select players', async () => {
      await page.goto('/select-players');
      await page.getByRole('heading', { name: 'Select Players', level: 1 }).waitFor();
      // Save is disabled until something is picked; the toast under the policy is the save's.
      await page.getByText('Please select at least one player').waitFor();
      for (const name of ['Cam Ward', 'Travis Hunter']) await togglePlayer(page, name);
      await page.getByText('2 selections').waitFor();
      await page.getByRole('button', { name: 'Save Picks' }).click();
      await waitForPath(page, '/my-picks');
      expect(await toastText(page)).toContain('Picks saved');
      await page.getByRole('status', { name: 'Your entry' }).getByText('2 picks').waitFor();
    });
    await screen(page, visited, 'create group', async () => {
      await page.goto('/groups/create');
      await page.getByRole('heading', { name: 'Create a Group' }).waitFor();
      await page.getByRole('button', { name: 'Create Group' }).click();
      await page.getByText('Group name is required').waitFor();
      await page.getByRole('textbox', { name: 'Group Name' }).fill(groupName);
      await page.getByRole('button', { name: 'Create Group' }).click();
      // The new group plays the owner's My Picks: its page hands over to the picks page.
      await waitForPath(page, /^\/groups\/\d+\/picks$/);
      groupId = Number(new URL(page.url()).pathname.split('/')[2]);
    });
    await screen(page, visited, 'group page with invite', async () => {
      await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
      await page.getByRole('list', { name: 'Members' }).waitFor();
      await page.getByRole('button', { name: 'Invite', exact: true }).click();
      const linkBox = page.getByRole('textbox', { name: 'Invite link' });
      await linkBox.waitFor();
      inviteLink = await linkBox.inputValue();
    });
    await screen(page, visited, 'groups', async () => {
      await page.goto('/groups');
      await page.getByRole('heading', { name: 'My Groups', level: 1 }).waitFor();
      await page.getByRole('list', { name: 'My groups' }).getByRole('link', { name: groupName }).waitFor();
      await page.getByRole('heading', { name: 'Public Groups' }).waitFor();
    });
    await screen(page, visited, 'join by id', async () => {
      await page.goto('/groups/join');
      await page.getByRole('heading', { name: 'Join a Group' }).waitFor();
      await page.getByRole('button', { name: 'Join Group' }).click();
      await page.getByText('Group ID is required').waitFor();
    });
    await screen(page, visited, 'group picks', async () => {
      await page.goto(`/groups/${groupId}/picks`);
      await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
      await page.getByRole('list', { name: 'Members' }).waitFor();
    });
    await screen(page, visited, 'leaderboard', async () => {
      await page.goto('/leaderboard');
      await page.getByRole('heading', { name: 'Global Leaderboard' }).waitFor();
      await page.getByText('The leaderboard will be available once the NFL Draft begins.').waitFor();
    });
    await screen(page, visited, 'settings', async () => {
      await page.goto('/settings');
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Update Username' }).waitFor();
    });
    await screen(page, visited, 'how to play', async () => {
      await page.goto('/how-to-play');
      await page.getByRole('heading', { name: 'How to Win the NFL Draft Game' }).waitFor();
    });
    await screen(page, visited, 'auth test', async () => {
      await page.goto('/auth-test');
      await page.getByRole('heading', { name: 'Authentication Test' }).waitFor();
      await page.getByText('Success', { exact: true }).waitFor();
    });
    await screen(page, visited, 'auth debug', async () => {
      await page.goto('/auth-debug');
      await page.getByRole('heading', { name: 'Authentication Debug' }).waitFor();
      await page.getByText('Valid token').waitFor();
    });
    await screen(page, visited, 'account fix', async () => {
      await page.goto('/account-fix');
      await page.getByRole('heading', { name: 'Account Fix Tool' }).waitFor();
    });
    await screen(page, visited, 'admin (not an operator: 404)', async () => {
      await page.goto('/admin');
      await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    });
    expectClean(ownerWatch);
    expect(visited).toHaveLength(15);
  });

  it('the operator: invite landing joins and opens the group, the admin console, and the screens of a started draft', async () => {
    expect(inviteLink).toMatch(/\/groups\/join\//);
    // The operator's first-login rules are not what this test looks at.
    await fetch(`${BASE_URL}/api/users/me/status`, { method: 'PATCH', headers: { authorization: `Bearer ${await opSession.token()}` } });
    const { page, context } = await newPerson(browser);
    const watch = await watchCsp(context);
    const visited: string[] = [];
    await screen(page, visited, 'sign-in code step', async () => {
      await signInThroughUi(page, OPERATOR_EMAIL);
    });
    await screen(page, visited, 'invite landing (joins)', async () => {
      await page.goto(inviteLink);
      await waitForPath(page, `/groups/${groupId}`);
      expect(await toastText(page)).toContain('You have joined the group');
      await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
      await page.getByRole('list', { name: 'Members' }).waitFor();
    });
    await screen(page, visited, 'admin console', async () => {
      await page.goto('/admin');
      await page.getByRole('heading', { name: 'Draft control' }).waitFor();
      await page.getByRole('list', { name: 'Audit log' }).or(page.getByText('Nothing has happened yet.')).waitFor();
    });
    await screen(page, visited, 'start the draft (confirm dialog)', async () => {
      await page.getByRole('button', { name: 'Start draft' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Start the draft?' });
      await dialog.waitFor();
      draftStarted = true;
      await dialog.getByRole('button', { name: 'Start draft' }).click();
      await page.getByText('Live', { exact: true }).waitFor();
      await page.getByRole('list', { name: 'Audit log' }).waitFor();
      // Recording a pick opens once the draft runs: the board search lists matching players.
      await page.getByRole('textbox', { name: 'Player' }).fill('ohio state');
      await page.getByRole('list', { name: 'Matching players' }).waitFor();
    });
    // The owner's open page follows the draft; the leaderboards and read-only picks now show.
    const ownerPage = owner.page;
    await screen(ownerPage, visited, 'leaderboard (started)', async () => {
      await ownerPage.goto('/leaderboard');
      await ownerPage.getByRole('list', { name: 'Rankings' }).waitFor();
    });
    await screen(ownerPage, visited, 'group leaderboard (started)', async () => {
      await ownerPage.goto(`/groups/${groupId}`);
      await waitForPath(ownerPage, `/groups/${groupId}/picks`);
      // The owner's My Picks play in the group: ranked there.
      await ownerPage.getByRole('list', { name: 'Rankings' }).getByRole('listitem').first().waitFor();
    });
    await screen(ownerPage, visited, 'view picks (started)', async () => {
      await ownerPage.goto('/select-players');
      await ownerPage.getByRole('heading', { name: 'View Picks' }).waitFor();
    });
    await operatorCall('/draft/reset');
    draftStarted = false;
    expectClean(watch);
    expectClean(ownerWatch);
    expect(visited).toHaveLength(7);
    await context.close();
  });
});
