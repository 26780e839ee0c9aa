import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageClockSkew } from './hold-back';
import { catchUp, connectCache, gateState, holdChangesFrom, loadBefore, pageLoaded, sawDraftStatus, whenReleased } from './hold-gate';
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

describe('a page loaded with a viewing delay: its draft answers wait only for what changed within the delay', () => {
  const NOW = Date.parse('2026-04-23T20:00:00Z');
  /** A draft status whose last change was `agoMs` before the load (null: none recorded). */
  const status = (agoMs: number | null) => ({ draftHasStarted: true, last_change_at: agoMs === null ? null : new Date(NOW - agoMs).toISOString() });
  /** Where the gate places that change on this device's clock (another file's answers may have sampled the skew). */
  const changeAt = (agoMs: number) => Math.min(NOW, pageClockSkew.toDevice(NOW - agoMs));

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
    setViewingDelay(45);
    pageLoaded();
  });
  afterEach(() => {
    catchUp();
    holdChangesFrom(0);
    setViewingDelay(0);
    vi.useRealTimers();
  });

  it('holds answers until a draft status says when the draft last changed; none when that is longer ago than the delay', async () => {
    const early = whenReleased();
    expect(await settled(early)).toBe(false);
    // Not known yet to hold a change: the badge says nothing of catching up.
    expect(gateState()).toEqual({ until: NOW + 45_000, catchingUp: false });
    sawDraftStatus(status(120_000));
    expect(await settled(early)).toBe(true);
    expect(await settled(whenReleased())).toBe(true);
    expect(gateState()).toEqual({ until: 0, catchingUp: false });
  });

  it('a change 10 s ago holds every answer, those that came before the status too, for the 35 s left, and says so', async () => {
    const early = whenReleased();
    sawDraftStatus(status(10_000));
    const late = whenReleased();
    expect(gateState()).toEqual({ until: changeAt(10_000) + 45_000, catchingUp: true });
    vi.advanceTimersByTime(changeAt(10_000) + 45_000 - NOW - 1);
    expect(await settled(early)).toBe(false);
    expect(await settled(late)).toBe(false);
    vi.advanceTimersByTime(200);
    expect(await settled(early)).toBe(true);
    expect(await settled(late)).toBe(true);
    expect(gateState()).toEqual({ until: 0, catchingUp: false });
  });

  it('a later status naming a newer change holds longer; one naming an older change never shortens the hold', async () => {
    sawDraftStatus(status(10_000));
    sawDraftStatus(status(40_000));
    expect(gateState().until).toBe(changeAt(10_000) + 45_000);
    sawDraftStatus(status(2_000));
    expect(gateState().until).toBe(changeAt(2_000) + 45_000);
  });

  it('a load that holds a change wants the draft as it was one delay before the load (server time); one that holds none wants nothing', async () => {
    const moment = loadBefore();
    sawDraftStatus(status(10_000));
    expect(Date.parse((await moment)!)).toBe(NOW - 45_000 - pageClockSkew.toDevice(0));
    pageLoaded();
    const none = loadBefore();
    sawDraftStatus(status(120_000));
    expect(await none).toBeNull();
    pageLoaded();
    sawDraftStatus({ draftHasStarted: false, last_change_at: null });
    expect(await loadBefore()).toBeNull();
  });

  it('no answer as of the load shown: nothing is read again when its hold ends', async () => {
    let told = 0;
    connectCache({ kept: () => false, readAgain: () => (told += 1) });
    sawDraftStatus(status(10_000));
    vi.advanceTimersByTime(45_000);
    await Promise.resolve();
    expect(gateState().catchingUp).toBe(false);
    expect(told).toBe(0);
  });

  it('holds nothing before the start, or with no change recorded', async () => {
    sawDraftStatus({ draftHasStarted: false, last_change_at: null });
    expect(await settled(whenReleased())).toBe(true);
    pageLoaded();
    sawDraftStatus(status(null));
    expect(await settled(whenReleased())).toBe(true);
  });

  it('never holds longer than one delay after the load (a change "in the future": a device clock behind)', () => {
    sawDraftStatus({ draftHasStarted: true, last_change_at: new Date(NOW + 600_000).toISOString() });
    expect(gateState()).toEqual({ until: NOW + 45_000, catchingUp: true });
  });

  it('a change the stream holds during the load holds the answers that come after it past the load\'s hold', async () => {
    sawDraftStatus(status(40_000));
    vi.advanceTimersByTime(1000);
    holdChangesFrom(Date.now());
    const answer = whenReleased();
    vi.advanceTimersByTime(10_000);
    expect(await settled(answer)).toBe(false);
    vi.advanceTimersByTime(35_100);
    expect(await settled(answer)).toBe(true);
  });

  it('"Catch up" ends the load\'s hold at once', async () => {
    sawDraftStatus(status(10_000));
    const answer = whenReleased();
    catchUp();
    expect(await settled(answer)).toBe(true);
    expect(gateState()).toEqual({ until: 0, catchingUp: false });
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
