import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { BASE_URL, DEPUTY_EMAIL, uniqueEmail, uniqueUsername } from './support/env';
import { apiSession } from './support/idp';
import { operator, playerId } from './support/operator';
import { signInWithSession } from './support/session';
import { watchForText } from './support/watch-text';

const LOAD_ERROR = 'Failed to load group details';

/**
 * What the signed-out banner and a public group's page say before the draft, while it is
 * live and once round one is final. The operator moves the draft; it is reset afterwards.
 */
describe('time and state always right', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  let publicId = 0;
  const publicName = `Open Field ${Date.now().toString(36)}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator(DEPUTY_EMAIL);
    await op.resetDraft();
    const owner = await apiSession(uniqueEmail('field'), uniqueUsername('Field'));
    const res = await fetch(`${BASE_URL}/api/groups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await owner.token()}` },
      body: JSON.stringify({ name: publicName, is_public: true }),
    });
    publicId = Number(((await res.json()) as { group_id: number }).group_id);
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('the sign-in and sign-up banner: days left, then DRAFT IS LIVE · picks locked, then ROUND ONE FINAL', async () => {
    const { page, context } = await newPerson(browser);
    const seen = await watchForText(context, ['DAYS LEFT', 'DAY LEFT', 'DRAFT IS LIVE', 'ROUND ONE FINAL']);
    /** Everything seen so far, once the sighting of the state on screen has been reported. */
    const mark = async (text: string) => {
      await expect.poll(() => seen.some((s) => s.text === text)).toBe(true);
      return seen.length;
    };
    const banner = page.locator('[data-phase]');
    await page.goto('/sign-in');
    await banner.getByText(/^\d+ DAYS? LEFT$/).waitFor();
    expect(await banner.getAttribute('data-phase')).toBe('before');
    let before = await mark((await banner.innerText()).includes('DAYS') ? 'DAYS LEFT' : 'DAY LEFT');

    await op.startDraft();
    await page.goto('/sign-up');
    await banner.getByText('DRAFT IS LIVE · picks locked').waitFor();
    await page.goto('/sign-in');
    await banner.getByText('DRAFT IS LIVE · picks locked').waitFor();
    expect(await banner.getAttribute('data-phase')).toBe('live');
    // Never a countdown once the draft is on, not even for a moment on the way in.
    await mark('DRAFT IS LIVE');
    expect(seen.slice(before).filter((s) => /LEFT/.test(s.text))).toEqual([]);
    before = seen.length;

    await op.completeRound();
    await page.goto('/sign-in');
    await banner.getByText('ROUND ONE FINAL').waitFor();
    expect(await banner.getAttribute('data-phase')).toBe('final');
    await mark('ROUND ONE FINAL');
    expect(seen.slice(before).filter((s) => /LEFT|LIVE/.test(s.text))).toEqual([]);
    await op.resetDraft();
    await context.close();
  });

  it('a public group offers Join before the start, none after it, and never a load error to a non-member', async () => {
    const { page, context } = await newPerson(browser);
    const seen = await watchForText(context, [LOAD_ERROR]);
    const email = uniqueEmail('peek');
    const session = await apiSession(email, uniqueUsername('Peek'));
    await fetch(`${BASE_URL}/api/users/me/status`, { method: 'PATCH', headers: { authorization: `Bearer ${await session.token()}` } });
    await signInWithSession(page, email);

    await page.goto(`/groups/${publicId}`);
    await page.getByRole('heading', { name: publicName, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Join Group' }).waitFor();

    await op.startDraft();
    await page.goto(`/groups/${publicId}`);
    await page.getByText('Picks are locked: public groups can no longer be joined.').waitFor();
    await page.getByRole('heading', { name: publicName, level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Join Group' }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(`/groups/${publicId}`);
    // The picks page of the group says the same to a non-member.
    await page.goto(`/groups/${publicId}/picks`);
    await page.getByText('Picks are locked: public groups can no longer be joined.').waitFor();
    // The groups list shows the group without its Join button.
    await page.goto('/groups');
    await page.getByText('Picks are locked: public groups can no longer be joined.').waitFor();
    expect(await page.getByRole('button', { name: `Join Group ${publicName}` }).count()).toBe(0);
    // The server refuses it too, with the draft-lock message.
    const res = await fetch(`${BASE_URL}/api/groups/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await session.token()}` },
      body: JSON.stringify({ group_id: publicId }),
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toBe('The draft has started: public groups can no longer be joined');
    expect(seen).toEqual([]);
    await op.resetDraft();
    await context.close();
  });

  it('a leader nobody can catch reads Clinched; after round one every route, signed in or out, speaks of a finished draft', async () => {
    const email = uniqueEmail('after');
    const name = uniqueUsername('After');
    const session = await apiSession(email, name);
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${await session.token()}` };
    await fetch(`${BASE_URL}/api/users/me/status`, { method: 'PATCH', headers: auth });
    const groupId = Number(((await (await fetch(`${BASE_URL}/api/groups`, { method: 'POST', headers: auth, body: JSON.stringify({ name: `After Party ${Date.now().toString(36)}` }) })).json()) as { group_id: number }).group_id);
    const picks = [await playerId('Cam Ward')];
    for (const body of [{ picks }, { picks, group_id: groupId }]) await fetch(`${BASE_URL}/api/picks`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    await op.startDraft();
    await op.recordPick(1, 'Cam Ward');

    const player = await newPerson(browser, { width: 375, height: 800 });
    const { page } = player;
    await signInWithSession(page, email, name);
    // The only entry of the group, with every pick a hit: first place is certain, not just possible.
    await page.goto(`/groups/${groupId}/picks`);
    const row = page.getByRole('list', { name: 'Rankings' }).getByRole('listitem').filter({ hasText: name });
    await row.getByText('Clinched 1st').waitFor();
    expect(await page.getByText('Can still win').count()).toBe(0);

    await op.completeRound();
    /** Words of a draft still to come or under way: none may stay once round one is over. */
    const STALE = [/Until then you can change/, /Start Making Picks/, /The draft has started/, /Draft night, live/, /Can still win/, /Can't finish 1st/, /Not picked yet/, /editable until/i, /DRAFT IS LIVE/, /DAYS? LEFT/, /on the clock/i];
    async function walk(path: string) {
      await page.goto(path);
      // (The TV view keeps its heading for screen readers only on a phone: attached, not visible.)
      await page.locator('h1').first().waitFor({ state: 'attached' });
      await page.getByText(/^Loading/).first().waitFor({ state: 'detached' });
      // The app knows the draft is over (its phase is in the strip's Final card or the banner) before the words are read.
      const text = await page.evaluate('document.body.innerText');
      const stale = STALE.filter((re) => re.test(text as string)).map(String);
      expect(stale, `${path}: ${stale.join(', ')}`).toEqual([]);
    }
    for (const path of ['/groups', '/my-picks', '/leaderboard', '/how-to-play', '/select-players', `/groups/${groupId}`, `/groups/${groupId}/picks`, `/groups/${groupId}/board`, `/groups/${groupId}/tv`, '/settings', '/live']) {
      await walk(path);
    }
    await player.context.close();

    const visitor = await newPerson(browser, { width: 375, height: 800 });
    try {
      for (const path of ['/sign-in', '/sign-up', '/live']) {
        await visitor.page.goto(path);
        await visitor.page.getByRole('heading', { level: 1 }).first().waitFor();
        await visitor.page.getByText(/^Loading/).first().waitFor({ state: 'detached' });
        const text = (await visitor.page.evaluate('document.body.innerText')) as string;
        const stale = STALE.filter((re) => re.test(text)).map(String);
        expect(stale, `${path} (signed out): ${stale.join(', ')}`).toEqual([]);
      }
    } finally {
      await visitor.context.close();
    }
    await op.resetDraft();
  }, 90_000);
});
