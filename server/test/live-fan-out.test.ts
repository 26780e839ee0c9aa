import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveFanOut, MAX_YIELD_MS } from '../src/events/live-fan-out.js';

/** Whether `promise` has settled after the microtasks queued so far. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('the live fan-out mark (what the push sender waits on)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps background work waiting while the pages are written and for the settle time after', async () => {
    const fanOut = new LiveFanOut(300);
    expect(fanOut.busy).toBe(false);
    const done = fanOut.begin();
    const idle = fanOut.idle();
    await vi.advanceTimersByTimeAsync(200);
    expect(await settled(idle)).toBe(false);
    done();
    expect(fanOut.busy).toBe(true);
    await vi.advanceTimersByTimeAsync(299);
    expect(await settled(idle)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(idle)).toBe(true);
    expect(fanOut.busy).toBe(false);
  });

  it('lets go at once when there is no settle time, and ends a fan-out once however often it is told', async () => {
    const fanOut = new LiveFanOut(0);
    const first = fanOut.begin();
    const second = fanOut.begin();
    first();
    first();
    expect(fanOut.busy).toBe(true);
    const idle = fanOut.idle();
    second();
    expect(await settled(idle)).toBe(true);
  });

  it('a fan-out starting while the last one settles keeps the work waiting until its own settle ends', async () => {
    const fanOut = new LiveFanOut(300);
    fanOut.begin()();
    await vi.advanceTimersByTimeAsync(100);
    const next = fanOut.begin();
    const idle = fanOut.idle();
    await vi.advanceTimersByTimeAsync(400);
    expect(await settled(idle)).toBe(false);
    next();
    await vi.advanceTimersByTimeAsync(299);
    expect(await settled(idle)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(idle)).toBe(true);
  });

  it('never holds work back more than MAX_YIELD_MS, even behind fan-outs that keep coming or never end', async () => {
    const fanOut = new LiveFanOut(300);
    const stuck = fanOut.begin();
    const idle = fanOut.idle();
    await vi.advanceTimersByTimeAsync(MAX_YIELD_MS - 1);
    expect(await settled(idle)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(idle)).toBe(true);
    expect(fanOut.busy).toBe(false);
    stuck();

    // One spell of back-to-back fan-outs, each settling into the next: bounded from the spell's start.
    const spellStart = Date.now() + 1000;
    await vi.advanceTimersByTimeAsync(1000);
    let waitedUntil: number | undefined;
    void fanOut.begin();
    void fanOut.idle().then(() => (waitedUntil = Date.now()));
    for (let i = 0; i < 20 && waitedUntil === undefined; i++) {
      await vi.advanceTimersByTimeAsync(250);
      fanOut.begin()();
    }
    expect(waitedUntil! - spellStart).toBe(MAX_YIELD_MS);
  });
});
