/**
 * The feed poller backs off while the feed fails (docs/decisions.md, "Results feed"): ticks driven by the
 * test on the app's movable clock, a fake fetch, a real PostgreSQL for the status row and the draft.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedStatus } from '@first-round/shared/schemas';
import { pollDelaySeconds } from '../../src/modules/feed/feed.backoff.js';
import { describeFeedStatus } from '../../src/modules/feed/feed.service.js';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { expectStatus, operatorReset, operatorStart } from '../game/helpers.js';

const INTERVAL = 10;
let t: TestApp;
let admin: TestUser;
let fetches = 0;
let failing = true;

const feedStatus = async () => expectStatus<FeedStatus>(await t.request('GET', '/api/draft/feed', { user: admin }), 200);
const seconds = (s: number) => s * 1000;
/** Ticks at the clock's present time; true when the tick fetched the feed. */
async function tickFetched(): Promise<boolean> {
  const before = fetches;
  await t.deps.feed.tick();
  return fetches > before;
}

beforeAll(async () => {
  t = await createTestApp({
    env: { FEED_URL: 'http://feed.invalid/draft.json', FEED_KIND: 'generic', FEED_INTERVAL_SECONDS: String(INTERVAL) },
    deps: {
      feedFetch: async () => {
        fetches++;
        return failing ? { ok: false, status: 503, text: async () => 'down' } : { ok: true, status: 200, text: async () => '[]' };
      },
    },
  });
  admin = await t.signUp('backoffoperator', ADMIN_EMAIL);
  await operatorStart(t);
});
afterAll(async () => {
  await t?.deps.feed.stop();
  await t?.close();
});

describe('feed backoff', () => {
  it('the wait doubles from the second failure in a row, up to 5 minutes or 30 intervals, never below the interval', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map((n) => pollDelaySeconds(10, n))).toEqual([10, 10, 20, 40, 80, 160, 300, 300, 300]);
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((n) => pollDelaySeconds(1, n))).toEqual([1, 1, 2, 4, 8, 16, 30, 30]);
    expect([1, 2, 3].map((n) => pollDelaySeconds(600, n))).toEqual([600, 600, 600]);
    // Large counts do not overflow into nonsense.
    expect(pollDelaySeconds(10, 5000)).toBe(300);
  });

  it('a failing feed is polled less and less often, and the status says when the next poll is due', async () => {
    const waits: number[] = [];
    expect(await tickFetched()).toBe(true);
    for (let failures = 1; failures <= 7; failures++) {
      const status = await feedStatus();
      expect(status.consecutive_failures).toBe(failures);
      expect(status.last_error).toBe('The feed answered HTTP 503');
      const wait = (Date.parse(status.next_poll_at!) - Date.parse(status.last_poll_at!)) / 1000;
      waits.push(wait);
      expect(status.backing_off).toBe(wait > INTERVAL);
      // Not a moment before it is due, however often the timer ticks…
      t.clock.advance(seconds(wait - 1));
      expect(await tickFetched()).toBe(false);
      // …and polled once it is.
      t.clock.advance(seconds(1));
      expect(await tickFetched()).toBe(true);
    }
    expect(waits).toEqual([10, 20, 40, 80, 160, 300, 300]);
    const lines = describeFeedStatus(await feedStatus());
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}Backing off after 8 failed polls in a row: next poll at \S+Z \(in 300 s\)$/));
  });

  it('the first success brings back the normal pace', async () => {
    failing = false;
    t.clock.advance(seconds(300));
    expect(await tickFetched()).toBe(true);
    const status = await feedStatus();
    expect(status).toMatchObject({ consecutive_failures: 0, backing_off: false, last_error: null });
    expect((Date.parse(status.next_poll_at!) - Date.parse(status.last_poll_at!)) / 1000).toBe(INTERVAL);
    expect(describeFeedStatus(status)[0]).toMatch(/, next poll in 10 s$/);
    t.clock.advance(seconds(INTERVAL));
    expect(await tickFetched()).toBe(true);
    t.clock.advance(seconds(INTERVAL));
    expect(await tickFetched()).toBe(true);
  });

  it('the timer waits as long as the schedule says, and the interval while the draft is not live', async () => {
    // The clock runs on in real time between a tick and the question: allow the milliseconds that took.
    const about = (ms: number) => expect.toSatisfy((actual: number) => actual <= ms && actual > ms - 1000);
    failing = true;
    t.clock.advance(seconds(INTERVAL));
    await t.deps.feed.tick(); // one failure: retried at the normal pace
    expect(t.deps.feed.msUntilNextTick()).toEqual(about(seconds(INTERVAL)));
    t.clock.advance(seconds(INTERVAL));
    await t.deps.feed.tick(); // two: 20 s
    expect(t.deps.feed.msUntilNextTick()).toEqual(about(seconds(20)));
    t.clock.advance(seconds(5));
    expect(t.deps.feed.msUntilNextTick()).toEqual(about(seconds(15)));
    // Reset: nothing to poll, nothing due; the status no longer announces a poll.
    await operatorReset(t);
    t.clock.advance(seconds(15));
    expect(await tickFetched()).toBe(false);
    expect(t.deps.feed.msUntilNextTick()).toBe(seconds(INTERVAL));
    expect(await feedStatus()).toMatchObject({ next_poll_at: null, next_poll_in_seconds: null, backing_off: false, consecutive_failures: 0 });
  });
});
