import { describe, expect, it } from 'vitest';
import type { DraftChange, LiveUpdate, StandingsUpdate } from '@first-round/shared/schemas';
import { ClockSkew, HeldChanges } from './hold-back';

/** Server time 0 is 20:00:00 on draft night; the device clock runs `skew` ms ahead of it. */
const T0 = Date.parse('2026-04-23T20:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const pick = (event_id: number, slot: number, s: number): DraftChange => ({
  event_id,
  kind: 'pick',
  slot,
  player: { id: 100 + slot, rank: slot, player_name: `Player ${slot}`, position: 'QB', school: 'State', draft_round: 1, draft_pick: slot, band: 'safe' } as DraftChange['player'],
  at: at(s),
});
const undo = (event_id: number, slot: number, s: number): DraftChange => ({ event_id, kind: 'undo', slot, at: at(s) });
const standings = (event_id: number): StandingsUpdate => ({ kind: 'standings', event_id, leaderboard: { group_id: 0 } as StandingsUpdate['leaderboard'] });
const ids = (messages: LiveUpdate[]) => messages.map((m) => (m.kind === 'standings' ? `s${m.event_id}` : `${m.kind}${m.event_id}`));
/** Device time of server second `s`, on a device 3 s ahead and 80 ms of network away. */
const device = (s: number, skew = 3000) => T0 + s * 1000 + skew;

describe('holding the live stream back by the viewing delay', () => {
  it('with no delay, passes every change and its standings through at once, in order', () => {
    const held = new HeldChanges(0);
    expect(ids(held.receive(pick(1, 1, 0), device(0) + 80))).toEqual(['pick1']);
    expect(ids(held.receive(standings(1), device(0) + 90))).toEqual(['s1']);
    expect(held.size).toBe(0);
    expect(held.newestHeldAt()).toBe(0);
  });

  it('a new connection resuming with a replayed change keeps the skew the page measured before (no extra hold)', () => {
    const skew = new ClockSkew();
    const first = new HeldChanges(5000, skew);
    first.receive(pick(1, 1, 0), device(0) + 80);
    // The live layer remounts (another page); the stream resumes and replays pick 2, recorded 2 s earlier.
    const second = new HeldChanges(5000, skew);
    expect(second.receive(pick(2, 2, 10), device(12))).toEqual([]);
    expect(second.nextRelease()).toBe(device(15) + 80);
    // Measured afresh from the replay alone, it would be held 2 s longer than the delay.
    const fresh = new HeldChanges(5000);
    fresh.receive(pick(2, 2, 10), device(12));
    expect(fresh.nextRelease()).toBe(device(17));
  });

  it('holds a pick and the standings after it for the delay after the pick was recorded, on the server clock', () => {
    const held = new HeldChanges(5000);
    expect(held.receive(pick(1, 1, 0), device(0) + 80)).toEqual([]);
    expect(held.receive(standings(1), device(0) + 95)).toEqual([]);
    // Released 5 s after the pick was recorded (device clock 3 s ahead, the network's 80 ms included): not before.
    expect(held.nextRelease()).toBe(device(5) + 80);
    expect(held.due(device(5) + 79)).toEqual([]);
    expect(ids(held.due(device(5) + 80))).toEqual(['pick1', 's1']);
    expect(held.size).toBe(0);
  });

  it('releases queued picks one by one, each at its own time plus the delay', () => {
    const held = new HeldChanges(45_000);
    held.receive(pick(1, 1, 0), device(0));
    held.receive(standings(1), device(0));
    held.receive(pick(2, 2, 20), device(20));
    held.receive(standings(2), device(20));
    held.receive(pick(3, 3, 30), device(30));
    expect(held.heldPicks()).toBe(3);
    expect(held.newestHeldAt()).toBe(device(30));
    expect(ids(held.due(device(44.9)))).toEqual([]);
    expect(ids(held.due(device(45)))).toEqual(['pick1', 's1']);
    expect(ids(held.due(device(64)))).toEqual([]);
    expect(ids(held.due(device(65)))).toEqual(['pick2', 's2']);
    expect(ids(held.due(device(80)))).toEqual(['pick3']);
  });

  it('measures the clock skew from the events, not the device clock: a device a minute fast still waits the whole delay', () => {
    const held = new HeldChanges(10_000);
    held.receive(pick(1, 1, 0), device(0, 60_000) + 50);
    expect(held.due(device(9.9, 60_000) + 50)).toEqual([]);
    expect(ids(held.due(device(10, 60_000) + 50))).toEqual(['pick1']);
    // A minute slow, too.
    const slow = new HeldChanges(10_000);
    slow.receive(pick(1, 1, 0), device(0, -60_000) + 50);
    expect(slow.due(device(9.9, -60_000) + 50)).toEqual([]);
  });

  it('takes the smallest delay a message showed as the skew: a replayed old change does not move later picks', () => {
    const skew = new ClockSkew();
    skew.sample(T0, T0 + 3000 + 40);
    skew.sample(T0 - 600_000, T0 + 3000 + 100); // replayed after a reconnect, ten minutes old
    expect(skew.toDevice(T0 + 1000)).toBe(T0 + 1000 + 3040);
  });

  it('an undo of a pick still held takes both away: the viewer never sees the pick nor its undo', () => {
    const held = new HeldChanges(10_000);
    held.receive(pick(1, 1, 0), device(0));
    held.receive(standings(1), device(0));
    held.receive(pick(2, 2, 2), device(2));
    held.receive(standings(2), device(2));
    expect(held.receive(undo(3, 2, 4), device(4))).toEqual([]);
    expect(held.heldPicks()).toBe(1);
    expect(ids(held.due(device(100)))).toEqual(['pick1', 's1']);
  });

  it('an undo of a pick already shown is held like any change (the TV shows it taken back too)', () => {
    const held = new HeldChanges(10_000);
    held.receive(pick(1, 1, 0), device(0));
    expect(ids(held.due(device(10)))).toEqual(['pick1']);
    expect(held.receive(undo(2, 1, 11), device(11))).toEqual([]);
    expect(ids(held.due(device(21)))).toEqual(['undo2']);
  });

  it('an undo after another change is not matched with an older held pick it does not take back', () => {
    const held = new HeldChanges(10_000);
    held.receive(pick(1, 3, 0), device(0));
    held.receive(pick(2, 4, 1), device(1));
    held.receive(undo(3, 3, 2), device(2)); // slot 3 is not the newest held pick: not cancelled
    expect(ids(held.due(device(100)))).toEqual(['pick1', 'pick2', 'undo3']);
  });

  it('"Catch up" releases everything held at once, in order', () => {
    const held = new HeldChanges(45_000);
    held.receive(pick(1, 1, 0), device(0));
    held.receive(standings(1), device(0));
    held.receive(pick(2, 2, 5), device(5));
    expect(ids(held.catchUp())).toEqual(['pick1', 's1', 'pick2']);
    expect(held.nextRelease()).toBeNull();
  });

  it('a shorter delay releases what is now due; a longer one holds what is still held longer', () => {
    const held = new HeldChanges(45_000);
    held.receive(pick(1, 1, 0), device(0));
    held.receive(pick(2, 2, 20), device(20));
    expect(ids(held.setDelay(10_000, device(25)))).toEqual(['pick1']);
    expect(held.nextRelease()).toBe(device(30));
    expect(held.setDelay(60_000, device(31))).toEqual([]);
    expect(held.nextRelease()).toBe(device(80));
    expect(ids(held.setDelay(0, device(31)))).toEqual(['pick2']);
  });

  it('standings for a change already shown pass at once when nothing is held, and wait behind anything that is', () => {
    const held = new HeldChanges(10_000);
    expect(ids(held.receive(standings(7), device(0)))).toEqual(['s7']);
    held.receive(pick(8, 1, 1), device(1));
    expect(held.receive(standings(7), device(1))).toEqual([]);
    expect(ids(held.due(device(11)))).toEqual(['pick8', 's7']);
  });
});
