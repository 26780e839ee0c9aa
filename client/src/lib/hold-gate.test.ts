import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catchUp, gateState, holdChangesFrom, whenReleased } from './hold-gate';
import { delayedText, getViewingDelay, parseViewingDelay, setViewingDelay } from './viewing-delay';

/** Whether the promise has settled after the microtasks pending now. */
async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('the read gate: answers of draft reads wait while picks are held', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse('2026-04-23T20:00:00Z'));
  });
  afterEach(() => {
    holdChangesFrom(0);
    setViewingDelay(0);
    vi.useRealTimers();
  });

  it('passes an answer at once while nothing is held, and while live even if something were', async () => {
    setViewingDelay(5);
    expect(await settled(whenReleased())).toBe(true);
    setViewingDelay(0);
    holdChangesFrom(Date.now());
    expect(await settled(whenReleased())).toBe(true);
  });

  it('holds an answer that arrives during a hold until every change held then is released, and a little after', async () => {
    setViewingDelay(5);
    holdChangesFrom(Date.now());
    const answer = whenReleased();
    // A later pick, held longer, does not hold an answer that could not include it.
    vi.advanceTimersByTime(2000);
    holdChangesFrom(Date.now());
    vi.advanceTimersByTime(3000);
    expect(await settled(answer)).toBe(false);
    vi.advanceTimersByTime(100);
    expect(await settled(answer)).toBe(true);
    expect(gateState().until).toBe(Date.now() + 1900);
  });

  it('a longer delay chosen mid-hold holds the waiting answers longer too; a shorter one lets them go', async () => {
    setViewingDelay(5);
    holdChangesFrom(Date.now());
    const answer = whenReleased();
    setViewingDelay(45);
    vi.advanceTimersByTime(10_000);
    expect(await settled(answer)).toBe(false);
    setViewingDelay(10);
    vi.advanceTimersByTime(100);
    expect(await settled(answer)).toBe(true);
  });

  it('"Catch up" lets every waiting answer through at once', async () => {
    setViewingDelay(45);
    holdChangesFrom(Date.now());
    const answer = whenReleased();
    catchUp();
    expect(await settled(answer)).toBe(true);
    expect(gateState().until).toBe(0);
  });
});

describe('the viewing delay: what this device watches on', () => {
  afterEach(() => setViewingDelay(0));

  it('reads stored and typed values as whole seconds, anything unreadable as live', () => {
    expect(parseViewingDelay('45')).toBe(45);
    expect(parseViewingDelay(' 7.6 ')).toBe(8);
    expect(parseViewingDelay('-3')).toBe(0);
    expect(parseViewingDelay('soon')).toBe(0);
    expect(parseViewingDelay(null)).toBe(0);
    expect(parseViewingDelay(100_000)).toBe(600);
  });

  it('says the delay in the badge in seconds, then minutes', () => {
    expect(delayedText(45)).toBe('Delayed 45 s');
    expect(delayedText(120)).toBe('Delayed 2 min');
    expect(delayedText(125)).toBe('Delayed 2 min 5 s');
  });

  it('tells subscribers when it changes', async () => {
    const { subscribeViewingDelay } = await import('./viewing-delay');
    const seen: number[] = [];
    const stop = subscribeViewingDelay(() => seen.push(getViewingDelay()));
    setViewingDelay(10);
    setViewingDelay(10);
    setViewingDelay(45);
    stop();
    expect(seen).toEqual([10, 45]);
  });
});
