import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { BASE_URL, OPERATOR_EMAIL, uniqueEmail } from './support/env';
import type pg from 'pg';
import { removeSeeded, seedEntries, serverDatabase } from './support/database';
import { apiSession } from './support/idp';
import { listPlayers, operator, playerId } from './support/operator';
import { acceptRules, signUpThroughUi, togglePlayer, waitForPath } from './support/ui';
import { signInWithSession } from './support/session';

/** `npm run screenshots`: the main screens at 1280 and 375 px into docs/screenshots/. */
const OUT = path.resolve(import.meta.dirname, '..', 'docs', 'screenshots');
/** Times as a player on the East Coast reads them ('Picks lock Thu Apr 29, 8:00 PM EDT · 159 d'). */
const EASTERN = { timezoneId: 'America/New_York' };
const SIZES = [
  { name: 'desktop', width: 1280, height: 860 },
  { name: 'phone', width: 375, height: 760 },
] as const;

async function shot(page: Page, name: string, width: number) {
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: path.join(OUT, `${name}-${width}.png`), animations: 'disabled' });
}

describe('screenshots', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  let db: pg.Client | undefined;
  /** A player whose entry holds a long shot, so round one's completion busts it (the busted shots). */
  const busterEmail = uniqueEmail('buster');
  /** Film Room Five: a group whose picks are public, for the draft board. */
  let boardGroupId = 0;
  const pages: { page: Page; width: number }[] = [];
  /** A board of friends around the two players (written into the database, removed at the end). */
  const SEEDED = 'shots-standings-';

  beforeAll(async () => {
    fs.mkdirSync(OUT, { recursive: true });
    browser = await launchBrowser();
    op = await operator();
  });
  afterAll(async () => {
    if (db) {
      await removeSeeded(db, SEEDED).catch(() => undefined);
      await db.end();
    }
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('signed-out screens', async () => {
    for (const size of SIZES) {
      const { page, context } = await newPerson(browser, size);
      await page.goto('/sign-up');
      await page.getByRole('heading', { name: 'Join the First Round' }).waitFor();
      await shot(page, 'sign-up', size.width);
      await page.goto('/sign-in');
      await page.getByRole('heading', { name: 'Welcome Back to First Round' }).waitFor();
      await shot(page, 'sign-in', size.width);
      await page.goto('/nowhere');
      await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
      await shot(page, 'not-found', size.width);
      await context.close();
    }
  });

  it('before the draft', async () => {
    // A third entry, through the API, that overtakes on draft night (the rank arrows in live-strip-*.png).
    const sam = await apiSession(uniqueEmail('sam'), 'SleeperPickSam');
    const samPicks = await Promise.all(['Cam Ward', 'Travis Hunter', 'Abdul Carter', 'Will Campbell', 'Tyler Warren', 'Jalon Walker'].map(playerId));
    await fetch(`${BASE_URL}/api/picks`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await sam.token()}` }, body: JSON.stringify({ picks: samPicks }) });
    const buster = await apiSession(busterEmail, 'LongShotLarry');
    const busterHeaders = { 'content-type': 'application/json', authorization: `Bearer ${await buster.token()}` };
    await fetch(`${BASE_URL}/api/users/me/status`, { method: 'PATCH', headers: busterHeaders });
    const busterPicks = await Promise.all(['Cam Ward', 'Travis Hunter', 'Jaxson Dart'].map(playerId));
    await fetch(`${BASE_URL}/api/picks`, { method: 'POST', headers: busterHeaders, body: JSON.stringify({ picks: busterPicks }) });
    // A group with public picks for the draft board: Larry (owner), Sam and two more, each playing their My Picks.
    const board = (await (await fetch(`${BASE_URL}/api/groups`, { method: 'POST', headers: busterHeaders, body: JSON.stringify({ name: 'Film Room Five', picks_public: true }) })).json()) as { group_id: number };
    boardGroupId = board.group_id;
    const fran = await apiSession(uniqueEmail('fran'), 'FilmRoomFran');
    const otto = await apiSession(uniqueEmail('otto'), 'OverdraftOtto');
    const members = [
      { session: sam, picks: null },
      { session: fran, picks: ['Travis Hunter', 'Abdul Carter', 'Tyler Warren', 'Jaxson Dart'] },
      { session: otto, picks: ['Cam Ward', 'Jalon Walker', 'Shedeur Sanders', 'Will Johnson'] },
    ];
    for (const { session, picks } of members) {
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${await session.token()}` };
      await fetch(`${BASE_URL}/api/users/me/status`, { method: 'PATCH', headers });
      if (picks) await fetch(`${BASE_URL}/api/picks`, { method: 'POST', headers, body: JSON.stringify({ picks: await Promise.all(picks.map(playerId)) }) });
      await fetch(`${BASE_URL}/api/groups/join`, { method: 'POST', headers, body: JSON.stringify({ group_id: boardGroupId }) });
      await fetch(`${BASE_URL}/api/groups/${boardGroupId}/use-global-picks`, { method: 'POST', headers, body: JSON.stringify({ use_global_picks: true }) });
    }
    await fetch(`${BASE_URL}/api/groups/${boardGroupId}/use-global-picks`, { method: 'POST', headers: busterHeaders, body: JSON.stringify({ use_global_picks: true }) });
    const names = { 1280: 'GridironGuru', 375: 'MockDraftMaven' } as const;
    for (const size of SIZES) {
      const { page } = await newPerson(browser, size, EASTERN);
      pages.push({ page, width: size.width });
      await signUpThroughUi(page, uniqueEmail(size.name), names[size.width]);
      await page.getByRole('alertdialog', { name: 'Rules of the Game' }).waitFor();
      await shot(page, 'rules-modal', size.width);
      await acceptRules(page);
      await shot(page, 'my-picks-empty', size.width);
      await page.goto('/select-players');
      await page.getByRole('heading', { name: 'Select Players' }).waitFor();
      await page.getByText('Please select at least one player').waitFor();
      await shot(page, 'select-players-empty', size.width);
      const picks = size.width === 1280 ? ['Travis Hunter', 'Abdul Carter', 'Cam Ward', 'Will Campbell', 'Mason Graham', 'Shedeur Sanders'] : ['Travis Hunter', 'Abdul Carter', 'Ashton Jeanty', 'Tyler Warren'];
      for (const name of picks) await togglePlayer(page, name);
      await page.evaluate('window.scrollTo(0, 0)');
      await shot(page, 'select-players', size.width);
      await page.getByRole('combobox', { name: 'Pos' }).selectOption('OL');
      await shot(page, 'select-players-filtered', size.width);
      await page.getByRole('combobox', { name: 'Pos' }).selectOption('');
      await page.getByRole('button', { name: 'Selected only' }).click();
      await shot(page, 'select-players-selected-only', size.width);
      await page.getByRole('button', { name: 'Selected only' }).click();
      await page.getByRole('button', { name: 'Save Picks' }).click();
      await waitForPath(page, '/my-picks');
      // The save's toast names the riskiest pick; held on screen by the pointer.
      const saved = page.locator('[data-scope="toast"][data-part="root"]', { hasText: 'Riskiest pick' });
      await saved.hover();
      await shot(page, 'picks-saved-riskiest', size.width);
      await page.getByRole('button', { name: 'Dismiss notification' }).click();
      await saved.waitFor({ state: 'hidden' });
      await page.getByRole('status', { name: 'Your entry' }).getByText(`${picks.length} picks`).waitFor();
      await shot(page, 'my-picks', size.width);
      await page.goto('/leaderboard');
      await page.getByText('The leaderboard will be available once the NFL Draft begins.').waitFor();
      await shot(page, 'leaderboard-before-start', size.width);
      await page.goto('/how-to-play');
      await page.getByRole('heading', { name: 'How to Win the NFL Draft Game' }).waitFor();
      await shot(page, 'how-to-play', size.width);
      await page.goto('/settings');
      await page.getByRole('button', { name: 'Update Username' }).waitFor();
      await shot(page, 'settings', size.width);
      await page.goto('/groups');
      await page.getByRole('heading', { name: 'My Groups' }).waitFor();
      await shot(page, 'groups-list', size.width);

      // The full selection: 32 / 32, and the 33rd tap refused (not saved).
      await page.goto('/select-players');
      await page.getByRole('heading', { name: 'Edit Picks' }).waitFor();
      const rows = page.getByRole('list', { name: 'Players' }).getByRole('button');
      for (let i = 0; (await page.getByText('32 selections').count()) === 0; i++) {
        if ((await rows.nth(i).getAttribute('aria-pressed')) !== 'true') await rows.nth(i).click();
      }
      await page.evaluate('window.scrollTo(0, 0)');
      await shot(page, 'select-players-full', size.width);
      await rows.nth(40).click();
      await page.locator('[data-scope="toast"][data-part="root"]', { hasText: 'Too Many Picks' }).hover();
      await page.evaluate('window.scrollTo(0, 0)');
      await shot(page, 'select-players-limit', size.width);
    }
  }, 180_000);

  it('the loading shell on a slow link', async () => {
    for (const size of SIZES) {
      const { page, context } = await newPerson(browser, size);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await context.route('**/assets/*.js', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/sign-up', { waitUntil: 'commit' });
      await page.locator('[data-loading-shell]').getByText('Getting the draft board ready').waitFor();
      await page.screenshot({ path: path.join(OUT, `loading-shell-${size.width}.png`), animations: 'disabled' });
      release();
      await context.close();
    }
  });

  it('the app as installed (375 px, its own window): groups, then offline', async () => {
    const { page, context } = await newPerson(browser, { width: 375, height: 760 }, { ...EASTERN, serviceWorkers: 'allow' });
    await signInWithSession(page, uniqueEmail('installed'), 'InstalledFan');
    await acceptRules(page);
    // The installed app's window is the page with no browser bar, which is what a page screenshot shows
    // (Chromium's DevTools cannot emulate `display-mode: standalone`; the app does not style by it).
    await page.goto('/groups');
    await page.getByRole('heading', { name: 'My Groups', level: 1 }).waitFor();
    await page.waitForFunction('navigator.serviceWorker.controller !== null');
    await shot(page, 'installed-groups', 375);
    await context.setOffline(true);
    await page.reload();
    await page.getByText("You're offline — standings update when you're back").waitFor();
    await page.screenshot({ path: path.join(OUT, 'installed-offline-375.png'), animations: 'disabled' });
    await context.close();
  });

  it("invitations: the card a visitor sees, and the owner's invite and password tools", async () => {
    const owner = await apiSession(uniqueEmail('inviter'), 'CommishCarla');
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${await owner.token()}` };
    const api = async (path: string, method: string, body?: unknown) =>
      (await fetch(`${BASE_URL}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<Record<string, unknown>>;
    await api('/users/me/status', 'PATCH');
    const group = await api('/groups', 'POST', { name: 'Sunday Funday League', is_public: false });
    // Members, so the card has faces.
    for (const name of ['BlitzBrenda', 'RedZoneRay', 'PlayActionPam', 'TuaTagovaifan']) {
      const member = await apiSession(uniqueEmail('member'), name);
      const link = await api('/groups/join-links', 'POST', { group_id: group.group_id, expiration_hours: 24 });
      await fetch(`${BASE_URL}/api/groups/join-with-link/${String(link.token)}`, { method: 'POST', headers: { authorization: `Bearer ${await member.token()}` } });
    }
    const link = await api('/groups/join-links', 'POST', { group_id: group.group_id, expiration_hours: 720 });
    for (const size of SIZES) {
      const visitor = await newPerson(browser, size);
      await visitor.page.goto(`/groups/join/${String(link.token)}`);
      await visitor.page.getByRole('region', { name: 'Your invitation' }).getByText('Sunday Funday League').waitFor();
      await shot(visitor.page, 'invite-card', size.width);
      await visitor.context.close();
    }
    const email = uniqueEmail('commish');
    const commish = await apiSession(email, `Commish${Date.now().toString(36).slice(-4)}`);
    await fetch(`${BASE_URL}/api/users/me/status`, { method: 'PATCH', headers: { authorization: `Bearer ${await commish.token()}` } });
    const own = (await (
      await fetch(`${BASE_URL}/api/groups`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await commish.token()}` },
        body: JSON.stringify({ name: 'Draft Night Degenerates', password: 'hunter22' }),
      })
    ).json()) as { group_id: number };
    for (const size of SIZES) {
      const { page, context } = await newPerson(browser, size);
      await signInWithSession(page, email);
      await page.goto(`/groups/${own.group_id}`);
      await page.getByRole('button', { name: 'Invite', exact: true }).click();
      await page.getByRole('button', { name: 'QR code' }).click();
      await page.getByRole('img', { name: /QR code of the invite link/ }).waitFor();
      await page.getByTestId('password-state').getByText('Password set').waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(OUT, `group-owner-tools-${size.width}.png`), fullPage: true, animations: 'disabled' });
      await context.close();
    }
  });

  it('after the draft has started', async () => {
    // Friends on the board: some still alive with hits, more busted (32 picks, too many pending).
    const results = ['Cam Ward', 'Travis Hunter', 'Abdul Carter', 'Will Campbell', 'Mason Graham', 'Ashton Jeanty', 'Armand Membou', 'Tetairoa McMillan', 'Kelvin Banks Jr.', 'Colston Loveland'];
    const longShots = (await listPlayers()).slice(40, 72).map((p) => p.player_name);
    const handles = ['BigBoardBen', 'WarRoomWes', 'TailgateTina', 'GreenRoomGabe', 'SleeperSam', 'ReachRita', 'BustAlertBo', 'TradeUpTed', 'HeismanHal', 'CombineCara', 'ProDayPete', 'FifthYearFay', 'TopTenTom', 'DraftDayDee', 'MockMarta', 'BoardJumperJo', 'SnapCountSy', 'RedshirtRay', 'PocketPassPat', 'NickelNed', 'WildcatWill', 'BlitzBarb'];
    db = await serverDatabase();
    await seedEntries(
      db,
      SEEDED,
      handles.map((name, i) => ({ name, picks: i < 6 ? results.slice(0, 3 + (i % 4)).concat(longShots.slice(0, i % 3)) : longShots })),
    );
    await op.startDraft();
    for (let i = 0; i < results.length; i++) await op.recordPick(i + 1, results[i]!);
    for (const { page, width } of pages) {
      await page.goto('/my-picks');
      await page.getByRole('img', { name: 'Drafted in round one' }).first().waitFor();
      await page.getByRole('status', { name: 'Your entry' }).getByText(/^rank \d+ of \d+$/).waitFor();
      await shot(page, 'my-picks-drafted', width);
      await page.goto('/select-players');
      await page.getByRole('heading', { name: 'View Picks' }).waitFor();
      await shot(page, 'view-picks', width);
      await page.goto('/leaderboard');
      await page.getByRole('list', { name: 'Rankings' }).waitFor();
      await page.getByRole('button', { name: /^Busted \(\d+\)$/ }).waitFor();
      await shot(page, 'leaderboard', width);
      await page.getByRole('searchbox', { name: 'Search by name' }).fill('room');
      await page.getByText(/^\d+ match(es)? for “room”$/).waitFor();
      await shot(page, 'leaderboard-search', width);
      await page.getByRole('button', { name: 'Clear the search' }).click();
      const fold = page.getByRole('button', { name: /^Busted \(\d+\)$/ });
      await fold.click();
      await page.getByRole('list', { name: 'Busted entries' }).getByRole('listitem').first().waitFor();
      await fold.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await shot(page, 'leaderboard-busted-open', width);
      await page.getByRole('button', { name: 'Jump to me' }).click();
      await page.waitForTimeout(300);
      await shot(page, 'leaderboard-jump', width);
      await page.goto('/auth-test');
      await page.getByText('Backend analysis').waitFor();
      await page.getByText('Success', { exact: true }).waitFor();
      await shot(page, 'auth-test', width);
    }
    // Benchmarks and who can still win, the group's draft board, and a share card.
    for (const size of SIZES) {
      const { page, context } = await newPerson(browser, size, EASTERN);
      await signInWithSession(page, busterEmail);
      await page.goto('/leaderboard');
      const benchmarks = page.getByRole('region', { name: 'Benchmarks' });
      await benchmarks.getByText('Big board top 32').waitFor();
      await shot(page, 'leaderboard-can-win', size.width);
      await benchmarks.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await shot(page, 'leaderboard-benchmarks', size.width);
      await page.goto(`/groups/${boardGroupId}/board`);
      await page.getByRole('heading', { name: 'Waiting on' }).waitFor();
      await page.getByText('Pick 1 · TEN', { exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(OUT, `draft-board-${size.width}.png`), fullPage: true, animations: 'disabled' });
      await page.goto('/my-picks');
      await page.getByText(/of all entries|Only you picked him/).first().waitFor();
      await shot(page, 'my-picks-field', size.width);
      await context.close();
    }
    const larry = await apiSession(busterEmail, 'LongShotLarry');
    const link = (await (
      await fetch(`${BASE_URL}/api/share/links`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await larry.token()}` },
        body: JSON.stringify({ group_id: boardGroupId }),
      })
    ).json()) as { token: string };
    const card = await fetch(`${BASE_URL}/api/share/${link.token}.png`);
    expect(card.headers.get('content-type')).toBe('image/png');
    fs.writeFileSync(path.join(OUT, 'share-card.png'), Buffer.from(await card.arrayBuffer()));
    for (const size of SIZES) {
      const { page, context } = await newPerson(browser, size);
      await page.goto(`/s/${link.token}`);
      await page.getByRole('link', { name: 'Play First Round' }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(OUT, `share-page-${size.width}.png`), fullPage: true, animations: 'disabled' });
      await context.close();
    }
  });

  it('the signed-out banner while the draft is live', async () => {
    for (const size of SIZES) {
      const { page, context } = await newPerson(browser, size);
      await page.goto('/sign-in');
      await page.getByText('DRAFT IS LIVE · picks locked').waitFor();
      await shot(page, 'sign-in-live', size.width);
      // Where that banner leads, the spectators' page (the top 100 and round one, read-only).
      await page.getByRole('link', { name: 'Watch the live standings' }).click();
      await page.getByRole('list', { name: 'Top 100' }).getByRole('listitem').first().waitFor();
      await page.getByRole('list', { name: 'Round one picks' }).getByText('Cam Ward').waitFor();
      await shot(page, 'spectators', size.width);
      await context.close();
    }
  });

  it('the operator console', async () => {
    // Skip the operator's first-login rules (the account exists: operator() signed it up).
    const session = await apiSession(OPERATOR_EMAIL, 'DraftOperator');
    await fetch(`${BASE_URL}/api/users/me/status`, { method: 'PATCH', headers: { authorization: `Bearer ${await session.token()}` } });
    for (const size of SIZES) {
      const { page, context } = await newPerson(browser, size);
      await signInWithSession(page, OPERATOR_EMAIL);
      await page.goto('/admin');
      await page.getByRole('heading', { name: 'Draft control' }).waitFor();
      await page.getByRole('list', { name: 'Audit log' }).waitFor();
      await page.getByRole('textbox', { name: 'Player' }).fill('ohio state');
      await page.getByRole('list', { name: 'Matching players' }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(OUT, `admin-${size.width}.png`), fullPage: true, animations: 'disabled' });
      await context.close();
    }
  });

  // After the console, which records picks only while round one is open.
  it('draft night: the live strip and rank arrows, then round one final', async () => {
    // Both players keep the Leaderboard open while pick 11 comes in: SleeperPickSam passes GridironGuru.
    for (const { page } of pages) {
      await page.goto('/leaderboard');
      await page.getByRole('list', { name: 'Rankings' }).waitFor();
      await page.getByRole('region', { name: 'Draft live' }).getByText('Pick 10', { exact: true }).waitFor();
    }
    // The watch-party TV view of Film Room Five, on a 1920×1080 screen, follows the same picks.
    const tv = await newPerson(browser, { width: 1920, height: 1080 }, EASTERN);
    await signInWithSession(tv.page, busterEmail);
    await tv.page.goto(`/groups/${boardGroupId}/tv`);
    await tv.page.getByTestId('tv-player').getByText('Colston Loveland').waitFor();
    await op.recordPick(11, 'Tyler Warren');
    for (const { page, width } of pages) {
      await page.getByRole('region', { name: 'Draft live' }).getByText('Pick 11', { exact: true }).waitFor();
      await page.getByRole('list', { name: 'Rankings' }).locator('[data-move]').first().waitFor();
      await page.evaluate('window.scrollTo(0, 0)');
      await shot(page, 'live-strip', width);
    }
    await tv.page.getByTestId('tv-player').getByText('Tyler Warren').waitFor();
    await tv.page.getByTestId('tv-had-by').getByText(/had him$/).waitFor();
    await shot(tv.page, 'tv-view-live', 1920);
    // Two more picks keep three entries alive; then the operator completes round one.
    await op.recordPick(12, 'Jalon Walker');
    await op.recordPick(13, 'Shedeur Sanders');
    await op.completeRound();
    await tv.page.getByTestId('tv-podium').or(tv.page.getByText('No entry survived round one')).waitFor();
    await shot(tv.page, 'tv-view-final', 1920);
    await tv.context.close();
    for (const { page, width } of pages) {
      await page.getByRole('region', { name: 'Round one final' }).getByRole('list', { name: 'Podium' }).waitFor();
      await shot(page, 'final-leaderboard', width);
      await page.goto('/my-picks');
      await page.getByRole('region', { name: 'Round one final' }).getByText(/^You finished /).waitFor();
      await shot(page, 'final-my-picks', width);
    }
  });

  // Round one was completed by the draft-night shots above.
  it('round one complete: the entries with a pick left undrafted are busted', async () => {
    for (const size of SIZES) {
      const { page, context } = await newPerson(browser, size, EASTERN);
      await signInWithSession(page, busterEmail);
      await page.goto('/my-picks');
      await page.getByRole('status', { name: 'Your entry' }).getByText(/^BUSTED: /).waitFor();
      await shot(page, 'my-picks-busted', size.width);
      await page.goto('/leaderboard');
      await page.getByRole('region', { name: 'Your entry' }).getByText('Busted', { exact: true }).waitFor();
      await shot(page, 'leaderboard-busted', size.width);
      // The group's own final: its card, winner and podium, and results in the rows; My Groups says final.
      await page.goto(`/groups/${boardGroupId}/picks`);
      await page.getByRole('region', { name: 'Round one final' }).getByText(/^You (finished|had no entry)/).waitFor();
      await page.screenshot({ path: path.join(OUT, `final-group-standings-${size.width}.png`), fullPage: true, animations: 'disabled' });
      await page.goto('/groups');
      await page.getByRole('list', { name: 'My groups' }).getByText(/^FINAL · /).first().waitFor();
      await shot(page, 'final-groups', size.width);
      await context.close();
    }
  });

  it('the signed-out banner once round one is final', async () => {
    // Round one was completed by the draft-night shots above.
    for (const size of SIZES) {
      const { page, context } = await newPerson(browser, size);
      await page.goto('/sign-in');
      await page.getByText('ROUND ONE FINAL').waitFor();
      await shot(page, 'sign-in-final', size.width);
      await context.close();
    }
  });
});
