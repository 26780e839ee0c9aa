import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { MARSHAL_EMAIL, uniqueEmail } from './support/env';
import { apiSession } from './support/idp';
import { operator, playerId } from './support/operator';
import { rest } from './support/rest';
import { signInWithSession } from './support/session';
import { sidewaysOverflow } from './support/ui';

/** Text cut short in `list` (an ellipsis: the text is wider than its box), by what it says. */
function cutIn(page: Page, list: string): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const root = document.querySelector('[aria-label=${JSON.stringify(list)}]');
    if (!root) return ['no list named ' + ${JSON.stringify(list)}];
    return [...root.querySelectorAll('*')]
      .filter((el) => getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth)
      .map((el) => el.innerText);
  })()`);
}

describe('phone first', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('the landing page offers sign-up above the fold, and it leads to the form, focused', async () => {
    const { page, context } = await newPerson(browser, { width: 375, height: 667 });
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/sign-up');
    const cta = page.getByRole('button', { name: 'Get started' });
    await cta.waitFor();
    const box = (await cta.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(667);
    expect(box.x).toBeGreaterThanOrEqual(0);
    await cta.click();
    const email = page.getByRole('textbox', { name: 'Email' });
    await expect.poll(() => email.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    const field = (await email.boundingBox())!;
    expect(field.y).toBeGreaterThanOrEqual(0);
    expect(field.y + field.height).toBeLessThanOrEqual(667);
    expect(await sidewaysOverflow(page)).toMatchObject({ scroll: 0, element: 0 });
    // On a desktop the form stands beside the pitch: no such button.
    await page.setViewportSize({ width: 1280, height: 900 });
    await cta.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('at 320 and 375 px no player or group name is cut: My Picks with its hit marks, My Groups, the standings', async () => {
    const op = await operator(MARSHAL_EMAIL);
    await op.resetDraft();
    const email = uniqueEmail('narrow');
    const name = `Narrow${Date.now().toString(36).slice(-8)}`;
    const session = await apiSession(email, name);
    const groupName = `The Extremely Long Named Draft Night Watch Party ${Date.now().toString(36)}`;
    const groupId = Number((await rest(session, 'POST', '/groups', { name: groupName })).group_id);
    const picks = await Promise.all(['Travis Hunter', 'Tetairoa McMillan', 'Abdul Carter', 'Shemar Stewart'].map(playerId));
    await rest(session, 'POST', '/picks', { picks });
    await rest(session, 'PATCH', '/users/me/status');
    await op.startDraft();
    await op.recordPick(1, 'Travis Hunter');
    await op.recordPick(2, 'Abdul Carter');
    const { page, context } = await newPerson(browser, { width: 375, height: 800 });
    try {
      await signInWithSession(page, email, name);
      for (const width of [375, 320]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto('/my-picks');
        await page.getByRole('list', { name: 'My picks' }).getByText('Travis Hunter').waitFor();
        await page.getByRole('list', { name: 'My picks' }).getByRole('img', { name: 'Drafted in round one' }).first().waitFor();
        expect(await cutIn(page, 'My picks'), `My Picks at ${width} px`).toEqual([]);
        await page.goto('/groups');
        await page.getByRole('list', { name: 'My groups' }).getByText(groupName).waitFor();
        expect(await cutIn(page, 'My groups'), `My Groups at ${width} px`).toEqual([]);
        await page.goto(`/groups/${groupId}/picks`);
        await page.getByRole('list', { name: 'Rankings' }).getByText(name).waitFor();
        expect(await cutIn(page, 'Rankings'), `standings at ${width} px`).toEqual([]);
        expect(await sidewaysOverflow(page)).toMatchObject({ scroll: 0, element: 0 });
      }
    } finally {
      await context.close();
      await op.resetDraft();
    }
  });
});
