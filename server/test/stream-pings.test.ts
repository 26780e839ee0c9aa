import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPick } from '../src/modules/draft/draft.service.js';
import { LiveStream } from '../src/modules/leaderboard/live-stream.js';
import { PublicLiveStream } from '../src/modules/leaderboard/public-live-stream.js';
import { PING_TURNS } from '../src/live/parts.js';
import { PING } from '../src/wire/sse-frames.js';
import { operatorReset, operatorStart } from './game/helpers.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/*
 * Pings keep a quiet stream open (proxies, the client's inactivity timeout). With thousands of pages open on
 * draft night they must neither go all at once (5,000 socket writes in one go held up a pick heard meanwhile)
 * nor leave a stream quiet for long. Both streams, the players' and the spectators', over a short interval.
 */
const INTERVAL_MS = 900;
const TURN_MS = INTERVAL_MS / PING_TURNS;
const STREAMS = 45;
/** Timers fire late on a busy machine: this much slack on every bound. */
const SLACK_MS = 400;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  await operatorStart(t);
});
afterAll(async () => {
  await operatorReset(t);
  await t?.close();
});

/** An SSE response as the stream writes it: when each write went, and whether it was a ping. */
function recordingSink() {
  const writes: Array<{ at: number; ping: boolean }> = [{ at: performance.now(), ping: false }];
  return {
    writes,
    cork() {},
    uncork() {},
    write(chunk: string | Buffer) {
      writes.push({ at: performance.now(), ping: Buffer.from(chunk).equals(PING) });
      return true;
    },
    end() {},
  };
}

/** Pings written within a few ms of each other went in one tick: the sizes of those bunches. */
function bunches(pingTimes: number[]): number[] {
  const sorted = [...pingTimes].sort((a, b) => a - b);
  const sizes: number[] = [];
  let last = -Infinity;
  for (const at of sorted) {
    if (at - last > 5) sizes.push(0);
    sizes[sizes.length - 1]! += 1;
    last = at;
  }
  return sizes;
}

const kinds = [
  {
    name: "the players' stream",
    open: (sinks: ReturnType<typeof recordingSink>[]) => {
      const live = new LiveStream(t.deps, INTERVAL_MS);
      sinks.forEach((sink, i) => live.subscribe(`pinged-${i}`, undefined).sendTo(sink, String));
      return live;
    },
  },
  {
    name: "the spectators' stream",
    open: (sinks: ReturnType<typeof recordingSink>[]) => {
      const live = new PublicLiveStream(t.deps, INTERVAL_MS, { perIp: STREAMS, total: STREAMS });
      sinks.forEach((sink) => live.subscribe('10.0.0.9', undefined).sendTo(sink, String));
      return live;
    },
  },
];

describe('pings on quiet streams', () => {
  it.each(kinds)('$name: pings a quiet stream in its turn, a slice of the streams at a time, never one that just carried a pick', async ({ open }) => {
    const sinks = Array.from({ length: STREAMS }, recordingSink);
    const live = open(sinks);
    // A pick part-way: every stream carries it (and the spectators' their page), so none needs a ping for a while.
    await new Promise((r) => setTimeout(r, INTERVAL_MS * 1.3));
    const [next] = await t.db.query<{ id: number; slot: number }>(
      `select id, (select count(*)::int + 1 from player where draft_pick is not null) as slot from player where draft_pick is null order by rank limit 1`,
    );
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', next!.slot, next!.id);
    await new Promise((r) => setTimeout(r, INTERVAL_MS * 2.5));
    const end = performance.now();
    live.close();

    // Every stream was pinged, each at most once an interval, and none after less than half an interval of quiet.
    for (const { writes } of sinks) {
      expect(writes.filter((w) => w.ping).length).toBeGreaterThan(0);
      writes.forEach((w, i) => {
        if (i > 0 && w.ping) expect(w.at - writes[i - 1]!.at).toBeGreaterThanOrEqual(INTERVAL_MS / 2 - 5);
      });
      // Never quiet for much more than an interval and a half (its turn comes round once an interval).
      const gaps = writes.map((w, i) => (writes[i + 1]?.at ?? end) - w.at);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(INTERVAL_MS * 1.5 + TURN_MS + SLACK_MS);
    }
    // The pick reached every stream, and the pings went in turns: no tick pinged more than its slice.
    expect(sinks.every((s) => s.writes.some((w, i) => i > 0 && !w.ping))).toBe(true);
    const pingTimes = sinks.flatMap((s) => s.writes.filter((w) => w.ping).map((w) => w.at));
    expect(Math.max(...bunches(pingTimes))).toBeLessThanOrEqual(Math.ceil(STREAMS / PING_TURNS));
  });
});
