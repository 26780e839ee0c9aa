import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type pg from 'pg';
import { axeFindings, serveAxe } from './support/axe';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { uniqueEmail, uniqueUsername } from './support/env';
import { apiSession } from './support/idp';
import { serverDatabase } from './support/database';
import { signInWithSession } from './support/session';
import { waitForPath } from './support/ui';
import { rest } from './support/rest';

/**
 * Seasons: a group's History. A season closed before this one (written into the archive as
 * `npm run season -- new` leaves it: the server under test plays the current season, which this spec
 * must not close under the other specs) shows on the group page as '<year> winner: <name>, 2 hits'; its
 * final standings open each entry onto its picks with ✓/✗ said in words. A group without past seasons
 * says so.
 */
const YEAR = 2024;

/** The group's final standings of YEAR: Alice first with two hits, Bo busted by a miss. */
async function archiveSeason(db: pg.Client, groupId: number, groupName: string, alice: { id: string; name: string }, bo: { id: string; name: string }) {
  await db.query('begin');
  try {
    await db.query(`insert into season (year, deadline, opened_at, closed_at) values ($1, $2, $2, $3) on conflict do nothing`, [
      YEAR,
      new Date(Date.UTC(YEAR, 3, 26)),
      new Date(Date.UTC(YEAR, 4, 2)),
    ]);
    await db.query(
      `insert into season_player (season, player_id, rank, player_name, position, school, draft_round, draft_pick)
       values ($1, 9001, 1, 'Caleb Williams', 'QB', 'USC', 1, 1), ($1, 9002, 2, 'Jayden Daniels', 'QB', 'LSU', 1, 2),
              ($1, 9003, 3, 'Bo Nix', 'QB', 'Oregon', 1, 12), ($1, 9004, 40, 'Spencer Rattler', 'QB', 'South Carolina', null, null)
       on conflict do nothing`,
      [YEAR],
    );
    await db.query(`insert into season_group (season, group_id, name, is_public, picks_public) values ($1, $2, $3, false, true)`, [YEAR, groupId, groupName]);
    await db.query(
      `insert into season_entry (season, group_id, participant_id, participant_name, rank, picks, hits, correct_picks, busted, tiebreak_rank)
       values ($1, $2, $3, $4, 1, 2, 2, 2, false, 2), ($1, $2, $5, $6, 2, 2, 1, 0, true, null)`,
      [YEAR, groupId, alice.id, alice.name, bo.id, bo.name],
    );
    await db.query(
      `insert into season_entry_pick (season, group_id, participant_id, player_id, hit)
       values ($1, $2, $3, 9001, true), ($1, $2, $3, 9002, true), ($1, $2, $4, 9003, true), ($1, $2, $4, 9004, false)`,
      [YEAR, groupId, alice.id, bo.id],
    );
    await db.query('commit');
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
}

describe('a group’s History', () => {
  let browser: Browser;
  let db: pg.Client;
  let alice: Person;
  let groupId = 0;
  let newGroupId = 0;
  const groupName = `History Crew ${Date.now().toString(36)}`;
  const names = { alice: uniqueUsername('AliceDrafts'), bo: uniqueUsername('Bo') };
  const aliceEmail = uniqueEmail('historyalice');

  beforeAll(async () => {
    browser = await launchBrowser();
    db = await serverDatabase();
    const sAlice = await apiSession(aliceEmail, names.alice);
    const sBo = await apiSession(uniqueEmail('historybo'), names.bo);
    groupId = Number((await rest(sAlice, 'POST', '/groups', { name: groupName, picks_public: true })).group_id);
    newGroupId = Number((await rest(sAlice, 'POST', '/groups', { name: `${groupName} New` })).group_id);
    const { token } = (await rest(sAlice, 'POST', '/groups/join-links', { group_id: groupId })) as { token: string };
    await rest(sBo, 'POST', `/groups/join-with-link/${token}`);
    for (const s of [sAlice, sBo]) await rest(s, 'PATCH', '/users/me/status');
    const id = async (s: typeof sAlice) => String((await rest(s, 'GET', '/auth/me')).id);
    await archiveSeason(db, groupId, groupName, { id: await id(sAlice), name: names.alice }, { id: await id(sBo), name: names.bo });
  });
  afterAll(async () => {
    if (db) {
      await db.query(`delete from season_group where season = $1 and group_id = $2`, [YEAR, groupId]).catch(() => undefined);
      await db.end();
    }
    await browser?.close();
  });

  it('shows each past season’s winner on the group page, and says when there is none yet', async () => {
    alice = await newPerson(browser, { width: 375, height: 760 });
    await serveAxe(alice.context);
    await signInWithSession(alice.page, aliceEmail);
    const { page } = alice;

    await page.goto(`/groups/${groupId}`);
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText(`${YEAR} winner: ${names.alice}, 2 hits`).waitFor();
    await history.getByText('You finished #1 of 2').waitFor();

    await page.goto(`/groups/${newGroupId}`);
    await page.getByRole('region', { name: 'History' }).getByText('No past seasons yet').waitFor();
  });

  it('opens the final standings, each entry onto its picks with ✓ and ✗ in words', async () => {
    const { page } = alice;
    await page.goto(`/groups/${groupId}`);
    await page.getByRole('link', { name: `${YEAR} final standings` }).click();
    await waitForPath(page, `/groups/${groupId}/seasons/${YEAR}`);
    await page.getByRole('heading', { name: `${YEAR} final standings`, level: 1 }).waitFor();

    const standings = page.getByRole('list', { name: `Final standings ${YEAR}` });
    const rows = standings.getByRole('listitem').filter({ has: page.locator('summary') });
    await rows.first().waitFor();
    expect(await standings.locator(':scope > li').allInnerTexts()).toEqual([expect.stringContaining(names.alice), expect.stringContaining(names.bo)]);

    // Bo's entry: closed until opened, then his hit and his miss, each in words.
    const boPicks = page.getByRole('list', { name: `${names.bo}'s picks` });
    expect(await boPicks.isVisible()).toBe(false);
    await page.getByText('busted · had 1 hit').click();
    await boPicks.waitFor();
    expect(await boPicks.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/Bo Nix[\s\S]*Hit · Pick 12/i), expect.stringMatching(/Spencer Rattler[\s\S]*Miss/i)]);

    expect(await axeFindings(page)).toEqual([]);
  });
});
