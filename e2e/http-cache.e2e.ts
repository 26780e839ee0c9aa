import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_REFRESH_JITTER_MS, STANDINGS_PUSH_WAIT_MS } from '@first-round/shared/constants';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { uniqueEmail, uniqueUsername, STEWARD_EMAIL, LIVE_MS } from './support/env';
import { apiSession } from './support/idp';
import { operator, playerId } from './support/operator';
import { rest } from './support/rest';
import { liveStrip } from './support/ui';
import { signInWithSession } from './support/session';

/**
 * Draft night without a refetch storm, as a browser sees it. A player keeps their group's
 * standings open while the operator records picks through the API:
 * - the change itself updates draft.status and the board in the page's cache: no request for either;
 * - the standings on screen come on the live stream, re-ranked: no request for them either, and never
 *   a fallback read (the page would read them only if they did not come within STANDINGS_PUSH_WAIT_MS);
 * - the strip announcing the pick (under the header) leaves the updated standings visible;
 * - the live stream itself is gzip-compressed (the browser asks for it, and decodes each frame as it comes);
 * - a page that does read the standings (a reload) revalidates through the browser's HTTP cache:
 *   If-None-Match, answered 304 while nothing changed.
 */
/** Longer than a page waits for the stream before reading the standings itself, plus its jitter. */
const NO_READ_MS = STANDINGS_PUSH_WAIT_MS + LIVE_REFRESH_JITTER_MS + 500;

interface Read {
  path: string;
  input: unknown;
  status: number;
  ifNoneMatch: string | undefined;
  at: number;
}

/**
 * The page's calls to the hot reads (unbatched tRPC GETs) as they went over the wire, from the DevTools
 * protocol: Playwright's response events report a revalidated answer as the cached 200 the page gets,
 * while the raw response (`responseReceivedExtraInfo`) has the server's status, 304.
 */
async function recordHotReads(page: Page, streams: Array<{ contentEncoding?: string }> = []): Promise<Read[]> {
  const reads: Read[] = [];
  const cdp = await page.context().newCDPSession(page);
  // The three events of one request come in no fixed order (the ExtraInfo ones come from the network
  // service, apart from the page's own), so each is kept by request id and a read is written down once
  // its URL and its raw response are both known; the sent headers are looked up when asked for.
  const urls = new Map<string, string>();
  const sentHeaders = new Map<string, Record<string, string>>();
  const responses = new Map<string, { status: number; headers: Record<string, string>; at: number }>();
  const lowerCased = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const settle = (requestId: string) => {
    const raw = urls.get(requestId);
    const response = responses.get(requestId);
    if (!raw || !response) return;
    const url = new URL(raw);
    const path = url.pathname.replace(/^\/trpc\//, '');
    if (path === 'draft.changes' && url.pathname.startsWith('/trpc/')) streams.push({ contentEncoding: response.headers['content-encoding'] });
    if (!url.pathname.startsWith('/trpc/') || path.includes(',') || path === 'draft.changes') return;
    const input = url.searchParams.get('input');
    reads.push({
      path,
      input: input ? (JSON.parse(input) as unknown) : undefined,
      status: response.status,
      get ifNoneMatch() {
        return sentHeaders.get(requestId)?.['if-none-match'];
      },
      at: response.at,
    });
  };
  cdp.on('Network.requestWillBeSent', (e) => {
    urls.set(e.requestId, e.request.url);
    settle(e.requestId);
  });
  cdp.on('Network.requestWillBeSentExtraInfo', (e) => sentHeaders.set(e.requestId, lowerCased(e.headers as Record<string, string>)));
  cdp.on('Network.responseReceivedExtraInfo', (e) => {
    responses.set(e.requestId, { status: e.statusCode, headers: lowerCased(e.headers as Record<string, string>), at: Date.now() });
    settle(e.requestId);
  });
  await cdp.send('Network.enable');
  return reads;
}

/** Whether what is drawn at the centre of the locator's box is the locator itself (nothing covers it). */
async function drawnOnTop(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const top = el.ownerDocument.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top !== null && (el === top || el.contains(top));
  });
}

describe('draft night: reads revalidate, the standings stay in view', () => {
  let browser: Browser;
  let op: Awaited<ReturnType<typeof operator>>;
  let page: Page;
  let reads: Read[];
  /** The page's live streams as they came over the wire. */
  const streams: Array<{ contentEncoding?: string }> = [];
  let groupId = 0;
  const email = uniqueEmail('etag');
  const username = uniqueUsername('Etag');

  beforeAll(async () => {
    browser = await launchBrowser();
    op = await operator(STEWARD_EMAIL);
    await op.resetDraft();
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  /** U's standings row in the group. */
  const myRow = () => page.getByRole('list', { name: 'Rankings' }).getByRole('listitem').filter({ hasText: username });
  /** Reads of this group's standings since `since`. */
  const groupReads = (since: number) =>
    reads.filter((r) => r.path === 'leaderboard.group' && (r.input as { group_id?: number } | undefined)?.group_id === groupId && r.at >= since);

  it('a player has a private group with picks in it and opens its standings once the draft starts', async () => {
    // Set up through the API: an account, a group of one, group picks, the rules already seen.
    const session = await apiSession(email, username);
    const call = (method: string, path: string, body?: unknown) => rest(session, method, path, body);
    groupId = Number((await call('POST', '/groups', { name: `Etag Club ${Date.now().toString(36)}` })).group_id);
    expect(groupId).toBeGreaterThan(0);
    await call('POST', '/picks', { picks: [await playerId('Cam Ward'), await playerId('Travis Hunter')], group_id: groupId });
    await call('PATCH', '/users/me/status');

    page = (await newPerson(browser)).page;
    reads = await recordHotReads(page, streams);
    await signInWithSession(page, email);
    await op.startDraft();
    await page.goto(`/groups/${groupId}/picks`);
    await myRow().waitFor();
    expect(await myRow().getByLabel('0 correct picks').count()).toBe(1);
    // The first read of the standings: a 200 the browser keeps, with its ETag.
    expect(groupReads(0).some((r) => r.status === 200)).toBe(true);
  });

  /** Samples for NO_READ_MS that the page makes no read of the standings, draft.status or the board. */
  async function neverReads(since: number) {
    const until = Date.now() + NO_READ_MS;
    while (Date.now() < until) {
      expect(groupReads(since), 'the standings were read instead of coming on the stream').toEqual([]);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(reads.filter((r) => r.at >= since && (r.path === 'draft.status' || r.path === 'players.list'))).toEqual([]);
  }

  it('a pick nobody in the group made: the page learns it from the stream and reads nothing', async () => {
    const since = Date.now();
    await op.recordPick(1, 'Abdul Carter');
    await liveStrip(page, 'Pick 1 · TEN · Abdul Carter').waitFor({ timeout: LIVE_MS });
    await neverReads(since);
    expect(await myRow().getByLabel('0 correct picks').count()).toBe(1);
  });

  it('a pick of theirs: the new score comes on the stream and shows, in view, next to the strip', async () => {
    const since = Date.now();
    await op.recordPick(2, 'Cam Ward');
    const announced = liveStrip(page, 'Pick 2 · JAX · Cam Ward');
    await announced.waitFor({ timeout: LIVE_MS });
    const score = myRow().getByLabel('1 correct pick');
    await score.waitFor({ timeout: LIVE_MS });
    expect(groupReads(since)).toEqual([]);
    // What brought it: the page's live stream, gzip-compressed on the wire.
    expect(streams.length).toBeGreaterThan(0);
    expect(streams.every((s) => s.contentEncoding === 'gzip')).toBe(true);

    // The strip is up, and the updated row (its name and its score) is not under it, on a desktop and on
    // a phone (where the strip spans the width below the header).
    for (const viewport of [{ width: 1280, height: 900 }, { width: 375, height: 800 }]) {
      await page.setViewportSize(viewport);
      expect(await announced.isVisible(), `strip at ${viewport.width} px`).toBe(true);
      expect(await drawnOnTop(score), `the score is covered at ${viewport.width} px`).toBe(true);
      expect(await drawnOnTop(myRow().getByText(username)), `the name is covered at ${viewport.width} px`).toBe(true);
    }
    await neverReads(since);
  });

  it('reading the standings again revalidates what the browser holds: 200 once changed, then 304', async () => {
    // The browser's copy is from before the picks (the stream updated the page, not the HTTP cache).
    let since = Date.now();
    await page.reload();
    await myRow().getByLabel('1 correct pick').waitFor({ timeout: LIVE_MS });
    await expect.poll(() => groupReads(since).length, { timeout: LIVE_MS }).toBeGreaterThan(0);
    expect(groupReads(since)[0]).toMatchObject({ status: 200 });
    expect(groupReads(since)[0]?.ifNoneMatch, 'the browser revalidated what it held').toBeTruthy();

    since = Date.now();
    await page.reload();
    await myRow().getByLabel('1 correct pick').waitFor({ timeout: LIVE_MS });
    await expect.poll(() => groupReads(since).length, { timeout: LIVE_MS }).toBeGreaterThan(0);
    const [read] = groupReads(since);
    expect(read?.ifNoneMatch).toBeTruthy();
    expect(read?.status).toBe(304);
  });
});
