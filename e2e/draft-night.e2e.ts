import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext } from './support/browser';
import { BASE_URL, uniqueEmail, uniqueUsername, MARSHAL_EMAIL, LIVE_MS } from './support/env';
import { apiSession } from './support/idp';
import { operator, playerId } from './support/operator';
import { liveStrip, waitForPath } from './support/ui';
import { signInWithSession } from './support/session';
import { watchForText, type TextSighting } from './support/watch-text';
import { rest } from './support/rest';

/**
 * The live layer on draft night. Three friends in a group keep its standings open while the
 * operator starts the draft, records four picks and completes round one:
 * - before the start, a countdown chip in each player's own time zone;
 * - then the strip under the header: the latest pick, 'your entry ✓' when it is theirs, the earlier picks
 *   as a ticker, and never an older pick number once a newer one showed (sampled, and every DOM change
 *   recorded);
 * - rows that moved show ▲/▼ since the previous pick and flash, unless the player asked for less motion;
 * - once round one is complete: the Final card (winner, podium, your final place), no strip.
 *
 * The picks make the group's ranks move as the rules say (more hits first, then the boldest hit):
 *   Ana: Jalon Walker (#11), Armand Membou (#7)   Bo: Travis Hunter (#1)   Cy: Colston Loveland (#14)
 *   pick 1 Travis Hunter    Bo 1st; Ana, Cy 2nd          (Ana ▼1, Cy ▼1)
 *   pick 2 Jalon Walker     Ana 1st, Bo 2nd, Cy 3rd      (Ana ▲1, Bo ▼1, Cy ▼1)
 *   pick 3 Armand Membou    nobody moves                  (no arrows)
 *   pick 4 Colston Loveland Ana 1st, Cy 2nd, Bo 3rd       (Cy ▲1, Bo ▼1)
 */
const DAY_MS = 86_400_000;

interface Friend {
  name: string;
  email: string;
  picks: string[];
  context: BrowserContext;
  page: Page;
  sightings: TextSighting[];
}

/** The group's standings rows (an opened row holds a list of its own). */
const rows = (page: Page) => page.locator('ol[aria-label="Rankings"] > li');
const rowOf = (page: Page, name: string) => rows(page).filter({ hasText: name });
/** The pick number the strip leads with now ('Pick 2 · JAX · …', not the slot on the clock), or null without one. */
async function stripPickNumber(page: Page): Promise<number | null> {
  // Read in the page at one instant: null means the strip truly is not there. (A locator read with a short
  // timeout also gave null when a loaded machine was merely slow to answer, which looked like the strip
  // going back.)
  const text = await page.evaluate<string | null>(`document.querySelector('section[aria-label="Draft live"] [role="status"]')?.textContent ?? null`);
  const m = text?.match(/Pick (\d+) · [A-Z]{2,3} · /);
  return m ? Number(m[1]) : null;
}

describe('draft night: the live strip, rank arrows and the Final card', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  let groupId = 0;
  const groupName = `Draft Night ${Date.now().toString(36)}`;
  const ana = { name: uniqueUsername('Ana'), email: uniqueEmail('ana'), picks: ['Jalon Walker', 'Armand Membou'] } as Friend;
  const bo = { name: uniqueUsername('Bo'), email: uniqueEmail('bo'), picks: ['Travis Hunter'] } as Friend;
  const cy = { name: uniqueUsername('Cy'), email: uniqueEmail('cy'), picks: ['Colston Loveland'] } as Friend;
  let deadline = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator(MARSHAL_EMAIL);
    await op.resetDraft();
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('three friends with picks in a group open its page before the start: a countdown chip in their own time zone', async () => {
    // Accounts, the group, the picks (the same in the group and globally) and the rules seen, through the API.
    const sessions = new Map<Friend, Awaited<ReturnType<typeof apiSession>>>();
    for (const f of [ana, bo, cy]) sessions.set(f, await apiSession(f.email, f.name));
    groupId = Number((await rest(sessions.get(ana)!, 'POST', '/groups', { name: groupName })).group_id);
    const { token } = (await rest(sessions.get(ana)!, 'POST', '/groups/join-links', { group_id: groupId })) as { token: string };
    for (const f of [bo, cy]) await rest(sessions.get(f)!, 'POST', `/groups/join-with-link/${token}`);
    for (const f of [ana, bo, cy]) {
      const ids = await Promise.all(f.picks.map(playerId));
      await rest(sessions.get(f)!, 'POST', '/picks', { picks: ids });
      await rest(sessions.get(f)!, 'POST', '/picks', { picks: ids, group_id: groupId });
      await rest(sessions.get(f)!, 'PATCH', '/users/me/status');
    }
    deadline = ((await (await fetch(`${BASE_URL}/api/draft/status`)).json()) as { deadline: string }).deadline;

    // Ana on a desktop in New York with less motion; Bo on a phone in Los Angeles; Cy on a desktop.
    const setups: [Friend, { width: number; height: number }, string, 'reduce' | 'no-preference'][] = [
      [ana, { width: 1280, height: 900 }, 'America/New_York', 'reduce'],
      [bo, { width: 375, height: 760 }, 'America/Los_Angeles', 'no-preference'],
      [cy, { width: 1280, height: 900 }, 'America/New_York', 'reduce'],
    ];
    for (const [f, viewport, timezoneId, reducedMotion] of setups) {
      f.context = await newContext(browser, { viewport, timezoneId, reducedMotion });
      f.context.setDefaultTimeout(10_000);
      f.sightings = await watchForText(f.context, [1, 2, 3, 4].map((n) => `Pick ${n}`));
      f.page = await f.context.newPage();
      await signInWithSession(f.page, f.email);
      await f.page.goto(`/groups/${groupId}/picks`);
      await f.page.getByRole('heading', { level: 1 }).waitFor();
    }

    const days = (deadline: string) => Math.ceil((Date.parse(deadline) - Date.now()) / DAY_MS);
    const chip = ana.page.getByRole('timer').filter({ hasText: 'Picks lock' });
    const text = (await chip.textContent())!;
    // The e2e server's deadline is draft night: the last Thursday of April, 8 PM Eastern.
    expect(text).toMatch(/^Picks lock Thu Apr \d{1,2}, 8:00 PM EDT · \d+ d$/);
    expect(Math.abs(Number(text.match(/(\d+) d$/)![1]) - days(deadline))).toBeLessThanOrEqual(1);
    expect(await bo.page.getByRole('timer').filter({ hasText: 'Picks lock' }).textContent()).toMatch(/^Picks lock Thu Apr \d{1,2}, 5:00 PM PDT · \d+ d$/);
    // The chip is on My Picks and the Leaderboard too, not on Settings.
    await ana.page.getByRole('link', { name: 'My Picks' }).click();
    await chip.waitFor();
    await ana.page.getByRole('link', { name: 'Settings' }).click();
    await chip.waitFor({ state: 'detached' });
    await ana.page.goBack();
    await ana.page.goBack();
    await waitForPath(ana.page, `/groups/${groupId}/picks`);
    expect(await ana.page.getByRole('region', { name: 'Draft live' }).count()).toBe(0);
  });

  it('the start: the chip gives way to the live strip', async () => {
    await op.startDraft();
    for (const f of [ana, bo, cy]) await liveStrip(f.page, 'The draft has started · Pick 1 · TEN on the clock').waitFor({ timeout: LIVE_MS });
    expect(await ana.page.getByRole('timer').filter({ hasText: 'Picks lock' }).count()).toBe(0);
    await rowOf(ana.page, bo.name).waitFor();
  });

  /**
   * Records pick `slot` and watches Ana's strip meanwhile: until it shows the new pick, and for a while
   * after (the standings arrive, other reads follow the change), its pick number never goes back.
   */
  async function pickAndWatch(slot: number, name: string) {
    await op.recordPick(slot, name);
    const until = Date.now() + LIVE_MS;
    let shownAt = 0;
    while (Date.now() < until && (shownAt === 0 || Date.now() - shownAt < 1500)) {
      const n = await stripPickNumber(ana.page);
      if (shownAt === 0 && n === slot) shownAt = Date.now();
      if (shownAt !== 0) expect(n, `the strip went back after pick ${slot} showed`).toBe(slot);
      else if (n !== null) expect(n).toBeGreaterThanOrEqual(slot - 1);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(shownAt, `pick ${slot} never showed on the strip`).toBeGreaterThan(0);
  }

  /** The rank arrow in a friend's row on `page` ('▲1', '▼1'), or null without one. */
  async function arrow(page: Page, name: string): Promise<string | null> {
    const move = rowOf(page, name).locator('[data-move]');
    return (await move.count()) === 0 ? null : ((await move.locator('[aria-hidden]').textContent()) ?? '').trim();
  }

  it('pick 1, someone else’s: the strip names it with no check mark, and the rows that fell show ▼', async () => {
    await pickAndWatch(1, 'Travis Hunter');
    expect(await liveStrip(ana.page).textContent()).toContain('Pick 1 · TEN · Travis Hunter, CB/WR, Colorado');
    expect(await liveStrip(ana.page).textContent()).not.toContain('your entry');
    // Bo picked him: on Bo's phone the strip says so.
    await liveStrip(bo.page, 'Pick 1 · TEN · Travis Hunter, CB/WR, Colorado · your entry ✓').waitFor({ timeout: LIVE_MS });

    await rowOf(ana.page, ana.name).locator('[data-move="down"]').waitFor({ timeout: LIVE_MS });
    expect(await arrow(ana.page, ana.name)).toBe('▼1');
    expect(await arrow(ana.page, cy.name)).toBe('▼1');
    expect(await arrow(ana.page, bo.name)).toBeNull();
    await rowOf(ana.page, ana.name).getByText('Down 1 place since the last pick').waitFor({ state: 'attached' });
    // No toast covers the page: the strip told the news.
    expect(await ana.page.locator('[data-scope="toast"][data-part="root"]').count()).toBe(0);
  });

  it('pick 2, Ana’s: ✓ on her strip, the ticker holds pick 1, the ranks turn over, and the rows flash unless motion is reduced', async () => {
    await pickAndWatch(2, 'Jalon Walker');
    await liveStrip(ana.page, 'Pick 2 · JAX · Jalon Walker, LB/EDGE, Georgia · your entry ✓').waitFor();
    const ticker = ana.page.getByRole('list', { name: 'Earlier picks' });
    expect((await ticker.getByRole('listitem').allTextContents()).map((t) => t.trim())).toEqual(['Pick 1 · TEN · Travis Hunter, CB/WR']);

    await rowOf(ana.page, ana.name).locator('[data-move="up"]').waitFor({ timeout: LIVE_MS });
    expect(await arrow(ana.page, ana.name)).toBe('▲1');
    expect(await arrow(ana.page, bo.name)).toBe('▼1');
    expect(await arrow(ana.page, cy.name)).toBe('▼1');
    expect(await rows(ana.page).first().textContent()).toContain(ana.name);

    // The flash: a fading tint on each moved row. Ana asked for less motion: none moves; Bo did not.
    const flash = (page: Page, name: string) => rowOf(page, name).locator('[data-flash]');
    await flash(ana.page, ana.name).waitFor({ state: 'attached' });
    expect(await flash(ana.page, ana.name).evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).animationName)).toBe('none');
    await rowOf(bo.page, ana.name).locator('[data-move="up"]').waitFor({ timeout: LIVE_MS });
    expect(await flash(bo.page, ana.name).evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).animationName)).toBe('fade-out');
    expect(await flash(bo.page, ana.name).evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).pointerEvents)).toBe('none');
  });

  it('pick 3 moves nobody: the arrows of the previous pick go', async () => {
    await pickAndWatch(3, 'Armand Membou');
    await liveStrip(ana.page, 'Pick 3 · NYG · Armand Membou, OT, Missouri · your entry ✓').waitFor();
    await expect.poll(() => rows(ana.page).locator('[data-move]').count(), { timeout: LIVE_MS }).toBe(0);
    const ticker = ana.page.getByRole('list', { name: 'Earlier picks' });
    expect((await ticker.getByRole('listitem').allTextContents()).map((t) => t.trim())).toEqual(['Pick 2 · JAX · Jalon Walker, LB/EDGE ✓ your entry', 'Pick 1 · TEN · Travis Hunter, CB/WR']);
  });

  it('pick 4, Cy’s: Cy passes Bo on the boldest hit', async () => {
    await pickAndWatch(4, 'Colston Loveland');
    await rowOf(ana.page, cy.name).locator('[data-move="up"]').waitFor({ timeout: LIVE_MS });
    expect(await arrow(ana.page, cy.name)).toBe('▲1');
    expect(await arrow(ana.page, bo.name)).toBe('▼1');
    expect(await arrow(ana.page, ana.name)).toBeNull();
    await liveStrip(cy.page, 'Pick 4 · NE · Colston Loveland, TE, Michigan · your entry ✓').waitFor({ timeout: LIVE_MS });
    expect(await ana.page.getByRole('list', { name: 'Earlier picks' }).getByRole('listitem').count()).toBe(3);

    // Every time a pick number was put on any of the three screens: never one older than a number shown before.
    for (const f of [ana, bo, cy]) {
      let newest = 0;
      // The ticker of earlier picks writes them the same way ('Pick 1 · TEN · …'): only the headline counts.
      for (const s of f.sightings.filter((x) => x.within !== 'Earlier picks')) {
        const n = Number(s.text.match(/Pick (\d+)/)![1]);
        expect(n, `${f.name}'s strip showed pick ${n} after pick ${newest}`).toBeGreaterThanOrEqual(newest);
        newest = Math.max(newest, n);
      }
      expect(newest).toBe(4);
    }
  });

  it('round one complete: on the group page the Final card is the group’s (winner, podium, your place); the strip goes', async () => {
    await op.completeRound();
    const final = ana.page.getByRole('region', { name: 'Round one final' });
    await final.getByText('ROUND ONE FINAL').waitFor({ timeout: LIVE_MS });
    await final.getByText(`Round one is complete · ${groupName}`).waitFor();
    await ana.page.getByRole('region', { name: 'Draft live' }).waitFor({ state: 'detached', timeout: LIVE_MS });
    const place = final.getByText(new RegExp(`^You finished \\d+(st|nd|rd|th) of 3 in ${groupName}$`));
    await place.waitFor({ timeout: LIVE_MS });
    const placeText = (await place.textContent())!;
    // Bo's phone shows the group's result too.
    await bo.page.getByRole('region', { name: 'Round one final' }).getByText(new RegExp(`^You finished .* in ${groupName}`)).waitFor({ timeout: LIVE_MS });

    // The group's podium, on its standings page: the first three surviving entries of the group, the
    // winner first; Ana's place is her row's rank there. No row says anything live any more.
    const podium = final.getByRole('list', { name: 'Podium' });
    await podium.waitFor({ timeout: LIVE_MS });
    const standing = await rows(ana.page).allTextContents();
    const survived = standing.filter((text) => !text.includes('Busted')).slice(0, 3);
    expect(standing.some((text) => text.includes('Alive'))).toBe(false);
    const podiumNames = await podium.getByRole('listitem').locator(':scope > :first-child').allTextContents();
    expect(podiumNames.length).toBe(survived.length);
    for (const [i, name] of podiumNames.entries()) expect(survived[i]).toContain(name);
    expect(await final.getByText(/Winners?: /).textContent()).toContain(podiumNames[0]);
    const mine = ana.page.locator('ol[aria-label="Rankings"] > li[aria-current="true"]');
    const rank = (await mine.getByLabel(/^Rank \d+$/).getAttribute('aria-label'))!.replace('Rank ', '');
    expect(placeText).toMatch(new RegExp(`^You finished ${rank}(st|nd|rd|th) of 3 `));

    // The Leaderboard's card is the global result: Ana's place is her global row's rank.
    await ana.page.goto('/leaderboard');
    const board = ana.page.getByRole('region', { name: 'Round one final' });
    const globalPlace = board.getByText(/^You finished \d+(st|nd|rd|th) of \d+$/);
    // A page load, not a live update: the context's default wait (LIVE_MS is the budget of a change
    // reaching a page already open; a fresh load of /leaderboard took longer than that here once).
    await globalPlace.waitFor();
    await board.getByRole('list', { name: 'Podium' }).waitFor();
    const globalRow = ana.page.getByRole('list', { name: 'Rankings' }).locator('li[aria-current="true"]');
    const globalRank = (await globalRow.getByLabel(/^Rank \d+$/).getAttribute('aria-label'))!.replace('Rank ', '');
    expect(await globalPlace.textContent()).toMatch(new RegExp(`^You finished ${globalRank}(st|nd|rd|th) of `));
  });
});
