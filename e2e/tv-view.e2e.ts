import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeFindings, serveAxe } from './support/axe';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { uniqueEmail, uniqueUsername, UMPIRE_EMAIL, LIVE_MS } from './support/env';
import { apiSession } from './support/idp';
import { operator, playerId } from './support/operator';
import { signInWithSession } from './support/session';
import { longestOddsFit, tvLayoutProblems } from './support/tv-layout';
import { waitForPath } from './support/ui';
import { rest } from './support/rest';

/**
 * The watch-party TV view at 1920×1080. Three friends in a group with public picks:
 *   Ana: Cam Ward, Travis Hunter     Bo: Travis Hunter, Jaxson Dart     Cy: Cam Ward (his My Picks)
 * and twelve fans waiting on Jaxson Dart, so the standings have more entries than the 12 rows shown.
 * Ana opens the TV view from the group page before the start; the operator starts the draft and records
 * Cam Ward at 1 (on screen with 'Ana and Cy had him'), then Travis Hunter at 2 (the same,
 * never under Cam Ward's names), and completes round one: Bo and the fans bust (Jaxson Dart was not
 * taken) and the podium is Ana (2 hits) then Cy (1 hit). Live, each alive row says its odds on a line of its
 * own; the layout is checked at 1080p, 768p and 720p with them on screen, and once final none is left.
 */
const TV = { width: 1920, height: 1080 };
/** The TV's other screens: 720p and the 1366×768 of many older sets. */
const SMALLER_TVS = [
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
];
const FANS = 12;

describe('the TV view', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  let ana: Person;
  let groupId = 0;
  const names = { ana: uniqueUsername('Ana'), bo: uniqueUsername('Bo'), cy: uniqueUsername('Cy') };
  const anaEmail = uniqueEmail('tvana');

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator(UMPIRE_EMAIL);
    await op.resetDraft();
    const sAna = await apiSession(anaEmail, names.ana);
    const sBo = await apiSession(uniqueEmail('tvbo'), names.bo);
    const sCy = await apiSession(uniqueEmail('tvcy'), names.cy);
    groupId = Number((await rest(sAna, 'POST', '/groups', { name: `Couch Crew ${Date.now().toString(36)}`, picks_public: true })).group_id);
    const { token } = (await rest(sAna, 'POST', '/groups/join-links', { group_id: groupId })) as { token: string };
    for (const s of [sBo, sCy]) await rest(s, 'POST', `/groups/join-with-link/${token}`);
    const ids = async (...players: string[]) => Promise.all(players.map(playerId));
    await rest(sAna, 'POST', '/picks', { picks: await ids('Cam Ward', 'Travis Hunter'), group_id: groupId });
    await rest(sBo, 'POST', '/picks', { picks: await ids('Travis Hunter', 'Jaxson Dart'), group_id: groupId });
    await rest(sCy, 'POST', '/picks', { picks: await ids('Cam Ward') });
    await rest(sCy, 'POST', `/groups/${groupId}/use-global-picks`, { use_global_picks: true });
    // Twelve more fans waiting on Jaxson Dart (never taken here): 15 entries, more than the TV names.
    for (let i = 1; i <= FANS; i++) {
      const fan = await apiSession(uniqueEmail(`tvfan${i}`), uniqueUsername(`Fan${i}`));
      await rest(fan, 'POST', `/groups/join-with-link/${token}`);
      await rest(fan, 'POST', '/picks', { picks: await ids('Jaxson Dart'), group_id: groupId });
    }
    for (const s of [sAna, sBo, sCy]) await rest(s, 'PATCH', '/users/me/status');
    ana = await newPerson(browser, TV);
    await serveAxe(ana.context);
    // Counts the page's requests for a screen wake lock (the browser's own answer still decides).
    await ana.context.addInitScript(`(() => {
      window.__wakeLocks = 0;
      const lock = navigator.wakeLock;
      if (!lock) return;
      const request = lock.request.bind(lock);
      lock.request = (type) => { window.__wakeLocks += 1; return request(type); };
    })()`);
    await signInWithSession(ana.page, anaEmail);
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('is for members only: anyone else gets the group pages\' not-a-member card', async () => {
    const email = uniqueEmail('tvdee');
    await apiSession(email, uniqueUsername('Dee'));
    const dee = await newPerson(browser, TV);
    await signInWithSession(dee.page, email);
    await dee.page.goto(`/groups/${groupId}/tv`);
    await dee.page.getByText('There is no group with this ID, or it is private and you are not a member of this group.').waitFor();
    expect(await dee.page.getByTestId('tv-headline').count()).toBe(0);
    await dee.context.close();
  });

  it('before the start: reached from the group page, it waits for the first pick and lists who is in', async () => {
    const { page } = ana;
    await page.goto(`/groups/${groupId}`);
    await page.getByRole('link', { name: 'TV view' }).click();
    await waitForPath(page, `/groups/${groupId}/tv`);
    await page.getByTestId('tv-headline').getByText('Before the draft').waitFor();
    await page.getByText('Waiting for the first pick').waitFor();
    await page.getByText(/^Picks lock /).waitFor();
    await page.getByTestId('tv-entries-in').getByText('15 of 15 members have picks in').waitFor();
    // No app chrome: no header tabs, no live strip.
    expect(await page.getByRole('navigation').count()).toBe(0);
    // The screen is asked to stay awake.
    await expect.poll(() => page.evaluate('window.__wakeLocks'), { timeout: 2000 }).toBeGreaterThanOrEqual(1);
    // The cursor is hidden; a mouse move shows it, and it hides again once the mouse rests.
    const cursor = `getComputedStyle(document.querySelector('[data-testid="tv-headline"]')).cursor`;
    expect(await page.evaluate(cursor)).toBe('none');
    await page.mouse.move(400, 300);
    await page.mouse.move(420, 320);
    await expect.poll(() => page.evaluate(cursor), { timeout: 1000, interval: 50 }).not.toBe('none');
    await expect.poll(() => page.evaluate(cursor), { timeout: 4000, interval: 100 }).toBe('none');
    // Ten members by name (the line above them takes a row's room), the rest summed up.
    expect(await page.locator('ul[aria-label="Members"] > li').count()).toBe(10);
    await page.getByText('+ 5 more', { exact: true }).waitFor();
    expect(await tvLayoutProblems(page)).toEqual([]);
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await tvLayoutProblems(page)).toEqual([]);
    await page.setViewportSize(TV);
  });

  it('live: a pick is on screen, with who here had him, the next slot and the standings', async () => {
    const { page } = ana;
    await op.startDraft();
    await page.getByTestId('tv-headline').getByText('LIVE · 0 of 32 picks in').waitFor({ timeout: LIVE_MS });
    await page.getByTestId('tv-on-the-clock').getByText('Pick 1 · TEN on the clock').waitFor();
    const rows = page.locator('ol[aria-label="Standings"] > li');
    // Every entry is alive with odds: two lines a row, nine rows in 1080p's 18 lines.
    await rows.nth(8).waitFor({ timeout: LIVE_MS });
    expect(await rows.count()).toBe(9);
    await page.getByTestId('tv-standings-rest').getByText('+ 6 more · 6 still alive').waitFor();
    expect(await page.getByTestId('tv-odds').count()).toBe(9);

    // Samples every frame from now on: the player on screen and the 'had him' line under him.
    await page.evaluate(`(() => {
      window.__tvFrames = [];
      const sample = () => {
        const player = document.querySelector('[data-testid="tv-player"]')?.textContent ?? '';
        const hadBy = document.querySelector('[data-testid="tv-had-by"]')?.textContent ?? '';
        window.__tvFrames.push(player + ' | ' + hadBy);
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    })()`);
    await op.recordPick(1, 'Cam Ward');
    await page.getByTestId('tv-player').getByText('Cam Ward').waitFor({ timeout: LIVE_MS });
    await page.getByTestId('tv-current-pick').getByText('Pick 1 · TEN · Tennessee Titans').waitFor();
    const hadBy = page.getByTestId('tv-had-by');
    await hadBy.getByText(new RegExp(`^(${names.ana} and ${names.cy}|${names.cy} and ${names.ana}) had him$`)).waitFor({ timeout: LIVE_MS });
    await page.getByTestId('tv-on-the-clock').getByText('Pick 2 · JAX on the clock').waitFor();
    await page.getByTestId('tv-headline').getByText('LIVE · 1 of 32 picks in').waitFor();
    // The standings follow: Ana and Cy have a hit, all three are alive.
    await rows.filter({ hasText: names.ana }).getByText('1 hit').waitFor({ timeout: LIVE_MS });
    await rows.filter({ hasText: names.cy }).getByText('1 hit').waitFor({ timeout: LIVE_MS });
    expect(await tvLayoutProblems(page)).toEqual([]);
    expect(await longestOddsFit(page)).toMatchObject({ fits: true });
    expect(await axeFindings(page)).toEqual([]);
    // Nor on smaller TVs, where the odds still show (fewer rows: 720p has 12 lines).
    for (const size of SMALLER_TVS) {
      await page.setViewportSize(size);
      await page.getByTestId('tv-standings-rest').getByText('+ 9 more · 9 still alive').waitFor();
      expect(await page.getByTestId('tv-odds').count()).toBe(6);
      expect({ size, problems: await tvLayoutProblems(page) }).toEqual({ size, problems: [] });
      expect({ size, fit: await longestOddsFit(page) }).toMatchObject({ size, fit: { fits: true } });
    }
    await page.setViewportSize(TV);
    await page.getByTestId('tv-standings-rest').getByText('+ 6 more · 6 still alive').waitFor();
    // Each row's odds on the line under it, in the group standings' words.
    await expect.poll(() => rows.nth(0).innerText(), { timeout: LIVE_MS }).toMatch(/^1st\s+\S+\s+1 hit\s+Alive\s+(\d+|<1|>99) % to survive · (\d+|<1|>99) % to win$/);
    expect(await rows.nth(2).innerText()).toMatch(/^3rd\s+\S+\s+0 hits\s+Alive\s+(\d+|<1|>99) % to survive · (\d+|<1|>99) % to win$/);
  });

  it('the next pick replaces the last one, never under the last one\'s names', async () => {
    const { page } = ana;
    // Marks this document: a reload would lose the mark.
    await page.evaluate('window.__tvMark = 1');
    await op.recordPick(2, 'Travis Hunter');
    await page.getByTestId('tv-player').getByText('Travis Hunter').waitFor({ timeout: LIVE_MS });
    await page.getByTestId('tv-had-by').getByText(new RegExp(`^(${names.ana} and ${names.bo}|${names.bo} and ${names.ana}) had him$`)).waitFor({ timeout: LIVE_MS });
    await page.getByTestId('tv-on-the-clock').getByText('Pick 3 · NYG on the clock').waitFor();
    expect(await page.evaluate('window.__tvMark')).toBe(1);
    // Never a pick shown with another pick's names under it.
    const frames = await page.evaluate<string[]>('window.__tvFrames');
    expect(frames.filter((f) => f.startsWith('Cam Ward') && f.includes(names.bo))).toEqual([]);
    expect(frames.filter((f) => f.startsWith('Travis Hunter') && f.includes(names.cy))).toEqual([]);
  });

  it('once round one is complete: the podium, and the final standings with the busted entry', async () => {
    const { page } = ana;
    // Samples every frame: the podium must never show the standings from before the end (Bo still alive).
    await page.evaluate(`(() => {
      window.__podiumFrames = [];
      const sample = () => {
        window.__podiumFrames.push(document.querySelector('[data-testid="tv-podium"]')?.textContent ?? '');
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    })()`);
    await op.completeRound();
    await page.getByTestId('tv-headline').getByText('Round one is complete · Final').waitFor({ timeout: LIVE_MS });
    const podium = page.locator('ol[aria-label="Podium"] > li');
    await podium.nth(1).waitFor({ timeout: LIVE_MS });
    expect(await podium.count()).toBe(2);
    expect(await podium.nth(0).innerText()).toMatch(new RegExp(`^1st\\s+${names.ana}\\s+2 hits$`));
    expect(await podium.nth(1).innerText()).toMatch(new RegExp(`^2nd\\s+${names.cy}\\s+1 hit$`));
    const rows = page.locator('ol[aria-label="Standings"] > li');
    // Bo and the fans (Jaxson Dart never came) are busted: 13 of them, after the two survivors; each says
    // what it had and why it busted, in My Picks' words, and takes up to three of 1080p's 18 lines: five are shown.
    expect(await rows.nth(2).innerText()).toMatch(/had [01] hits?\s+Busted\s+1 pick was not drafted in round one$/);
    await page.getByTestId('tv-standings-rest').getByText('+ 8 more · 0 survived').waitFor();
    // Results only: no odds on any row.
    expect(await page.getByTestId('tv-odds').count()).toBe(0);
    expect(await page.getByText('% to survive').count()).toBe(0);
    expect(await rows.filter({ hasText: names.ana }).innerText()).toMatch(/2 hits\s+Survived$/);
    const podiums = await page.evaluate<string[]>('window.__podiumFrames');
    expect(podiums.filter((f) => f.includes(names.bo))).toEqual([]);
    // No toast over the TV: it shows the picks and the end of round one itself.
    expect(await page.locator('[data-scope="toast"]').count()).toBe(0);
    expect(await tvLayoutProblems(page)).toEqual([]);
    expect(await axeFindings(page)).toEqual([]);
    for (const size of SMALLER_TVS) {
      await page.setViewportSize(size);
      await page.getByTestId('tv-standings-rest').getByText('+ 10 more · 0 survived').waitFor();
      expect({ size, problems: await tvLayoutProblems(page) }).toEqual({ size, problems: [] });
    }
    await page.setViewportSize(TV);
  });
});
