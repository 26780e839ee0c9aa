import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixtureFeed, picksMadeAt, type RoundOnePick } from '../scripts/lib/fixture-feed';
import { launchBrowser, newPerson } from './support/browser';
import { DEPUTY_EMAIL } from './support/env';
import { startInstance, type Instance } from './support/instance';
import { listPlayers, operator } from './support/operator';
import { signInWithSession } from './support/session';
import { watchForText, type TextSighting } from './support/watch-text';

/**
 * The results feed as an operator meets it on /admin (docs/operations.md, "Results feed"; docs/decisions.md). The
 * shared e2e server has no feed, so this spec starts a second instance of the game on the same database
 * with FEED_URL pointing at a local fixture feed: the real 2025 round one, one more pick every PICK_MS from
 * the first poll, with the two misspellings of `npm run feed:fixture` ('Tet McMillan' at 8, 'Jahdae Baron'
 * at 20). The operator starts the draft and watches: picks arrive by themselves, the two misspelt ones wait
 * in the queue; the operator confirms one and chooses the player for the other. Then the feed goes down
 * for a while: the card says it is backing off and until when, and stops saying so once the feed is back.
 */
const PICK_MS = 1000;
/** What a person waits for the feed: a few polls (1 s) and the card's refresh (5 s), on a loaded machine. */
const FEED_MS = 30_000;
const MCMILLAN = 'Feed says pick 8: Tet McMillan, Arizona → board #8 Tetairoa McMillan WR Arizona?';
const BARRON = 'Feed says pick 20: Jahdae Baron, Texas → board #17 Jahdae Barron CB Texas?';

const roundOne = (JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../shared/data/round-one-2025.json'), 'utf8')) as { picks: RoundOnePick[] }).picks;

/** Slot → player name of round one as the server has it. */
async function recordedSlots(): Promise<Map<number, string>> {
  const players = (await listPlayers()) as (Awaited<ReturnType<typeof listPlayers>>[number] & { draft_round: number | null; draft_pick: number | null })[];
  return new Map(players.filter((p) => p.draft_round === 1).map((p) => [p.draft_pick!, p.player_name]));
}

describe('the results feed on /admin', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  let fixture: http.Server;
  let instance: Instance;
  let page: Page;
  let sightings: TextSighting[];
  let feedStartedAt: number | undefined;
  let feedRequests = 0;
  /** The fixture answers 503 while true (a feed that goes down). */
  let failing = false;
  /** performance.now() in the page when the operator's confirmation of pick 8 had settled. */
  let confirmedAt = Infinity;

  const card = () => page.getByRole('region', { name: 'Results feed' });
  const queue = () => card().getByRole('list', { name: 'Feed picks waiting for you' });
  const queued = (text: string) => queue().getByRole('listitem').filter({ hasText: text });
  const auditEntry = (title: string, by: string) => page.getByRole('list', { name: 'Audit log' }).getByRole('listitem').filter({ hasText: title }).filter({ hasText: `by ${by}` });

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator(DEPUTY_EMAIL);
    await op.resetDraft();
    await op.skipFirstLoginRules();
    fixture = http.createServer((_req, res) => {
      feedRequests++;
      if (failing) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('down');
        return;
      }
      feedStartedAt ??= Date.now();
      const made = picksMadeAt(roundOne.length, Date.now() - feedStartedAt, PICK_MS);
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(fixtureFeed(roundOne, made, 'generic')));
    });
    await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve));
    const { port } = fixture.address() as AddressInfo;
    instance = await startInstance({ FEED_URL: `http://127.0.0.1:${port}/`, FEED_KIND: 'generic', FEED_INTERVAL_SECONDS: '1' });
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await instance?.stop();
    await new Promise((resolve) => fixture?.close(resolve));
    await browser?.close();
  });

  it('before the start the card says the feed is configured and waits; nothing is fetched', async () => {
    const person = await newPerson(browser, undefined, { baseURL: instance.baseUrl });
    page = person.page;
    sightings = await watchForText(person.context, ['Feed says pick 8', 'Last error', 'Backing off', 'Pick 8 recorded from the feed', 'Pick 20 recorded from the feed']);
    await signInWithSession(page, DEPUTY_EMAIL);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Draft control' }).waitFor();
    await card().getByText('Generic feed, polled every 1 s while the draft is live. Not polled yet.').waitFor();
    await card().getByText('Waiting', { exact: true }).waitFor();
    expect(feedRequests).toBe(0);
  });

  it('the operator starts the draft and picks arrive by themselves, recorded by the feed', async () => {
    await page.getByRole('button', { name: 'Start draft' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Start the draft?' });
    await dialog.getByRole('button', { name: 'Start draft' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Live', { exact: true }).waitFor();
    // The status line: the last poll's success, and how many picks the feed showed.
    await card().getByText(/^Generic feed, polled every 1 s while the draft is live\. Last success \d+ s ago; \d+ round-one picks seen\. Next poll at [^.]+\.$/).waitFor({ timeout: FEED_MS });
    await auditEntry('Pick 1: Cam Ward', 'feed').waitFor({ timeout: FEED_MS });
    await auditEntry('Pick 7: Armand Membou', 'feed').waitFor({ timeout: FEED_MS });
    expect(feedRequests).toBeGreaterThan(0);
  });

  it('the misspelt pick 8 waits in the queue with the right player suggested; the operator confirms it', async () => {
    const item = queued(MCMILLAN);
    await item.waitFor({ timeout: FEED_MS });
    await item.getByRole('button', { name: 'Choose another' }).waitFor();
    // The feed did not record it by itself: the slot is empty until the operator says so.
    expect((await recordedSlots()).get(8)).toBeUndefined();
    await item.getByRole('button', { name: 'Confirm' }).click();
    // The toast says so, however briefly: one toast shows at a time, and the feed's next pick, recorded a
    // second later, replaces it with its own.
    await expect.poll(() => sightings.some((s) => s.text === 'Pick 8 recorded from the feed'), { timeout: 10_000 }).toBe(true);
    await item.waitFor({ state: 'detached' });
    confirmedAt = await page.evaluate<number>('performance.now()');
    await auditEntry('Pick 8: Tetairoa McMillan', DEPUTY_EMAIL).waitFor();
    expect((await recordedSlots()).get(8)).toBe('Tetairoa McMillan');
  });

  it('the feed runs to the end of round one: every sure pick recorded, pick 20 waiting, pick 8 never asked again', async () => {
    await card().getByText(/Last success \d+ s ago; 32 round-one picks seen\./).waitFor({ timeout: FEED_MS + roundOne.length * PICK_MS });
    await queued(BARRON).waitFor({ timeout: FEED_MS });
    await page.getByText('31 / 32', { exact: true }).waitFor({ timeout: FEED_MS });
    const slots = await recordedSlots();
    expect(slots.get(20)).toBeUndefined();
    for (const p of roundOne.filter((p) => p.slot !== 20)) expect(slots.get(p.slot), `slot ${p.slot}`).toBe(p.player_name);
    // Confirmed, pick 8 agrees with what the feed goes on saying: no conflict, no question again (every DOM change watched).
    // (The watcher did see the question while it was open, so its silence since means something.)
    expect(sightings.filter((s) => s.text === 'Feed says pick 8' && s.at <= confirmedAt).length).toBeGreaterThan(0);
    expect(sightings.filter((s) => s.text === 'Feed says pick 8' && s.at > confirmedAt)).toEqual([]);
    expect(await queue().getByRole('listitem').count()).toBe(1);

    // The fixture always served a good feed so far: no error, no backoff was ever shown.
    expect(sightings.filter((s) => s.text === 'Last error' || s.text === 'Backing off')).toEqual([]);
  }, 90_000);

  it('a feed that starts failing is backed off, and the card says until when; the first success ends it', async () => {
    failing = true;
    const backoff = card().getByText(/^Backing off after \d+ failed polls in a row: next poll at .+, back to every 1 s once one succeeds\.$/);
    await backoff.waitFor({ timeout: FEED_MS });
    await card().getByText('Backing off', { exact: true }).waitFor();
    await card().getByText('Last error: The feed answered HTTP 503').waitFor();
    failing = false;
    await backoff.waitFor({ state: 'detached', timeout: FEED_MS });
    await card().getByText(/Last success \d+ s ago; 32 round-one picks seen\. Next poll at [^.]+\.$/).waitFor();
    expect(await card().getByText(/^Last error/).count()).toBe(0);
  });

  it('the operator records pick 20 by choosing the player; round one is full and the feed stops', async () => {
    // The operator records pick 20 by choosing the player instead of confirming the suggestion.
    const item = queued(BARRON);
    await item.getByRole('button', { name: 'Choose another' }).click();
    await item.getByRole('combobox', { name: 'Player for pick 20' }).selectOption({ label: '#17 Jahdae Barron, CB, Texas' });
    await item.getByRole('button', { name: 'Record pick 20' }).click();
    // The toast says so, however briefly: pick 20 fills round one, whose own announcement may replace it.
    await expect.poll(() => sightings.some((s) => s.text === 'Pick 20 recorded from the feed'), { timeout: 10_000 }).toBe(true);
    await queue().waitFor({ state: 'detached' });
    await page.getByText('32 / 32', { exact: true }).waitFor();
    expect((await recordedSlots()).get(20)).toBe('Jahdae Barron');
    // 32 of 32: round one is over, nothing more is polled or announced.
    await card().getByText(/^Generic feed, polled every 1 s while the draft is live\. Last success .+; 32 round-one picks seen\.$/).waitFor({ timeout: FEED_MS });
  });
});
