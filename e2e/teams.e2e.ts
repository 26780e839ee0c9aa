import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { STEWARD_EMAIL, uniqueEmail, uniqueUsername, LIVE_MS } from './support/env';
import { apiSession } from './support/idp';
import { operator, playerId } from './support/operator';
import { rest } from './support/rest';
import { signInWithSession } from './support/session';
import { liveStrip } from './support/ui';

/**
 * The teams on the clock. A fan with Cam Ward and Travis Hunter keeps her group's draft board
 * open on a phone: the start names the team on the clock, and each pick shows on the live strip and the
 * board as 'Pick N · TEAM · Player'. Then the operator, from the /admin console, gives pick 2 to another
 * team: the fan's strip and board follow without a reload, and undo gives the pick back to JAX.
 */

describe('the teams on the clock', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  let fan: Person;
  let groupId = 0;
  const email = uniqueEmail('teamsfan');
  const name = uniqueUsername('Fan');
  /** The fan's group draft board, slot by slot. */
  const slots = () => fan.page.locator('ol[aria-label="Round one picks"] > li');

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator(STEWARD_EMAIL);
    await op.resetDraft();
  });
  afterAll(async () => {
    // Specs share one server: pick 2 back with JAX should a step above have failed, and the draft reset.
    await op?.setTeam(2, 'JAX').catch(() => undefined);
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('the start names the team on the clock; each pick shows as “Pick N · TEAM · Player” on the strip and the draft board', async () => {
    const session = await apiSession(email, name);
    groupId = Number((await rest(session, 'POST', '/groups', { name: `Teams Crew ${Date.now().toString(36)}`, picks_public: true })).group_id);
    await rest(session, 'POST', '/picks', { picks: [await playerId('Cam Ward'), await playerId('Travis Hunter')], group_id: groupId });
    await rest(session, 'PATCH', '/users/me/status');

    fan = await newPerson(browser, { width: 375, height: 760 });
    await signInWithSession(fan.page, email);
    await fan.page.goto(`/groups/${groupId}/board`);
    await fan.page.getByText('The draft board opens once the NFL Draft begins.').waitFor();

    await op.startDraft();
    await slots().first().getByText('Pick 1 · TEN on the clock').waitFor({ timeout: LIVE_MS });
    await liveStrip(fan.page, 'The draft has started · Pick 1 · TEN on the clock').waitFor({ timeout: LIVE_MS });

    await op.recordPick(1, 'Cam Ward');
    await liveStrip(fan.page, 'Pick 1 · TEN · Cam Ward, QB, Miami').waitFor({ timeout: LIVE_MS });
    await slots().first().getByText('Pick 1 · TEN · Cam Ward').waitFor({ timeout: LIVE_MS });
    // The abbreviation is shown, the full name is its title.
    expect(await slots().first().getByText('TEN', { exact: true }).getAttribute('title')).toBe('Tennessee Titans');
    await slots().nth(1).getByText('Pick 2 · JAX on the clock').waitFor();

    await op.recordPick(2, 'Travis Hunter');
    await liveStrip(fan.page, 'Pick 2 · JAX · Travis Hunter, CB/WR, Colorado').waitFor({ timeout: LIVE_MS });
    await fan.page.getByRole('list', { name: 'Earlier picks' }).getByText('Pick 1 · TEN · Cam Ward, QB').waitFor();
    await slots().nth(1).getByText('Pick 2 · JAX · Travis Hunter').waitFor({ timeout: LIVE_MS });
    await slots().nth(2).getByText('Pick 3 · NYG on the clock').waitFor();
  });

  it('the operator gives pick 2 to another team from the console: every page follows live, and undo gives it back', async () => {
    await op.skipFirstLoginRules();
    const console_: Page = (await newPerson(browser)).page;
    await signInWithSession(console_, STEWARD_EMAIL);
    await console_.goto('/admin');
    await console_.getByRole('heading', { name: 'Draft control' }).waitFor();
    const order = console_.getByRole('list', { name: 'Round one order' });
    await order.getByRole('listitem').nth(1).getByText('Pick 2 · JAX · Travis Hunter').waitFor();

    await console_.getByRole('textbox', { name: 'Traded pick' }).fill('2');
    await console_.getByRole('combobox', { name: 'New team' }).selectOption('CLE');
    await console_.getByRole('button', { name: 'Give pick 2 to CLE' }).click();
    await console_.getByRole('list', { name: 'Audit log' }).getByRole('listitem').first().getByText('Gave pick 2 to CLE (was JAX)').waitFor();

    // The fan's page, never reloaded: the strip, its toast and the board.
    await liveStrip(fan.page, 'Pick 2 · CLE · Travis Hunter, CB/WR, Colorado').waitFor({ timeout: LIVE_MS });
    await fan.page.locator('[data-scope="toast"][data-part="root"]').filter({ hasText: 'Pick 2 now belongs to CLE' }).first().waitFor({ timeout: LIVE_MS });
    await slots().nth(1).getByText('Pick 2 · CLE · Travis Hunter').waitFor({ timeout: LIVE_MS });
    expect(await slots().nth(1).getByText('CLE', { exact: true }).getAttribute('title')).toBe('Cleveland Browns');
    await order.getByRole('listitem').nth(1).getByText('Pick 2 · CLE · Travis Hunter').waitFor();

    // Undo takes back the last change, the team change, and says so before it does.
    await console_.getByRole('button', { name: 'Undo last change' }).click();
    const dialog = console_.getByRole('alertdialog', { name: 'Undo the last change?' });
    await dialog.getByText('the change of pick 2 to CLE (back to JAX)').waitFor();
    await dialog.getByRole('button', { name: 'Undo' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await liveStrip(fan.page, 'Pick 2 · JAX · Travis Hunter, CB/WR, Colorado').waitFor({ timeout: LIVE_MS });
    await slots().nth(1).getByText('Pick 2 · JAX · Travis Hunter').waitFor({ timeout: LIVE_MS });
    await order.getByRole('listitem').nth(1).getByText('Pick 2 · JAX · Travis Hunter').waitFor();
  });
});
