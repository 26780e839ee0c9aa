import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/*
 * A page loaded with a viewing delay: its first answers wait only for what changed within the delay. The
 * gate keeps the moment the page loaded, so each test loads the module afresh with the delay already set.
 */

const NOW = Date.parse('2026-04-23T20:00:00Z');
const status = (lastChangeAgoMs: number | null) => ({
  draftHasStarted: true,
  last_change_at: lastChangeAgoMs === null ? null : new Date(NOW - lastChangeAgoMs).toISOString(),
});

/** Whether the promise has settled after the microtasks pending now. */
async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 4; i++) await Promise.resolve();
  return done;
}

async function loadPage(delaySeconds: number) {
  vi.resetModules();
  (await import('./viewing-delay')).setViewingDelay(delaySeconds);
  return import('./hold-gate');
}

describe('the first load with a viewing delay', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(async () => {
    (await import('./viewing-delay')).setViewingDelay(0);
    vi.useRealTimers();
  });
  // The unit files share their modules (not isolated): the next file gets the gate as a page without a delay.
  afterAll(() => {
    vi.resetModules();
  });

  it('shows the standings at once when the draft last changed longer ago than the delay', async () => {
    const gate = await loadPage(45);
    expect(gate.gateState().catchingUp).toBe(true);
    gate.sawDraftStatus(status(120_000));
    expect(await settled(gate.whenReleased())).toBe(true);
    expect(gate.gateState()).toEqual({ until: 0, catchingUp: false });
  });

  it('holds only what changed within the delay: a pick 10 s ago waits the 35 s left, not the whole 45 s', async () => {
    const gate = await loadPage(45);
    gate.sawDraftStatus(status(10_000));
    const answer = gate.whenReleased();
    vi.advanceTimersByTime(34_000);
    expect(await settled(answer)).toBe(false);
    expect(gate.gateState().until).toBe(NOW + 35_000);
    vi.advanceTimersByTime(1_200);
    expect(await settled(answer)).toBe(true);
    expect(gate.gateState().catchingUp).toBe(false);
  });

  it('an answer already waiting for the whole delay is let go by the status that says nothing changed since', async () => {
    const gate = await loadPage(45);
    const answer = gate.whenReleased();
    expect(await settled(answer)).toBe(false);
    gate.sawDraftStatus(status(60_000));
    expect(await settled(answer)).toBe(true);
  });

  it('a draft started with no change recorded yet holds nothing; one before the start neither', async () => {
    const gate = await loadPage(45);
    gate.sawDraftStatus(status(null));
    expect(await settled(gate.whenReleased())).toBe(true);
    const again = await loadPage(45);
    again.sawDraftStatus({ draftHasStarted: false, last_change_at: null });
    expect(await settled(again.whenReleased())).toBe(true);
  });

  it('never holds longer than one delay after the load, whatever the status says (a change "in the future": a clock ahead)', async () => {
    const gate = await loadPage(45);
    gate.sawDraftStatus({ draftHasStarted: true, last_change_at: new Date(NOW + 600_000).toISOString() });
    expect(gate.gateState().until).toBe(NOW + 45_000);
  });
});
