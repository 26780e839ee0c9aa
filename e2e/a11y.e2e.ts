import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { axeFindings, serveAxe } from './support/axe';
import { BASE_URL, OPERATOR_EMAIL, uniqueEmail, uniqueUsername } from './support/env';
import { operator } from './support/operator';
import { acceptRules, sidewaysOverflow, togglePlayer, waitForPath } from './support/ui';
import { signInWithSession } from './support/session';

/**
 * The accessibility pass: axe-core (from node_modules, served to the page by the browser context:
 * no network) on every screen, signed out, signed in and as the operator, at 1280 and 375 px, including
 * the states that only show at times (a success and an error toast, the full selection, the rules dialog,
 * hits on draft night, a busted entry's zero). A serious or critical violation fails the test, with the
 * rule, the elements and axe's explanation in the message.
 */
const SIZES = [
  { width: 1280, height: 900 },
  { width: 375, height: 800 },
] as const;

describe('accessibility: no serious or critical axe-core violation on any screen', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  let draftStarted = false;
  const players: Record<number, Person> = {};
  const groups: Record<number, number> = {};
  const checked: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator();
  });
  afterAll(async () => {
    if (draftStarted) await op.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  async function person(size: (typeof SIZES)[number]) {
    const p = await newPerson(browser, size);
    await serveAxe(p.context);
    return p;
  }

  /**
   * Axe on the page as it is now. Findings are collected, so one run lists every screen's problems; each
   * test ends with expectNoFindings().
   */
  let findings: string[] = [];
  async function check(page: Page, name: string) {
    const found = await axeFindings(page);
    const width = page.viewportSize()?.width;
    if (found.length > 0) findings.push(`${name} at ${width} px:\n${JSON.stringify(found, null, 1)}`);
    // On a phone nothing may scroll or reach sideways (scrollWidth ≤ innerWidth, and no element past the edge).
    if (width === 375) {
      const over = await sidewaysOverflow(page);
      if (over.scroll > 0 || over.element > 0.5) findings.push(`${name} at 375 px reaches ${Math.max(over.scroll, over.element).toFixed(1)} px past the edge (${over.what ?? 'the document'})`);
    }
    checked.push(`${name} @${width}`);
  }
  function expectNoFindings() {
    // In full on the console: the assertion's diff is cut short.
    if (findings.length > 0) console.error(findings.join('\n\n'));
    expect(findings.join('\n\n')).toBe('');
  }
  beforeEach(() => {
    findings = [];
  });

  /** A toast held on screen (hovering pauses it) while axe reads it. */
  async function checkWithToast(page: Page, name: string, text: string) {
    const toast = page.locator('[data-scope="toast"][data-part="root"]', { hasText: text });
    await toast.waitFor();
    await toast.hover();
    await check(page, name);
  }

  async function visit(page: Page, path: string, ready: Locator) {
    await page.goto(path);
    await ready.first().waitFor();
  }

  for (const size of SIZES) {
    it(`signed in at ${size.width} px: rules, groups, create group, group page and picks, selection, My Picks, leaderboard, settings`, async () => {
      const me = await person(size);
      players[size.width] = me;
      const { page } = me;
      await signInWithSession(page, uniqueEmail(`a11y${size.width}`), uniqueUsername('Axe'));
      await page.getByRole('alertdialog', { name: 'Rules of the Game' }).waitFor();
      await check(page, 'first-login rules dialog');
      await acceptRules(page);
      await check(page, 'My Picks, empty');

      await visit(page, '/groups', page.getByRole('heading', { name: 'My Groups', level: 1 }));
      await check(page, 'groups');
      await visit(page, '/groups/create', page.getByRole('textbox', { name: 'Group Name' }));
      await check(page, 'create group');
      await page.getByRole('textbox', { name: 'Group Name' }).fill(`Axe Club ${size.width} ${Date.now().toString(36)}`);
      await page.getByRole('button', { name: 'Create Group' }).click();
      await waitForPath(page, /^\/groups\/\d+$/);
      groups[size.width] = Number(new URL(page.url()).pathname.split('/').pop());
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByRole('list', { name: 'Members' }).waitFor();
      await check(page, 'group page');

      await visit(page, '/select-players', page.getByRole('heading', { name: 'Select Players', level: 1 }));
      await check(page, 'select players, nothing selected');
      // The 1280 px player takes the whole board's top 32 (the full bar, then the 33rd tap's error toast);
      // the 375 px one a long shot that will bust the entry on draft night.
      const picks = size.width === 1280 ? 33 : 0;
      const rows = page.getByRole('list', { name: 'Players' }).getByRole('button');
      for (let i = 0; i < picks; i++) await rows.nth(i).click();
      if (picks) {
        await page.getByText('32 selections').waitFor();
        await checkWithToast(page, 'select players, full, with the error toast', 'Too Many Picks');
      } else {
        for (const name of ['Jaxson Dart', 'Jack Bech']) await togglePlayer(page, name);
        await page.getByText('2 selections').waitFor();
      }
      await page.getByRole('button', { name: 'Selected only' }).click();
      await check(page, 'select players, selected only');
      await page.getByRole('button', { name: 'Save Picks' }).click();
      await waitForPath(page, '/my-picks');
      await checkWithToast(page, 'My Picks with the success toast', 'Picks saved');

      await visit(page, `/groups/${groups[size.width]}/picks`, page.getByRole('heading', { level: 1 }));
      await page.waitForLoadState('networkidle');
      await check(page, 'group picks');
      await visit(page, '/leaderboard', page.getByText('The leaderboard will be available once the NFL Draft begins.'));
      await check(page, 'leaderboard before the start');
      await visit(page, '/settings', page.getByRole('button', { name: 'Update Username' }));
      await check(page, 'settings');
      await visit(page, '/how-to-play', page.getByRole('heading', { name: 'How to Win the NFL Draft Game' }));
      await check(page, 'how to play');
      expectNoFindings();
    }, 180_000);
  }

  for (const size of SIZES) {
    it(`signed out at ${size.width} px: sign-up, sign-in, an invite link, how to play`, async () => {
      const owner = players[1280]!.page;
      const token = await owner.evaluate<string>(`fetch('/idp/token', { method: 'POST' }).then((r) => r.json()).then((b) => b.token)`);
      const res = await fetch(`${BASE_URL}/api/groups/join-links`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ group_id: groups[1280] }),
      });
      expect(res.status).toBe(200);
      const invite = ((await res.json()) as { token: string }).token;

      const { page, context } = await person(size);
      await visit(page, '/sign-up', page.getByRole('button', { name: 'Sign Up' }));
      await check(page, 'sign-up');
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.getByText('Please enter a username').waitFor();
      await check(page, 'sign-up with an error');
      await visit(page, '/sign-in', page.getByRole('button', { name: 'Send Code' }));
      await check(page, 'sign-in');
      // The invite landing: whatever it shows a visitor, it ends on a sign-up form.
      await visit(page, `/groups/join/${invite}`, page.getByRole('button', { name: 'Sign Up' }));
      await check(page, 'invite link landing');
      await page.goto('/how-to-play');
      await page.getByRole('heading', { name: 'How to Win the NFL Draft Game' }).or(page.getByRole('button', { name: 'Send Code' })).first().waitFor();
      await check(page, 'how to play, signed out');
      await visit(page, '/no/such/page', page.getByRole('heading', { name: 'Page Not Found' }));
      await check(page, '404');
      await context.close();
      expectNoFindings();
    }, 120_000);
  }

  it('draft night at both sizes: the operator console, hits on My Picks, the locked selection, group standings, a busted zero on the leaderboard', async () => {
    await op.startDraft();
    draftStarted = true;
    // Two picks of the 1280 px player hit; neither of the 375 px player's is taken before the round is
    // marked complete, so that entry ends busted with zero.
    await op.recordPick(1, 'Travis Hunter');
    await op.recordPick(2, 'Abdul Carter');

    // The operator console, mid-draft (its board search opens once the draft has started), at both widths.
    await op.skipFirstLoginRules();
    const { page: console_, context } = await person(SIZES[0]);
    await signInWithSession(console_, OPERATOR_EMAIL);
    for (const size of SIZES) {
      await console_.setViewportSize(size);
      await visit(console_, '/admin', console_.getByRole('list', { name: 'Audit log' }));
      await check(console_, 'admin');
      await console_.getByRole('textbox', { name: 'Player' }).fill('ohio state');
      await console_.getByRole('list', { name: 'Matching players' }).waitFor();
      await check(console_, 'admin, searching the board');
    }
    await context.close();

    for (const size of SIZES) {
      const { page } = players[size.width]!;
      await visit(page, '/my-picks', size.width === 1280 ? page.getByRole('img', { name: 'Drafted in round one' }) : page.getByText('Pending'));
      await check(page, 'My Picks on draft night');
      await visit(page, '/select-players', page.getByRole('list', { name: 'Your picks' }));
      await check(page, 'the locked selection (View Picks)');
      await visit(page, `/groups/${groups[size.width]}/picks`, page.getByRole('heading', { level: 1 }));
      await page.waitForLoadState('networkidle');
      await check(page, 'group standings after the start');
    }
    await op.completeRound();
    for (const size of SIZES) {
      const { page } = players[size.width]!;
      await visit(page, '/leaderboard', page.getByText('Busted'));
      await check(page, 'leaderboard with a busted entry');
      // Round one final: the group's standings with its podium, the draft board, My Groups and My Picks.
      await visit(page, `/groups/${groups[size.width]}/picks`, page.getByRole('region', { name: 'Round one final' }).getByText(/^You (finished|had no entry)/));
      await check(page, 'group standings, final');
      await visit(page, `/groups/${groups[size.width]}/board`, page.getByText('Round one is complete'));
      await check(page, 'draft board, final');
      await visit(page, '/groups', page.getByRole('list', { name: 'My groups' }).getByText(/FINAL · /));
      await check(page, 'groups, final');
      await visit(page, '/my-picks', page.getByRole('status', { name: 'Your entry' }));
      await check(page, 'My Picks, final');
    }
    expectNoFindings();
    expect(checked.length).toBeGreaterThanOrEqual(53);
  }, 240_000);
});
