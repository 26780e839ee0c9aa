import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { BASE_URL, OPERATOR_EMAIL, uniqueEmail, uniqueUsername } from './support/env';
import { apiSession } from './support/idp';
import { listPlayers, playerId } from './support/operator';
import { acceptRules, enterMailedCode, expectNoHorizontalScroll, signUpThroughUi, toastText, togglePlayer, waitForPath } from './support/ui';

/**
 * The groups journey with three people and the operator: an owner creates a group and invites a
 * friend by link; the friend (signed out) signs up through the link and reuses global picks; the owner
 * makes new picks; a third person joins by id (with a password) and a public group with one click; the
 * operator starts the draft and records picks, and the group leaderboard ranks the entries.
 * Every group screen is also captured at 1280 and 375 px into docs/screenshots/.
 */
// `npm run screenshots` refreshes docs/screenshots; a plain test run keeps its pictures out of the tree.
const SHOTS =
  process.env.E2E_SCREENSHOTS === '1'
    ? path.resolve(import.meta.dirname, '..', 'docs', 'screenshots')
    : path.join(os.tmpdir(), 'first-round-e2e-shots');
const PHONE = { width: 375, height: 760 };
const DESKTOP = { width: 1280, height: 900 };

/**
 * No sideways scrolling, and nothing cut off either: the app hides horizontal overflow on <html>, so
 * the scroll width alone cannot tell. Every element of the page content must end inside the viewport.
 */
async function expectFitsWidth(page: Page) {
  await expectNoHorizontalScroll(page);
  const widest = await page.evaluate<number>(
    "Math.max(0, ...[...document.querySelectorAll('main *')].map((e) => e.getBoundingClientRect().right)) - window.innerWidth",
  );
  expect(widest).toBeLessThanOrEqual(0.5);
}

/** Screenshots at both widths (same page, resized), checking that the phone width never scrolls sideways. */
async function shots(page: Page, name: string) {
  const before = page.viewportSize() ?? DESKTOP;
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300);
    if (size.width === PHONE.width) await expectFitsWidth(page);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}.png`), animations: 'disabled', fullPage: true });
  }
  await page.setViewportSize(before);
}

/** Dismisses the current toast so it does not cover the next screenshot. */
async function dismissToasts(page: Page) {
  const close = page.getByRole('button', { name: 'Dismiss notification' });
  if (await close.count()) await close.first().click().catch(() => undefined);
  await page.locator('[data-scope="toast"][data-part="root"]').first().waitFor({ state: 'detached', timeout: 6000 }).catch(() => undefined);
}

/** A REST call as someone signed in through the identity provider's HTTP interface. */
async function restAs(session: { token(): Promise<string> }, method: string, route: string, body?: unknown) {
  const res = await fetch(`${BASE_URL}/api${route}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await session.token()}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok) throw new Error(`${method} ${route} failed: ${res.status} ${JSON.stringify(data)}`);
  return data!;
}

async function pickAndSave(page: Page, names: string[]) {
  const search = page.getByRole('textbox', { name: 'Search Players' });
  for (const name of names) {
    await search.fill(name);
    const row = page.getByRole('button', { name });
    if ((await row.getAttribute('aria-pressed')) !== 'true') await togglePlayer(page, name);
  }
  await search.fill('');
  await page.getByRole('button', { name: 'Save Picks' }).click();
}

describe('groups: create, invite, join, pick and compete', () => {
  let browser: Browser;
  let owner: Person;
  let friend: Person;
  let third: Person;
  let opSession: Awaited<ReturnType<typeof apiSession>>;
  const op = {
    startDraft: () => restAs(opSession, 'POST', '/draft/start', {}),
    recordPick: async (slot: number, name: string) => restAs(opSession, 'POST', '/draft/picks', { slot, player_id: await playerId(name) }),
    completeRound: () => restAs(opSession, 'POST', '/draft/complete-round', {}),
    resetDraft: () => restAs(opSession, 'POST', '/draft/reset', {}),
  };
  const ownerName = uniqueUsername('Owner');
  const friendName = uniqueUsername('Friend');
  const thirdName = uniqueUsername('Third');
  const groupName = `Sunday Squad ${Date.now().toString(36)}`;
  const publicName = `Open House ${Date.now().toString(36)}`;
  const vaultName = `The Vault ${Date.now().toString(36)}`;
  let groupId = 0;
  let publicId = 0;
  let vaultId = 0;
  let inviteLink = '';

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    browser = await launchBrowser();
    owner = await newPerson(browser);
    friend = await newPerson(browser, PHONE);
    third = await newPerson(browser);
    await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
    await third.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
    // One operator session for the whole file.
    opSession = await apiSession(OPERATOR_EMAIL, 'DraftOperator');
  });
  afterEach(async (ctx) => {
    // On a failure, keep what each person was looking at (paths printed) for the post-mortem.
    if (ctx.task.result?.state !== 'fail') return;
    for (const [who, person] of Object.entries({ owner, friend, third })) {
      const file = path.join(os.tmpdir(), `groups-e2e-${who}.png`);
      await person?.page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      console.log(`${who} was on ${person?.page.url()} → ${file}`);
    }
  });
  afterAll(async () => {
    if (opSession) await op.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('an owner starts with no groups and creates one (validation, advanced options, duplicate name)', async () => {
    const { page } = owner;
    await signUpThroughUi(page, uniqueEmail('owner'), ownerName);
    await acceptRules(page);
    await page.getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('heading', { name: 'My Groups', level: 1 }).waitFor();
    await page.getByText("You haven't joined any groups yet. Create one and play against your friends.").waitFor();
    await page.getByRole('link', { name: 'Join a Group' }).waitFor();
    await page.getByRole('heading', { name: 'Public Groups' }).waitFor();
    await shots(page, 'groups-empty');

    await page.getByRole('link', { name: 'Create a Group' }).click();
    await waitForPath(page, '/groups/create');
    await page.getByRole('button', { name: 'Create Group' }).click();
    await page.getByText('Group name is required').waitFor();
    await page.getByRole('textbox', { name: 'Group Name' }).fill(groupName);
    await page.getByText('Advanced options').click();
    await page.getByRole('checkbox', { name: "Members see each other's picks" }).check();
    // A password is optional, and at least 8 characters when given: said before anything is sent.
    await page.getByLabel('Password (optional)').fill('1234');
    await page.getByRole('button', { name: 'Create Group' }).click();
    await page.getByText('A group password must be at least 8 characters').first().waitFor();
    // Under the field and above the button (the field may sit in the closed 'Advanced options').
    expect(await page.getByText('A group password must be at least 8 characters').count()).toBe(2);
    expect(new URL(page.url()).pathname).toBe('/groups/create');
    await page.getByLabel('Password (optional)').fill('');
    await shots(page, 'groups-create');
    await page.getByRole('button', { name: 'Create Group' }).click();
    await waitForPath(page, /^\/groups\/\d+$/);
    groupId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
    await page.getByText('1 member').first().waitFor();
    const members = page.getByRole('list', { name: 'Members' });
    await members.getByText(ownerName).waitFor();
    await members.getByText('No picks yet').waitFor();
    // No My Picks yet: the entry follows them, with none; or the group can have picks of its own.
    await page.getByRole('region', { name: 'Your entry in this group' }).getByText('Using My Picks · no picks yet').waitFor();
    await page.getByRole('button', { name: 'Make My Picks' }).waitFor();
    await page.getByRole('button', { name: 'Make own picks for this group' }).waitFor();

    // The same name again (any case) is refused with its message.
    await page.goto('/groups/create');
    await page.getByRole('textbox', { name: 'Group Name' }).fill(groupName.toUpperCase());
    await page.getByRole('button', { name: 'Create Group' }).click();
    await page.getByText('Group already exists, please pick a different name').waitFor();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await waitForPath(page, '/groups');
  });

  it('the owner invites from the group page (a link until picks lock, Copy → Copied!) and from the card (copied at once)', async () => {
    const { page } = owner;
    await page.goto(`/groups/${groupId}`);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const linkBox = page.getByRole('textbox', { name: 'Invite link' });
    await linkBox.waitFor();
    inviteLink = await linkBox.inputValue();
    expect(inviteLink).toMatch(new RegExp(`^${BASE_URL}/groups/join/[A-Za-z0-9_-]{20,}$`));
    // Links last until picks lock unless a shorter time is chosen.
    await page.getByText(/It works until picks lock, \w{3} \w{3} \d{1,2}, \d{1,2}:\d\d [AP]M \S+\./).waitFor();
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied!' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(inviteLink);
    await shots(page, 'group-page-owner');
    // The confirmation lasts two seconds.
    await page.getByRole('button', { name: 'Copy', exact: true }).waitFor({ timeout: 4000 });

    await page.goto('/groups');
    const card = page.getByRole('list', { name: 'My groups' }).getByRole('listitem').filter({ hasText: groupName });
    await card.getByText('1 member').waitFor();
    await card.getByRole('button', { name: `Invite friends to ${groupName}` }).click();
    const copiedToast = await toastText(page);
    expect(copiedToast).toContain('Invite link copied');
    expect(copiedToast).toContain(`Anyone with the link can join ${groupName} until picks lock (`);
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toMatch(/\/groups\/join\/[A-Za-z0-9_-]{20,}$/);
    expect(copied).not.toBe(inviteLink);
    await dismissToasts(page);
    await shots(page, 'groups-list-owner');
    // Clicking the card opens the group.
    await card.getByRole('link', { name: groupName }).click();
    await waitForPath(page, `/groups/${groupId}`);
  });

  it('a bad invite link shows an error card; a signed-out friend signs up through a good one and lands in the group', async () => {
    const { page } = friend;
    await page.goto('/groups/join/not-a-real-token');
    await page.getByRole('heading', { name: 'Error' }).waitFor();
    await page.getByText('This invite link is invalid or has expired').waitFor();
    await page.getByRole('link', { name: 'Back to Groups' }).waitFor();
    await shots(page, 'join-link-invalid');

    await page.goto(inviteLink);
    await waitForPath(page, '/sign-up');
    expect(await page.evaluate<string | null>("localStorage.getItem('pendingJoinToken')")).toBe(inviteLink.split('/').pop());
    expect(await page.evaluate<string | null>("localStorage.getItem('redirectAfterAuth')")).toBe(`/groups/${groupId}`);
    const email = uniqueEmail('friend');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('textbox', { name: 'Username' }).fill(friendName);
    await enterMailedCode(page, email, 'Sign Up');
    await page.getByRole('button', { name: 'Verify & Create Account' }).click();
    await waitForPath(page, `/groups/${groupId}`, 20_000);
    expect(await page.evaluate<string | null>("localStorage.getItem('pendingJoinToken')")).toBeNull();
    await page.locator('h1', { hasText: groupName }).waitFor();
    // The first-login rules close onto the group the invite led to, not My Picks.
    const rules = page.getByRole('alertdialog', { name: 'Rules of the Game' });
    await rules.getByRole('button', { name: 'Play First Round' }).click();
    await rules.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/groups/${groupId}`);
  });

  it('the friend makes global picks, which the group plays at once, then makes own picks from them and saves', async () => {
    const { page } = friend;
    await page.goto('/select-players');
    await pickAndSave(page, ['Cam Ward', 'Travis Hunter', 'Abdul Carter']);
    await waitForPath(page, '/my-picks');

    // The group plays My Picks: its page goes straight to the picks page, which says so.
    await page.goto(`/groups/${groupId}`);
    await waitForPath(page, `/groups/${groupId}/picks`);
    await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
    await page.getByText('2 members').first().waitFor();
    await page.getByRole('region', { name: 'Your entry in this group' }).getByText('Using My Picks · 3').waitFor();
    await shots(page, 'group-page-member');
    await page.getByRole('button', { name: 'Make own picks for this group' }).click();
    await waitForPath(page, `/select-players?groupId=${groupId}`);
    await page.getByRole('note', { name: 'Which picks you are editing' }).getByText(`Own picks for ${groupName}`).waitFor();
    // The fork starts as a copy of My Picks.
    await page.getByText('3 selections').waitFor();
    await pickAndSave(page, ['Will Campbell']);
    await waitForPath(page, `/groups/${groupId}/picks`);
    await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Your entry in this group' }).getByText('Own picks · 4').waitFor();
    const members = page.getByRole('list', { name: 'Members' });
    await members.getByRole('listitem').filter({ hasText: friendName }).getByText('Picks are in').waitFor();
    await members.getByRole('listitem').filter({ hasText: ownerName }).getByText('No picks yet').waitFor();
    await page.getByRole('button', { name: 'Edit picks for this group' }).waitFor();
    // Members may invite too, unless the owner turns it off, but see
    // none of the owner's settings.
    await page.getByRole('button', { name: 'Invite', exact: true }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Members can invite friends' }).count()).toBe(0);
    // With picks in the group, its page goes straight to the picks page.
    await page.goto(`/groups/${groupId}`);
    await waitForPath(page, `/groups/${groupId}/picks`);
    await page.getByRole('list', { name: 'Members' }).waitFor();
    await shots(page, 'group-picks-before-start');
    await page.goto('/groups');
    const card = page.getByRole('list', { name: 'My groups' }).getByRole('listitem').filter({ hasText: groupName });
    await card.getByText('2 members').waitFor();
    await card.getByRole('button', { name: `Invite friends to ${groupName}` }).waitFor();
  });

  it('the owner makes own picks for the group', async () => {
    const { page } = owner;
    await page.goto(`/groups/${groupId}`);
    await page.getByRole('button', { name: 'Make own picks for this group' }).click();
    await waitForPath(page, `/select-players?groupId=${groupId}`);
    await page.getByRole('heading', { name: 'Select Players' }).waitFor();
    await pickAndSave(page, ['Travis Hunter', 'Will Campbell', 'Mason Graham']);
    await waitForPath(page, `/groups/${groupId}/picks`);
    const members = page.getByRole('list', { name: 'Members' });
    await members.getByRole('listitem').filter({ hasText: ownerName }).getByText('Picks are in').waitFor();
    await members.getByRole('listitem').filter({ hasText: friendName }).getByText('Picks are in').waitFor();
    // The owner's invite stays at hand on the picks page until the draft starts.
    await page.getByRole('button', { name: 'Invite', exact: true }).waitFor();
  });

  it('a third person joins a password group by id (wrong password first) and a public group with one click', async () => {
    // Someone else hosts a public group and a password-protected one (through REST).
    const host = await apiSession(uniqueEmail('host'), uniqueUsername('Host'));
    publicId = Number((await restAs(host, 'POST', '/groups', { name: publicName, is_public: true, picks_public: false })).group_id);
    vaultId = Number((await restAs(host, 'POST', '/groups', { name: vaultName, password: 'open sesame' })).group_id);

    const { page } = third;
    await signUpThroughUi(page, uniqueEmail('third'), thirdName);
    await acceptRules(page);
    await page.goto('/groups');
    const publicList = page.getByRole('list', { name: 'Public groups' });
    const publicCard = publicList.getByRole('listitem').filter({ hasText: publicName });
    await publicCard.getByText('1 member').waitFor();
    await shots(page, 'groups-public');
    await publicCard.getByRole('button', { name: `Join Group ${publicName}` }).click();
    expect(await toastText(page)).toContain('You have joined the group');
    await waitForPath(page, `/groups/${publicId}`);
    await page.getByRole('heading', { name: publicName, level: 1 }).waitFor();
    await page.getByText('2 members').first().waitFor();

    await page.goto('/groups/join');
    await page.getByText('Leave blank if the group has no password').waitFor();
    await page.getByRole('button', { name: 'Join Group' }).click();
    await page.getByText('Group ID is required').waitFor();
    await page.getByRole('textbox', { name: 'Group ID' }).fill(String(vaultId));
    await page.getByLabel('Password').fill('guess');
    await page.getByRole('button', { name: 'Join Group' }).click();
    // A wrong password says how many tries are left, not the generic 'check the group ID and password'.
    await page.getByText('Wrong password for this group. 4 tries left.').waitFor();
    await shots(page, 'groups-join-by-id');
    await page.getByLabel('Password').fill('open sesame');
    await page.getByRole('button', { name: 'Join Group' }).click();
    await waitForPath(page, `/groups/${vaultId}`);
    await page.getByRole('heading', { name: vaultName, level: 1 }).waitFor();

    // Signed in, an invite link joins at once and opens the group; then the third person makes picks.
    await page.goto(inviteLink);
    await waitForPath(page, `/groups/${groupId}`);
    await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Make own picks for this group' }).click();
    await waitForPath(page, `/select-players?groupId=${groupId}`);
    await pickAndSave(page, ['Travis Hunter', 'Abdul Carter', 'Shedeur Sanders']);
    await waitForPath(page, `/groups/${groupId}/picks`);

    await page.goto('/groups');
    for (const name of [groupName, publicName, vaultName]) await page.getByRole('list', { name: 'My groups' }).getByRole('link', { name }).waitFor();
    await page.getByText('No public groups available to join.').or(page.getByRole('list', { name: 'Public groups' })).first().waitFor();
    expect(await page.getByRole('list', { name: 'Public groups' }).getByText(publicName).count()).toBe(0);
  });

  it('ids that are not positive integers load nothing', async () => {
    const { page } = third;
    for (const bad of ['abc', '0', '-3']) {
      await page.goto(`/groups/${bad}`);
      await page.getByRole('heading', { name: 'Failed to load group details' }).waitFor();
      await page.getByRole('link', { name: 'Back to My Groups' }).first().waitFor();
    }
    await shots(page, 'group-page-error');
  });

  it('once the operator starts the draft: no create or invite, the group page opens the leaderboard, which ranks by the rules', async () => {
    await op.startDraft();
    const { page } = owner;
    await page.goto('/groups');
    await page.getByRole('list', { name: 'My groups' }).getByRole('link', { name: groupName }).waitFor();
    expect(await page.getByRole('link', { name: 'Create a Group' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Invite/ }).count()).toBe(0);
    await page.getByRole('link', { name: 'Join a Group' }).waitFor();
    await shots(page, 'groups-list-started');

    await page.getByRole('list', { name: 'My groups' }).getByRole('link', { name: groupName }).click();
    await waitForPath(page, `/groups/${groupId}/picks`);
    await page.getByText('3 participants · 3 still alive').waitFor();
    expect(await page.getByRole('button', { name: /Invite/ }).count()).toBe(0);

    for (const [slot, name] of [[1, 'Cam Ward'], [2, 'Travis Hunter'], [3, 'Abdul Carter'], [4, 'Will Campbell']] as const) await op.recordPick(slot, name);
    // The open page follows the draft live (no reload): the friend's four hits arrive on their own.
    // The ranking rows themselves (an opened row holds a list of picks of its own).
    const rows = page.locator('ol[aria-label="Rankings"] > li');
    await rows.first().getByLabel('4 correct picks', { exact: true }).waitFor({ timeout: 20_000 });

    // Friend: 4 hits. Owner (Travis Hunter, Will Campbell) and third (Travis Hunter, Abdul Carter) have 2
    // each and one pick pending: the tie goes to the entry whose lowest-ranked hit has the larger big-board rank.
    const rank = new Map((await listPlayers()).map((p) => [p.player_name, p.rank]));
    const worst = (names: string[]) => Math.max(...names.map((n) => rank.get(n)!));
    const ownerWorst = worst(['Travis Hunter', 'Will Campbell']);
    const thirdWorst = worst(['Travis Hunter', 'Abdul Carter']);
    const expected =
      ownerWorst === thirdWorst
        ? [[1, friendName, 4], [2, ownerName, 2], [2, thirdName, 2]]
        : ownerWorst > thirdWorst
          ? [[1, friendName, 4], [2, ownerName, 2], [3, thirdName, 2]]
          : [[1, friendName, 4], [2, thirdName, 2], [3, ownerName, 2]];
    for (const [i, [r, name, score]] of expected.entries()) {
      const row = rows.nth(i);
      if (ownerWorst !== thirdWorst || i === 0) await row.getByText(name as string, { exact: true }).waitFor();
      await row.getByLabel(`Rank ${r}`, { exact: true }).waitFor();
      await row.getByLabel(`${score} correct picks`, { exact: true }).waitFor();
    }
    const ownerRow = rows.filter({ hasText: ownerName });
    expect(await ownerRow.getAttribute('aria-current')).toBe('true');
    await ownerRow.getByText(`Tie-break: boldest hit, #${ownerWorst} on the board`).waitFor();
    await page.getByText('3 participants · 3 still alive').waitFor();
    await page.getByRole('link', { name: 'View Picks' }).waitFor();

    // picks_public: each member's picks open from their row.
    await rows.filter({ hasText: friendName }).getByRole('button').click();
    const friendPicks = page.getByRole('list', { name: `${friendName}'s picks` });
    await friendPicks.getByText('Will Campbell').waitFor();
    expect(await friendPicks.getByText(/^Hit · Pick \d+ · [A-Z]{2,3}$/).count()).toBe(4);
    await dismissToasts(page); // any toast (picks are on the live strip, not toasted)
    await shots(page, 'group-leaderboard');

    // Round one complete: the pending picks are misses, the owner and the third person are busted. With
    // fewer alive than busted, the busted entries fold away under 'Busted (2)' until opened.
    await op.completeRound();
    await page.getByText('3 participants · 1 survived round one').waitFor({ timeout: 20_000 });
    const fold = page.getByRole('button', { name: 'Busted (2)' });
    await fold.waitFor();
    await rows.filter({ hasText: friendName }).getByLabel('Rank 1', { exact: true }).waitFor();
    expect(await rows.count()).toBe(1);
    await fold.click();
    const bustedRows = page.locator('ol[aria-label="Busted entries"] > li');
    await bustedRows.nth(1).waitFor();
    expect(await bustedRows.getByText('Busted', { exact: true }).count()).toBe(2);
    await bustedRows.filter({ hasText: ownerName }).getByLabel('Rank 2', { exact: true }).waitFor();
    await bustedRows.filter({ hasText: thirdName }).getByLabel('Rank 2', { exact: true }).waitFor();
    // The owner's own entry, pinned above, says busted too.
    await page.getByRole('region', { name: 'Your entry' }).getByText('Busted', { exact: true }).waitFor();
    await bustedRows.filter({ hasText: thirdName }).getByRole('button').click();
    await page.getByRole('list', { name: `${thirdName}'s picks` }).getByText('Shedeur Sanders').waitFor();
    await page.getByRole('list', { name: `${thirdName}'s picks` }).getByText('Miss', { exact: true }).waitFor();

    await page.getByRole('link', { name: 'View Picks' }).click();
    await waitForPath(page, `/select-players?groupId=${groupId}`);
    await page.getByRole('heading', { name: 'My Picks / View Picks' }).waitFor();
  });

  it('the friend follows the same leaderboard on a phone, own row highlighted', async () => {
    const { page } = friend;
    await page.goto(`/groups/${groupId}`);
    await waitForPath(page, `/groups/${groupId}/picks`);
    const mine = page.getByRole('list', { name: 'Rankings' }).getByRole('listitem').filter({ hasText: friendName });
    await mine.getByText('You', { exact: true }).waitFor();
    expect(await mine.getAttribute('aria-current')).toBe('true');
    await expectFitsWidth(page);
    // The card of a public group the friend never joined still offers one-click joining after the start.
    await page.goto('/groups');
    await page.getByRole('list', { name: 'Public groups' }).getByText(publicName).waitFor();
    expect(await page.getByRole('link', { name: 'Create a Group' }).count()).toBe(0);
  });
});
