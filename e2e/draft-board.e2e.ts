import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeFindings, serveAxe } from './support/axe';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { uniqueEmail, uniqueUsername, MARSHAL_EMAIL, LIVE_MS } from './support/env';
import { apiSession } from './support/idp';
import { operator, playerId } from './support/operator';
import { signInWithSession } from './support/session';
import { expectNoHorizontalScroll, waitForPath } from './support/ui';
import { rest } from './support/rest';

/**
 * A group's draft board on a phone. Three friends in a group with public picks:
 *   Ana: Cam Ward, Jaxson Dart (group picks)   Bo: Travis Hunter, Jaxson Dart (group picks)
 *   Cy: Cam Ward (reuses his global picks)
 * Ana opens the board before the start (it says when it opens), sees it appear when the draft starts, and
 * watches pick 1 (Cam Ward) land in slot 1 with her name and Cy's, without a reload; Jaxson Dart stays
 * under 'Waiting on', needed by two members.
 */

describe('the draft board', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  let ana: Person;
  let groupId = 0;
  const names = { ana: uniqueUsername('Ana'), bo: uniqueUsername('Bo'), cy: uniqueUsername('Cy') };
  const anaEmail = uniqueEmail('boardana');

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator(MARSHAL_EMAIL);
    await op.resetDraft();
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('before the start the board says when it opens; the start opens it live', async () => {
    const sAna = await apiSession(anaEmail, names.ana);
    const sBo = await apiSession(uniqueEmail('boardbo'), names.bo);
    const sCy = await apiSession(uniqueEmail('boardcy'), names.cy);
    groupId = Number((await rest(sAna, 'POST', '/groups', { name: `Board Crew ${Date.now().toString(36)}`, picks_public: true })).group_id);
    const { token } = (await rest(sAna, 'POST', '/groups/join-links', { group_id: groupId })) as { token: string };
    for (const s of [sBo, sCy]) await rest(s, 'POST', `/groups/join-with-link/${token}`);
    const ids = async (...players: string[]) => Promise.all(players.map(playerId));
    await rest(sAna, 'POST', '/picks', { picks: await ids('Cam Ward', 'Jaxson Dart'), group_id: groupId });
    await rest(sBo, 'POST', '/picks', { picks: await ids('Travis Hunter', 'Jaxson Dart'), group_id: groupId });
    await rest(sCy, 'POST', '/picks', { picks: await ids('Cam Ward') });
    await rest(sCy, 'POST', `/groups/${groupId}/use-global-picks`, { use_global_picks: true });
    for (const s of [sAna, sBo, sCy]) await rest(s, 'PATCH', '/users/me/status');

    ana = await newPerson(browser, { width: 375, height: 760 });
    await serveAxe(ana.context);
    await signInWithSession(ana.page, anaEmail);
    await ana.page.goto(`/groups/${groupId}/board`);
    await ana.page.getByRole('heading', { name: 'Draft Board', level: 1 }).waitFor();
    await ana.page.getByText('The draft board opens once the NFL Draft begins.').waitFor();
    expect(await ana.page.title()).toBe('Draft Board · First Round');

    await op.startDraft();
    await ana.page.getByRole('heading', { name: 'Waiting on', level: 2 }).waitFor({ timeout: LIVE_MS });
    await ana.page.getByText('0 of 32 picks in · 3 of 3 still alive').waitFor();
  });

  it('reached from the group page, it fills pick 1 with who had him, without a reload', async () => {
    const { page } = ana;
    await page.goto(`/groups/${groupId}/picks`);
    await page.getByRole('link', { name: 'Draft board' }).click();
    await waitForPath(page, `/groups/${groupId}/board`);
    const slots = page.locator('ol[aria-label="Round one picks"] > li');
    await slots.first().getByText('Pick 1 · TEN on the clock').waitFor();
    expect(await slots.count()).toBe(32);
    expect(await slots.nth(1).innerText()).toMatch(/^Pick 2 · JAX\s+Jacksonville Jaguars$/);
    const waiting = page.locator('ul[aria-label="Waiting on"] > li');
    const dart = waiting.filter({ hasText: 'Jaxson Dart' });
    await dart.waitFor();
    expect(await dart.innerText()).toContain('2 members need him');
    expect(await waiting.count()).toBe(3);
    await expectNoHorizontalScroll(page);

    // Marks this document: a reload would lose the mark.
    await page.evaluate('window.__boardMark = 1');
    await op.recordPick(1, 'Cam Ward');
    const first = slots.first();
    await first.getByText('Cam Ward').waitFor({ timeout: LIVE_MS });
    const hadBy = first.getByRole('list', { name: 'Had by 2 members' });
    await hadBy.getByText(`${names.ana} (you)`).waitFor();
    await hadBy.getByText(names.cy, { exact: true }).waitFor();
    expect(await hadBy.getByText(names.bo).count()).toBe(0);
    await first.getByText('You', { exact: true }).waitFor();
    await slots.nth(1).getByText('Pick 2 · JAX on the clock').waitFor();
    await page.getByText('1 of 32 picks in · 3 of 3 still alive').waitFor();
    // Cam Ward was taken: only Jaxson Dart (both) and Travis Hunter (Bo) are still awaited.
    await waiting.filter({ hasText: 'Cam Ward' }).waitFor({ state: 'detached' });
    expect(await waiting.count()).toBe(2);
    expect(await waiting.nth(0).innerText()).toContain('Jaxson Dart');
    expect(await waiting.nth(1).innerText()).toContain('Travis Hunter');
    expect(await page.evaluate('window.__boardMark')).toBe(1);
    await expectNoHorizontalScroll(page);
    // No serious or critical axe-core finding (contrast included) on the filled board at 375 px.
    expect(await axeFindings(page)).toEqual([]);
  });
});
