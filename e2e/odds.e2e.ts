import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeFindings, serveAxe } from './support/axe';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { BASE_URL, LIVE_MS, MARSHAL_EMAIL, uniqueEmail, uniqueUsername } from './support/env';
import { apiSession } from './support/idp';
import { listPlayers, operator, type Player } from './support/operator';
import { rest } from './support/rest';
import { signInWithSession } from './support/session';
import { sidewaysOverflow } from './support/ui';
import { watchForText, type TextSighting } from './support/watch-text';

/**
 * One entry's odds through a draft night, the same words on every screen that says them. Dee plays her My
 * Picks in a group: the board's 1st, 30th and 40th players; Bo waits on the 30th alone. With the draft
 * started and no pick made, and again after pick 1 (the 40th player, an upset), My Picks ('Your odds'),
 * the group's standings, the TV view and the share card (its page, which writes out the picture's words)
 * say the same '% to survive', and the standings and the TV the same '% to win'; the draft board says 'If
 * … goes now'. The pick moves the numbers on the open screens within the live bound. Once round one is
 * complete no screen says any odds, only results. Axe on each screen at 1280 and 375 px, and nothing
 * reaches sideways on the phone.
 */
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };
/** Words as the share page's HTML writes them ('<1 %' is '&lt;1 %' there). */
const inHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** A chance as every screen writes it (shared/src/odds-words.ts). */
const CHANCE = String.raw`(?:\d+|<1|>99) %`;

describe('the odds, one number on every screen', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  let wide: Person;
  let phone: Person;
  let shareUrl = '';
  let groupId = 0;
  let board: Player[];
  /** Where '% to survive' was added to a page of either context, however briefly. */
  const sightings: TextSighting[][] = [];
  let before = { survive: '', standing: '' };
  const names = { dee: uniqueUsername('Dee'), bo: uniqueUsername('Bo') };
  const deeEmail = uniqueEmail('oddsdee');
  /** The tabs Dee keeps open at 1280 px, each following the draft live. */
  const tabs = {} as Record<'myPicks' | 'standings' | 'board' | 'tv', Page>;

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator(MARSHAL_EMAIL);
    await op.resetDraft();
    board = [...(await listPlayers())].sort((a, b) => a.rank - b.rank);
    const sDee = await apiSession(deeEmail, names.dee);
    const sBo = await apiSession(uniqueEmail('oddsbo'), names.bo);
    await rest(sDee, 'POST', '/picks', { picks: [board[0]!.id, board[29]!.id, board[39]!.id] });
    groupId = Number((await rest(sDee, 'POST', '/groups', { name: `Odds Crew ${Date.now().toString(36)}`, picks_public: true })).group_id);
    await rest(sDee, 'POST', `/groups/${groupId}/use-global-picks`, { use_global_picks: true });
    const { token } = (await rest(sDee, 'POST', '/groups/join-links', { group_id: groupId })) as { token: string };
    await rest(sBo, 'POST', `/groups/join-with-link/${token}`);
    await rest(sBo, 'POST', '/picks', { picks: [board[29]!.id], group_id: groupId });
    for (const s of [sDee, sBo]) await rest(s, 'PATCH', '/users/me/status');
    shareUrl = ((await rest(sDee, 'POST', '/share/links', { group_id: groupId })) as { url: string }).url;

    wide = await newPerson(browser, WIDE);
    phone = await newPerson(browser, PHONE);
    for (const p of [wide, phone]) {
      await serveAxe(p.context);
      sightings.push(await watchForText(p.context, ['% to survive']));
      await signInWithSession(p.page, deeEmail);
    }
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  /** What each screen says of Dee's odds now, read from the open tabs and the share page. */
  async function oddsOnEveryScreen() {
    const myPicks = await tabs.myPicks.getByTestId('odds-survive').innerText();
    const standings = await tabs.standings.locator('li[aria-current="true"]').getByTestId('entry-odds').innerText();
    const tv = await tabs.tv.locator('ol[aria-label="Standings"] > li').filter({ hasText: names.dee }).getByTestId('tv-odds').innerText();
    const share = await (await fetch(new URL(shareUrl, BASE_URL))).text();
    return { myPicks, standings, tv, share };
  }

  /** Waits (within the live bound) until every screen says the same odds, then returns them. */
  async function agreedOdds(picksMade: number) {
    const after = picksMade === 0 ? 'before the first pick' : `after pick ${picksMade}`;
    let seen = await oddsOnEveryScreen();
    await expect
      .poll(
        async () => {
          seen = await oddsOnEveryScreen();
          const survive = seen.myPicks;
          return { standings: seen.standings.startsWith(`${survive} · `), tv: seen.tv === seen.standings, share: seen.share.includes(inHtml(`${survive} ${after}`)) };
        },
        { timeout: LIVE_MS, interval: 250 },
      )
      .toEqual({ standings: true, tv: true, share: true });
    expect(seen.myPicks).toMatch(new RegExp(`^${CHANCE} to survive$`));
    expect(seen.standings).toMatch(new RegExp(`^${CHANCE} to survive · ${CHANCE} to win$`));
    return { survive: seen.myPicks, standing: seen.standings };
  }

  /** Axe at the page as it is, and on a phone nothing past the right edge. */
  async function checkScreen(page: Page, name: string, findings: string[]) {
    const found = await axeFindings(page);
    const width = page.viewportSize()!.width;
    if (found.length > 0) findings.push(`${name} at ${width} px: ${JSON.stringify(found)}`);
    if (width === PHONE.width) {
      const over = await sidewaysOverflow(page);
      if (over.scroll > 0 || over.element > 0.5) findings.push(`${name} at 375 px reaches ${Math.max(over.scroll, over.element).toFixed(1)} px past the edge (${over.what ?? 'the document'})`);
    }
  }

  /** Every screen at 375 px, each once it shows `ready`; the share page too. */
  async function checkPhone(ready: { myPicks: string; standings: string; board: string }, findings: string[]) {
    const { page } = phone;
    const visit = async (path: string, text: string, name: string) => {
      await page.goto(path);
      await page.getByText(text).first().waitFor({ timeout: LIVE_MS });
      await checkScreen(page, name, findings);
    };
    await visit('/my-picks', ready.myPicks, 'My Picks');
    await visit(`/groups/${groupId}/picks`, ready.standings, 'the group standings');
    await visit(`/groups/${groupId}/board`, ready.board, 'the draft board');
    await page.goto(new URL(shareUrl, BASE_URL).pathname);
    await checkScreen(page, 'the share page', findings);
  }

  it('with the draft started and no pick made, every screen says the same odds, and the board says who is safe if a player goes now', async () => {
    await op.startDraft();
    tabs.myPicks = wide.page;
    await tabs.myPicks.goto('/my-picks');
    tabs.standings = await wide.context.newPage();
    await tabs.standings.goto(`/groups/${groupId}/picks`);
    tabs.board = await wide.context.newPage();
    await tabs.board.goto(`/groups/${groupId}/board`);
    tabs.tv = await wide.context.newPage();
    await tabs.tv.goto(`/groups/${groupId}/tv`);
    await tabs.tv.getByTestId('tv-headline').getByText('LIVE · 0 of 32 picks in').waitFor({ timeout: LIVE_MS });
    await tabs.myPicks.getByRole('region', { name: 'Your odds' }).waitFor({ timeout: LIVE_MS });
    await tabs.standings.locator('li[aria-current="true"]').getByTestId('entry-odds').waitFor({ timeout: LIVE_MS });
    await tabs.tv.getByTestId('tv-odds').first().waitFor({ timeout: LIVE_MS });

    before = await agreedOdds(0);
    // Bo waits on the 30th player alone: he is safe if that player goes now.
    await tabs.board.getByTestId('if-goes-now').getByText(`If ${board[29]!.player_name} goes now, 1 of you is safe`).waitFor({ timeout: LIVE_MS });

    const findings: string[] = [];
    for (const [name, page] of Object.entries(tabs)) await checkScreen(page, name, findings);
    await checkPhone({ myPicks: before.survive, standings: before.standing, board: 'goes now, 1 of you is safe' }, findings);
    if (findings.length > 0) console.error(findings.join('\n\n'));
    expect(findings.join('\n\n')).toBe('');
  });

  it('a pick moves the odds on every open screen within the live bound, all to the same new words', async () => {
    // The 40th player at 1: Dee's riskiest pick is in, so her chance to survive goes up.
    await op.recordPick(1, board[39]!.player_name);
    await tabs.tv.getByTestId('tv-headline').getByText('LIVE · 1 of 32 picks in').waitFor({ timeout: LIVE_MS });
    await expect.poll(() => tabs.myPicks.getByTestId('odds-survive').innerText(), { timeout: LIVE_MS }).not.toBe(before.survive);
    const after = await agreedOdds(1);
    expect(after.survive).not.toBe(before.survive);
    expect(after.standing).not.toBe(before.standing);
    await tabs.board.getByTestId('if-goes-now').getByText(`If ${board[29]!.player_name} goes now, 1 of you is safe`).waitFor({ timeout: LIVE_MS });
  });

  it('once round one is complete no screen says any odds, only results', async () => {
    // Dee's other two picks go at 2 and 3: she survives with three hits, Bo with one.
    await op.recordPick(2, board[0]!.player_name);
    await op.recordPick(3, board[29]!.player_name);
    await op.completeRound();
    await tabs.tv.getByTestId('tv-headline').getByText('Round one is complete · Final').waitFor({ timeout: LIVE_MS });
    // The open screens let their odds go.
    for (const page of Object.values(tabs)) await expect.poll(() => page.getByText('% to survive').count(), { timeout: LIVE_MS }).toBe(0);
    // From here on no screen may say '% to survive', not even for a moment: a fresh load of each, wide and on a phone.
    const since = Date.now();
    const results = {
      myPicks: (p: Page) => p.getByText(/^Final: 3 of 3 hit/),
      standings: (p: Page) => p.locator('li[aria-current="true"]').getByText('Winner'),
      board: (p: Page) => p.getByText('Round one is over: nobody is waiting any more.'),
      tv: (p: Page) => p.locator('ol[aria-label="Podium"] > li').filter({ hasText: names.dee }),
    };
    const findings: string[] = [];
    for (const [name, page] of Object.entries(tabs) as [keyof typeof tabs, Page][]) {
      await page.reload();
      await results[name](page).first().waitFor({ timeout: LIVE_MS });
      await checkScreen(page, name, findings);
    }
    await checkPhone({ myPicks: 'Final: 3 of 3 hit', standings: 'Winner', board: 'Round one is over' }, findings);
    if (findings.length > 0) console.error(findings.join('\n\n'));
    expect(findings.join('\n\n')).toBe('');
    const share = await (await fetch(new URL(shareUrl, BASE_URL))).text();
    expect(share).not.toContain('to survive');
    expect(share).toContain('FINAL');
    expect(sightings.flat().filter((s) => s.wallAt >= since)).toEqual([]);
  });
});
