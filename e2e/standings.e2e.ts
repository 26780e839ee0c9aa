import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type pg from 'pg';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { BASE_URL, uniqueEmail, uniqueUsername, MARSHAL_EMAIL, LIVE_MS } from './support/env';
import { apiSession } from './support/idp';
import { removeSeeded, seedEntries, serverDatabase } from './support/database';
import { listPlayers, operator } from './support/operator';
import { signInWithSession } from './support/session';
import { acceptRules, expectNoHorizontalScroll, togglePlayer, waitForPath } from './support/ui';
import { watchForText, type TextSighting } from './support/watch-text';

/**
 * Standings people can read, on a 300-entry board: the caller pinned on top with Jump to me
 * (their row is on the second page), the busted entries folded away once fewer are alive; My Picks as a
 * status card before, during and after the bust; group cards with the caller's place. The 300 entries are
 * written straight into the database. The board's search, its tie-break tip and opening the busted fold are
 * the screen's own logic, checked in client/src/components/standings-board.test.tsx (search over the whole
 * ranking, ignoring case, with real ranks: server/test/leaderboard-views.test.ts).
 */
const tag = Date.now().toString(36).slice(-5);
const PREFIX = `e2e-standings-${tag}-`;
/** 110 entries ahead of the player (both of the first two picks), 189 long shots busted early and Zebra. */
const AHEAD = 110;
const LONGSHOTS = 189;

const rankings = (page: Page) => page.getByRole('list', { name: 'Rankings' });
const rowOf = (list: ReturnType<typeof rankings>, name: string) => list.getByRole('listitem').filter({ hasText: name });

/** '302 entries · 111 still alive' (once final '… · 111 survived round one') → [302, 111]. */
async function counts(page: Page): Promise<[number, number]> {
  const text = await page.getByText(/^\d+ entries · \d+ (still alive|survived round one)$/).innerText();
  const [, entries, alive] = text.match(/^(\d+) entries · (\d+) (still alive|survived round one)$/)!;
  return [Number(entries), Number(alive)];
}

describe('standings people can read', () => {
  let browser: Browser;
  let db: pg.Client;
  let op: Awaited<ReturnType<typeof operator>>;
  let me: Person;
  let sightings: TextSighting[];
  let groupId: number;
  const username = uniqueUsername('Jumper');

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator(MARSHAL_EMAIL);
    await op.resetDraft();
    db = await serverDatabase();
  });
  afterAll(async () => {
    if (db) {
      await removeSeeded(db, PREFIX).catch(() => undefined);
      await db.end();
    }
    // A draft change: the standings are ranked again without the seeded entries.
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('before the draft: My Picks counts the picks, says until when they can change and where else they count', async () => {
    me = await newPerson(browser);
    const { page } = me;
    // Any sighting of a busted entry's name, however brief, is recorded (see the folded standings below).
    sightings = await watchForText(me.context, [`Longshot${tag}`, `Zebra${tag}`]);
    await signInWithSession(page, uniqueEmail('jumper'), username);
    await acceptRules(page);
    await page.getByRole('heading', { name: 'Edit Picks', level: 1 }).waitFor();
    const card = page.getByRole('status', { name: 'Your entry' });
    await card.getByText('0 picks').waitFor();

    await page.getByRole('link', { name: 'Select Players' }).click();
    for (const name of ['Cam Ward', 'Shedeur Sanders']) {
      await page.getByRole('textbox', { name: 'Search Players' }).fill(name);
      await togglePlayer(page, name);
    }
    await page.getByRole('button', { name: 'Save Picks' }).click();
    await waitForPath(page, '/my-picks');
    await card.getByText('2 picks').waitFor();
    expect(await card.innerText()).toMatch(/2 picks · editable until (Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} (AM|PM) [A-Z]{2,4}([+-]\d+)?$/);
    expect(await card.innerText()).not.toContain('used in');

    // A new group plays My Picks at once (its page hands over to the picks page); a friend has not picked yet.
    await page.goto('/groups/create');
    await page.getByRole('textbox', { name: 'Group Name' }).fill(`Jump Crew ${tag}`);
    await page.getByRole('button', { name: 'Create Group' }).click();
    await waitForPath(page, /^\/groups\/\d+\/picks$/);
    groupId = Number(new URL(page.url()).pathname.split('/')[2]);
    const friend = await apiSession(uniqueEmail('crewmate'), uniqueUsername('Crewmate'));
    const joined = await fetch(`${BASE_URL}/api/groups/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await friend.token()}` },
      body: JSON.stringify({ group_id: groupId }),
    });
    expect(joined.status).toBe(200);

    // The group card: whose picks are in.
    await page.goto('/groups');
    const groupCard = page.getByRole('list', { name: 'My groups' }).getByRole('listitem').filter({ hasText: `Jump Crew ${tag}` });
    await groupCard.getByText('✓ Using My Picks · 2').waitFor();
    await groupCard.getByText('1 of 2 ready').waitFor();
    // The friend's group picks go in: both of the first two picks.
    const saved = await fetch(`${BASE_URL}/api/picks/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await friend.token()}` },
      body: JSON.stringify({ group_id: groupId, picks: await Promise.all(['Cam Ward', 'Travis Hunter'].map(idOf)) }),
    });
    expect(saved.status).toBe(200);
    await page.reload();
    await groupCard.getByText('2 of 2 ready').waitFor();

    await page.goto('/my-picks');
    await card.getByText('used in 1 group').waitFor();
    await page.getByText(`My Picks play in Jump Crew ${tag}.`).waitFor();
  });

  it('300 entries are on the board; the draft starts and the first two picks are made', async () => {
    const board = await listPlayers();
    const longshotPicks = board
      .filter((p) => p.player_name !== 'Cam Ward' && p.player_name !== 'Travis Hunter')
      .slice(0, 32)
      .map((p) => p.player_name);
    const entries = [
      ...Array.from({ length: AHEAD }, (_, i) => ({ name: `Ahead${tag}-${String(i).padStart(3, '0')}`, picks: ['Cam Ward', 'Travis Hunter'] })),
      ...Array.from({ length: LONGSHOTS }, (_, i) => ({ name: `Longshot${tag}-${String(i).padStart(3, '0')}`, picks: longshotPicks })),
      { name: `Zebra${tag}`, picks: longshotPicks },
    ];
    expect(entries.length).toBe(300);
    await seedEntries(db, PREFIX, entries);
    await op.startDraft();
    await op.recordPick(1, 'Cam Ward');
    await op.recordPick(2, 'Travis Hunter');
  });

  it('the leaderboard pins the player, folds the busted entries away and jumps to the player on page two', async () => {
    const { page } = me;
    await page.goto('/leaderboard');
    const pinned = page.getByRole('region', { name: 'Your entry' });
    await pinned.getByText(username).waitFor(); // a page load: the default wait, not a live update's LIVE_MS
    // 32-pick long shots with nothing drafted are busted after two picks (32 pending, 30 slots left).
    await page.getByText(/^\d+ entries · \d+ still alive$/).waitFor();
    const [entries, alive] = await counts(page);
    expect(entries).toBeGreaterThanOrEqual(301);
    expect(alive).toBeLessThan(entries - alive);
    const fold = page.getByRole('button', { name: `Busted (${entries - alive})` });
    await fold.waitFor();
    expect(await fold.getAttribute('aria-expanded')).toBe('false');

    // The pinned entry: rank, hits, pending, status and the tie-break in words.
    const pinnedText = await pinned.innerText();
    expect(pinnedText).toMatch(/#\d+/);
    expect(pinnedText).toContain('1 hit · 1 pending');
    expect(pinnedText).toMatch(/Tie-break: boldest hit, #\d+ on the board/);
    await pinned.getByText('Alive', { exact: true }).waitFor();
    // Who can still win: the entries ahead are settled on 2 hits; one pending pick can still reach them.
    await pinned.getByText('Can still win', { exact: true }).waitFor();
    const myRank = Number(pinnedText.match(/#(\d+)/)![1]);
    expect(myRank).toBeGreaterThan(AHEAD);

    // The benchmark entries, scored live and marked, not ranked: Travis Hunter (#1) and Cam Ward
    // (#5) are both in the board's top 10, which is ahead of the player's single hit.
    const benchmarks = page.getByRole('region', { name: 'Benchmarks' });
    const top10 = benchmarks.getByRole('listitem', { name: 'Benchmark: Top 10 only' });
    await top10.getByText('2 hits · 8 pending · It has more hits than you').waitFor();
    expect(await benchmarks.getByRole('listitem').count()).toBe(3);
    await benchmarks.getByRole('listitem', { name: 'Benchmark: Big board top 32' }).getByText('Alive', { exact: true }).waitFor();

    // Page one: the 110 entries ahead fill it; the player is not on it.
    const list = rankings(page);
    await list.getByRole('listitem').nth(99).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(100);
    expect(await rowOf(list, username).count()).toBe(0);
    const pager = page.getByRole('navigation', { name: 'Pages of the standings' });
    await pager.getByText(`1–100 of ${alive}`).waitFor();
    // The columns and the tie-break in words on every alive row with a hit.
    for (const heading of ['Rank', 'Player', 'Hits', 'Pending', 'Status']) await page.getByText(heading, { exact: true }).first().waitFor();
    const first = list.getByRole('listitem').first();
    expect(await first.innerText()).toMatch(/Tie-break: boldest hit, #\d+ on the board/);
    await first.getByLabel('2 correct picks').waitFor();
    await first.getByLabel('0 picks pending').waitFor();
    await first.getByText('Can still win', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Jump to me' }).click();
    const mine = rowOf(list, username);
    await mine.waitFor();
    await pager.getByText(`101–${Math.min(200, alive)} of ${alive}`).waitFor();
    expect(await mine.getAttribute('aria-current')).toBe('true');
    expect(await mine.getByLabel(`Rank ${myRank}`).count()).toBe(1);
    await mine.getByLabel('1 correct pick').waitFor();
    await mine.getByLabel('1 pick pending').waitFor();
    // Scrolled to and focused: a keyboard or screen reader user lands on it too.
    await focused(page, await mine.getAttribute('id'));
    expect(await mine.isVisible()).toBe(true);
    const box = (await mine.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);

    // Folded: not one busted entry was put on the page, even for a moment.
    expect(sightings).toEqual([]);
  });

  it('My Picks during the draft: ALIVE, hits of picks, pending and the rank', async () => {
    const { page } = me;
    await page.goto('/my-picks');
    await page.getByRole('heading', { name: 'My Picks', level: 1 }).waitFor();
    const card = page.getByRole('status', { name: 'Your entry' });
    await card.getByText('ALIVE', { exact: true }).waitFor();
    await card.getByText('1 of 2 hit', { exact: true }).waitFor();
    await card.getByText('1 pending', { exact: true }).waitFor();
    await card.getByText(/^rank \d+ of \d+$/).waitFor();
    await card.getByText('Can still win', { exact: true }).waitFor();
    const [, rank, of] = (await card.getByText(/^rank \d+ of \d+$/).innerText()).match(/rank (\d+) of (\d+)/)!;
    expect(Number(rank)).toBeGreaterThan(AHEAD);
    expect(Number(of)).toBeGreaterThanOrEqual(301);
    expect(await page.getByRole('link', { name: 'Edit Picks' }).count()).toBe(0);
    // Each pick says how much of the field holds him too (the global field, read once after the start).
    const shares = page.getByRole('list', { name: 'My picks' }).getByText(/^(Picked by (<1|\d+) % of all entries, you included|Only you picked him)$/);
    await shares.first().waitFor();
    expect(await shares.count()).toBe(2);

    // The group card: the player's place and status, live.
    await page.goto('/groups');
    const groupCard = page.getByRole('list', { name: 'My groups' }).getByRole('listitem').filter({ hasText: `Jump Crew ${tag}` });
    await groupCard.getByText('2nd of 2 · Alive').waitFor();
  });

  it('round one complete: the player is busted, says why, and Jump to me opens the busted entries at their row', async () => {
    const { page } = me;
    await page.goto('/my-picks');
    const card = page.getByRole('status', { name: 'Your entry' });
    await card.getByText('ALIVE', { exact: true }).waitFor();
    await op.completeRound();
    // Live, no reload.
    await card.getByText('BUSTED: Shedeur Sanders was not drafted in round one').waitFor({ timeout: LIVE_MS });
    // Round one is over: the card says final.
    // Round one is over: the card says final, and a miss zeroes the entry: its hits told as every screen tells them.
    await card.getByText(/^Final · busted · had 1 hit · \d+(st|nd|rd|th) of \d+$/).waitFor();
    await page.getByRole('heading', { name: 'My Picks', level: 1 }).waitFor();

    await page.goto('/groups');
    await page.getByRole('list', { name: 'My groups' }).getByRole('listitem').filter({ hasText: `Jump Crew ${tag}` }).getByText('FINAL · 2nd of 2 · Busted').waitFor();

    await page.goto('/leaderboard');
    const pinned = page.getByRole('region', { name: 'Your entry' });
    await pinned.getByText('Busted', { exact: true }).waitFor();
    await page.getByRole('button', { name: /^Busted \(\d+\)$/ }).waitFor();
    await page.getByRole('button', { name: 'Jump to me' }).click();
    const mine = rowOf(page.getByRole('list', { name: 'Busted entries' }), username);
    await mine.waitFor();
    await focused(page, await mine.getAttribute('id'));
    await mine.getByLabel('No pending picks: busted').waitFor();
    expect(await rowOf(rankings(page), username).count()).toBe(0);

    // On a phone the same board fits the width.
    await page.setViewportSize({ width: 375, height: 760 });
    await pinned.getByRole('button', { name: 'Jump to me' }).waitFor();
    await expectNoHorizontalScroll(page);
  });
});

async function idOf(name: string): Promise<number> {
  const player = (await listPlayers()).find((p) => p.player_name === name);
  if (!player) throw new Error(`No player named ${name}`);
  return player.id;
}

/** Waits until the element with this id has the focus. */
async function focused(page: Page, id: string | null) {
  await page.waitForFunction(`document.activeElement?.id === ${JSON.stringify(id)}`);
}
