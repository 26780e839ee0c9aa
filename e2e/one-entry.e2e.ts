import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { BASE_URL, uniqueEmail, uniqueUsername, UMPIRE_EMAIL, LIVE_MS } from './support/env';
import { apiSession } from './support/idp';
import { listPlayers, operator, playerId } from './support/operator';
import { rest } from './support/rest';
import { signInWithSession } from './support/session';
import { expectNoHorizontalScroll, waitForPath } from './support/ui';
import { watchForText } from './support/watch-text';

/**
 * One entry, one truth on every screen. Alice keeps her picks on My Picks and creates a group: the group
 * plays them at once and follows her edits. Bob makes picks for the group only (a fork), then follows My
 * Picks again. A selection left unsaved survives a tab change and a reload, and leaving asks first. Once
 * round one is final, every screen that shows an entry says the result, in the same words, and no screen
 * says anything live.
 */
/** Words that belong to a draft still running: none may show once round one is final. */
const LIVE_WORDS = ['Alive', 'ALIVE', 'Can still win', 'Eliminated', 'under way', 'still pending', 'still alive', '▲', '▼', 'On the clock', 'LIVE'];

type Session = Awaited<ReturnType<typeof apiSession>>;

describe('one entry, one truth', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  let alice: Person;
  let bob: Person;
  let sAlice: Session;
  let sBob: Session;
  let board: number[];
  let groupId = 0;
  const groupName = `Sunday Squad ${Date.now().toString(36)}`;
  // Bob's name is long: on his phone it must still be whole in his own rows.
  const names = { alice: uniqueUsername('Alice'), bob: uniqueUsername('BartholomewLongname'), dan: uniqueUsername('Dan') };
  const emails = { alice: uniqueEmail('onealice'), bob: uniqueEmail('onebob'), dan: uniqueEmail('onedan') };
  let aliceSightings: { text: string; path: string }[];

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator(UMPIRE_EMAIL);
    await op.resetDraft();
    board = (await listPlayers()).map((p) => p.id);
    sAlice = await apiSession(emails.alice, names.alice);
    sBob = await apiSession(emails.bob, names.bob);
    for (const s of [sAlice, sBob]) await rest(s, 'PATCH', '/users/me/status');
    // Alice's My Picks: the board's first ten.
    await rest(sAlice, 'POST', '/picks', { picks: board.slice(0, 10) });
    alice = await newPerson(browser);
    // A stale "no picks" must never flash on her group screens, not even for a moment.
    aliceSightings = await watchForText(alice.context, ['No picks yet', 'Your picks are not in yet', 'no picks yet']);
    await signInWithSession(alice.page, emails.alice);
    bob = await newPerson(browser, { width: 375, height: 760 });
    await signInWithSession(bob.page, emails.bob);
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('a new group plays My Picks at once: the group page, its members and My Groups say "Using My Picks · 10"', async () => {
    const { page } = alice;
    await page.goto('/groups/create');
    await page.getByRole('textbox', { name: 'Group Name' }).fill(groupName);
    await page.getByText('Advanced options').click();
    await page.getByRole('checkbox', { name: "Members see each other's picks" }).check();
    await page.getByRole('button', { name: 'Create Group' }).click();
    // The entry has picks: the group page hands over to the picks page.
    await waitForPath(page, /^\/groups\/\d+\/picks$/);
    groupId = Number(new URL(page.url()).pathname.split('/')[2]);
    const entry = page.getByRole('region', { name: 'Your entry in this group' });
    await entry.getByText('Using My Picks · 10').waitFor();
    const me = page.getByRole('list', { name: 'Members' }).getByRole('listitem').filter({ hasText: names.alice });
    await me.getByText('Picks are in').waitFor();
    await me.getByText('Using My Picks · 10').waitFor();
    await page.getByRole('link', { name: 'Back to My Groups' }).click();
    const card = page.getByRole('list', { name: 'My groups' }).getByRole('listitem').filter({ hasText: groupName });
    await card.getByText('✓ Using My Picks · 10').waitFor();
    expect(aliceSightings.map((s) => s.text)).toEqual([]);
  });

  it('an edit of My Picks reaches the group at once, and the selection screen says which entry it edits', async () => {
    const { page } = alice;
    await page.goto(`/groups/${groupId}/picks`);
    await page.getByRole('button', { name: 'Edit My Picks' }).click();
    await waitForPath(page, `/select-players?groupId=${groupId}`);
    const note = page.getByRole('note', { name: 'Which picks you are editing' });
    await note.getByText('Editing My Picks').waitFor();
    expect(await note.innerText()).toContain(`on the global leaderboard and in ${groupName} that use My Picks`);
    const tenth = (await listPlayers()).find((p) => p.id === board[9])!;
    await page.getByRole('button', { name: tenth.player_name }).click();
    await page.getByRole('button', { name: 'Save Picks' }).click();
    await waitForPath(page, `/groups/${groupId}/picks`);
    await page.getByRole('region', { name: 'Your entry in this group' }).getByText('Using My Picks · 9').waitFor();
    expect(await rest(sAlice, 'GET', `/picks/my-picks?group_id=${groupId}`)).toMatchObject({ picks: board.slice(0, 9) });
    expect(aliceSightings).toEqual([]);
  });

  it('a fork is the group’s own picks; My Picks lists it; following My Picks again names what it drops', async () => {
    const { page } = bob;
    await rest(sBob, 'POST', '/groups/join', { group_id: groupId });
    await page.goto(`/groups/${groupId}`);
    // Bob has no My Picks: his linked entry has none yet.
    await page.getByRole('region', { name: 'Your entry in this group' }).getByText('Using My Picks · no picks yet').waitFor();
    await page.getByRole('button', { name: 'Make own picks for this group' }).click();
    await waitForPath(page, `/select-players?groupId=${groupId}`);
    await page.getByRole('note', { name: 'Which picks you are editing' }).getByText(`Own picks for ${groupName}`).waitFor();
    const players = await listPlayers();
    const eight = players.slice(20, 28);
    for (const p of eight) await page.getByRole('button', { name: p.player_name }).click();
    await page.getByRole('button', { name: 'Save Picks' }).click();
    await waitForPath(page, `/groups/${groupId}/picks`);
    await page.getByRole('region', { name: 'Your entry in this group' }).getByText('Own picks · 8').waitFor();
    await expectNoHorizontalScroll(page);

    // My Picks: no global picks, but the group entry is there with its state.
    await page.goto('/my-picks');
    await page.getByText("You haven't picked any players for My Picks yet: your entries in groups are below.").waitFor();
    const entries = page.getByRole('list', { name: 'Entries with own picks' }).getByRole('listitem');
    await entries.filter({ hasText: groupName }).getByText('Own picks · 8').waitFor();
    expect(await entries.filter({ hasText: groupName }).getByTestId('group-entry-state').innerText()).toBe('8 picks in');

    // Follow My Picks again: the confirmation names what goes.
    await page.goto(`/groups/${groupId}/picks`);
    await page.getByRole('button', { name: 'Follow My Picks again' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Follow My Picks again?' });
    const said = await dialog.innerText();
    expect(said).toContain(`Your own 8 picks for ${groupName} will be dropped (${eight[0]!.player_name}`);
    expect(said).toContain('and 4 more');
    await dialog.getByRole('button', { name: 'Follow My Picks' }).click();
    await page.getByRole('region', { name: 'Your entry in this group' }).getByText('Using My Picks · no picks yet').waitFor({ timeout: LIVE_MS });
    expect(await rest(sBob, 'GET', `/picks/my-picks?group_id=${groupId}`)).toMatchObject({ picks: [], use_global_picks: true });
  });

  it('selections not saved survive a tab change and a reload; leaving asks first; saving clears them', async () => {
    const { page } = alice;
    const players = await listPlayers();
    const [x, y] = [players[40]!, players[41]!];
    await page.goto('/select-players');
    await page.getByTestId('pick-count').getByText('9 / 32').waitFor();
    await page.getByRole('button', { name: x.player_name }).click();
    await page.getByRole('button', { name: y.player_name }).click();
    await page.getByText('Unsaved changes').waitFor();

    // Another tab of the app: asked first; leaving keeps the selection on the device.
    await page.getByRole('link', { name: 'Groups', exact: true }).click();
    const ask = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/select-players');
    await page.getByRole('link', { name: 'Groups', exact: true }).click();
    await ask.getByRole('button', { name: 'Leave' }).click();
    await waitForPath(page, '/groups');
    await page.goto('/select-players');
    await page.getByTestId('pick-count').getByText('11 / 32').waitFor();
    await page.getByText('Unsaved changes').waitFor();

    // A reload: the browser asks (beforeunload), and the selection is still there afterwards.
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.type();
      void d.accept();
    });
    await page.reload();
    await page.getByTestId('pick-count').getByText('11 / 32').waitFor();
    expect(asked).toBe('beforeunload');
    expect(await page.getByRole('button', { name: x.player_name }).getAttribute('aria-pressed')).toBe('true');

    // Discard goes back to the saved picks; a new change, saved, leaves nothing behind.
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByTestId('pick-count').getByText('9 / 32').waitFor();
    await page.getByText('Unsaved changes').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: x.player_name }).click();
    await page.getByRole('button', { name: 'Save Picks' }).click();
    await waitForPath(page, '/my-picks');
    expect(await page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('first-round:unsaved-picks:'))")).toEqual([]);
    await page.goto(`/groups/${groupId}/picks`);
    await page.getByRole('region', { name: 'Your entry in this group' }).getByText('Using My Picks · 10').waitFor();
  });

  it('once round one is final every screen says the result in the same words, and nothing live', async () => {
    const ids = async (...players: string[]) => Promise.all(players.map(playerId));
    // The night: Alice (My Picks) hits all three; Dan's own picks survive with two; Bob's own picks bust.
    await rest(sAlice, 'POST', '/picks', { picks: await ids('Cam Ward', 'Travis Hunter', 'Abdul Carter') });
    const sDan = await apiSession(emails.dan, names.dan);
    await rest(sDan, 'POST', '/groups/join', { group_id: groupId });
    await rest(sDan, 'POST', '/picks', { picks: await ids('Cam Ward', 'Travis Hunter'), group_id: groupId });
    await rest(sBob, 'POST', '/picks', { picks: await ids('Cam Ward', 'Shedeur Sanders'), group_id: groupId });
    const share = (await rest(sAlice, 'POST', '/share/links', { group_id: groupId })) as { url: string };
    await op.startDraft();
    await op.recordPick(1, 'Cam Ward');
    await op.recordPick(2, 'Travis Hunter');
    await op.recordPick(3, 'Abdul Carter');
    await op.completeRound();

    const { page } = alice;
    const noLiveWords = async (where: string) => {
      const text = await page.locator('body').innerText();
      for (const word of LIVE_WORDS) expect(text.includes(word), `"${word}" on ${where}`).toBe(false);
    };

    // The group's standings: the group's result in the banner, a Final badge, results in the rows.
    await page.goto(`/groups/${groupId}/picks`);
    const final = page.getByRole('region', { name: 'Round one final' });
    await final.getByText(`You finished 1st of 3 in ${groupName}`).waitFor(); // a page load: the default wait
    await final.getByText(`Winner: ${names.alice}`).waitFor();
    await page.getByText('Final', { exact: true }).waitFor();
    const rows = page.getByRole('list', { name: 'Rankings' });
    await rows.getByRole('listitem').filter({ hasText: names.alice }).getByText('Winner', { exact: true }).waitFor();
    await rows.getByRole('listitem').filter({ hasText: names.dan }).getByText('Survived · 2 hits').waitFor();
    await rows.getByRole('listitem').filter({ hasText: names.bob }).getByText('Busted').waitFor();
    await page.getByText('3 participants · 2 survived round one').waitFor();
    await noLiveWords('the group standings');

    // The group's draft board: the group's own counts, the global figure labelled as such.
    await page.goto(`/groups/${groupId}/board`);
    const slots = page.locator('ol[aria-label="Round one picks"] > li');
    await slots.first().getByText('Cam Ward').waitFor();
    // The global figure comes with the field's own read, a moment after the board's (no wrong figure before it).
    await expect.poll(() => slots.first().getByTestId('slot-share').innerText()).toMatch(/^3 of 3 in this group · \d+ % of all entries$/);
    expect(await page.locator('body').innerText()).not.toContain('in no entry');
    await noLiveWords('the draft board');

    // My Picks, My Groups, the global leaderboard and the share card: the same result.
    await page.goto('/my-picks');
    await page.getByRole('status', { name: 'Your entry' }).getByText('Final: 3 of 3 hit').waitFor();
    await noLiveWords('My Picks');
    await page.goto('/groups');
    const card = page.getByRole('list', { name: 'My groups' }).getByRole('listitem').filter({ hasText: groupName });
    await card.getByText('FINAL · 1st of 3 · Winner').waitFor();
    await noLiveWords('My Groups');
    await page.goto('/leaderboard');
    await page.getByRole('region', { name: 'Round one final' }).getByText(/You finished \d+\w\w of \d+/).waitFor();
    await noLiveWords('the global leaderboard');
    const shared = await (await fetch(new URL(share.url, BASE_URL))).text();
    expect(shared).toContain('FINAL · 1st of 3');
    expect(shared).toMatch(/winner/i);
    expect(shared).not.toMatch(/alive/i);

    // Bob, on his phone, reads his own result the same way.
    await bob.page.goto(`/groups/${groupId}/picks`);
    // A page load: the default wait, not a live update's LIVE_MS.
    await bob.page.getByRole('region', { name: 'Round one final' }).getByText(`You finished 3rd of 3 in ${groupName} · busted`).waitFor();
    // His own name is whole (never cut) in his row and his pinned entry; the tie-break tip stays on screen.
    const whole = (name: string) =>
      bob.page.getByText(name, { exact: true }).evaluateAll((els) => els.filter((e) => e.getClientRects().length > 0).map((e) => e.scrollWidth <= e.clientWidth + 1));
    await bob.page.getByRole('region', { name: 'Your entry' }).getByText(names.bob, { exact: true }).waitFor();
    const shown = await whole(names.bob);
    expect(shown.length).toBeGreaterThanOrEqual(2);
    expect(shown.every(Boolean)).toBe(true);
    await bob.page.getByRole('button', { name: /^Tie-break: boldest hit/ }).click();
    const tip = (await bob.page.getByRole('tooltip').filter({ hasText: 'A tie goes to the bolder entry' }).boundingBox())!;
    expect(tip.x).toBeGreaterThanOrEqual(0);
    expect(tip.x + tip.width).toBeLessThanOrEqual(375);
    await bob.page.goto('/groups');
    await bob.page.getByRole('list', { name: 'My groups' }).getByRole('listitem').filter({ hasText: groupName }).getByText('FINAL · 3rd of 3 · Busted').waitFor();
    await expectNoHorizontalScroll(bob.page);
  });
});
