import { describe, expect, it } from 'vitest';
import { canWin, contentionBeforeStart, contentionOf, hasClinched, isSettled, maxPossible, NO_BAR, type ContentionCounts } from './contention.js';
import { rankEntries, winningBar, winningBarOfRanked, type PickedPlayer } from './scoring.js';

const alive = (correct_picks: number, picks: number, tiebreak_rank: number | null = correct_picks > 0 ? 10 : null): ContentionCounts => ({
  correct_picks,
  busted: false,
  tiebreak_rank,
  picks,
});
const busted = (picks: number): ContentionCounts => ({ correct_picks: 0, busted: true, tiebreak_rank: null, picks });

describe('maxPossible', () => {
  it('is every pick while alive (hits plus pending), 0 once busted', () => {
    expect(maxPossible(alive(3, 5))).toBe(5);
    expect(maxPossible(alive(0, 4))).toBe(4);
    expect(maxPossible(busted(7))).toBe(0);
  });
});

describe('winningBar', () => {
  it('is the best settled entry: score, then tie-break', () => {
    const rows = [alive(5, 8), alive(3, 3, 40), alive(3, 3, 55), alive(2, 2, 90), busted(9)];
    expect(winningBar(rows)).toEqual({ score: 3, tiebreakRank: 55 });
    expect(isSettled(alive(3, 3))).toBe(true);
    expect(isSettled(alive(3, 4))).toBe(false);
    expect(isSettled(busted(3))).toBe(false);
  });

  it('is no bar while every alive entry has picks pending (a leader can still bust to 0)', () => {
    expect(winningBar([alive(9, 10), alive(1, 2), busted(3)])).toEqual(NO_BAR);
    expect(winningBar([])).toEqual(NO_BAR);
  });

  it('from ranked rows is the first settled one, the same bar', () => {
    const ranked = [alive(5, 8, 30), alive(3, 3, 55), alive(3, 3, 40), alive(2, 2, 90), busted(9)];
    expect(winningBarOfRanked(ranked)).toEqual(winningBar(ranked));
    expect(winningBarOfRanked([alive(1, 2)])).toEqual(NO_BAR);
  });
});

describe('canWin', () => {
  const bar = { score: 3, tiebreakRank: 55 };

  it('a busted entry never can', () => {
    expect(canWin(busted(10), bar)).toBe(false);
    expect(canWin(busted(10), NO_BAR)).toBe(false);
  });

  it('an entry whose best case passes the bar can, one below it is eliminated', () => {
    expect(canWin(alive(0, 4), bar)).toBe(true);
    expect(canWin(alive(1, 2), bar)).toBe(false);
    expect(canWin(alive(2, 2, 99), bar)).toBe(false);
  });

  it('reaching the bar exactly with picks pending can: its final tie-break is still open', () => {
    expect(canWin(alive(2, 3, 1), bar)).toBe(true);
    expect(canWin(alive(0, 3, null), bar)).toBe(true);
  });

  it('settled at the bar: a tie-break at least the bar’s (equal shares first), a smaller one is beaten for good', () => {
    expect(canWin(alive(3, 3, 55), bar)).toBe(true);
    expect(canWin(alive(3, 3, 70), bar)).toBe(true);
    expect(canWin(alive(3, 3, 40), bar)).toBe(false);
  });

  it('without a bar every alive entry can', () => {
    expect(canWin(alive(0, 1), NO_BAR)).toBe(true);
    expect(canWin(alive(12, 13), NO_BAR)).toBe(true);
  });

  it('before the start every entry is fresh', () => {
    expect(contentionBeforeStart(6)).toEqual({ max_possible: 6, can_win: true });
    expect(contentionOf(alive(0, 6), NO_BAR)).toEqual(contentionBeforeStart(6));
  });
});

describe('rankEntries carries who can still win', () => {
  const hit = (rank: number): PickedPlayer => ({ rank, draftRound: 1 });
  const pending = (rank: number): PickedPlayer => ({ rank, draftRound: null });
  const later = (rank: number): PickedPlayer => ({ rank, draftRound: 2 });
  const d = { roundOnePicks: 32, filledSlots: 12, roundOneCompleteMarked: false };

  it('against the best settled entry, not the current leader', () => {
    const rows = rankEntries(
      [
        { participantId: 'leader', participantName: 'leader', picks: [hit(1), hit(2), hit(3), hit(4), pending(50)] }, // 4 hits, 1 pending
        { participantId: 'settled', participantName: 'settled', picks: [hit(5), hit(60)] }, // bar: 2, tb 60
        { participantId: 'bolder', participantName: 'bolder', picks: [hit(6), hit(61)] }, // settled, tb 61: the bar
        { participantId: 'tie', participantName: 'tie', picks: [hit(7), pending(70)] }, // best case 2, tie-break open
        { participantId: 'short', participantName: 'short', picks: [pending(8)] }, // best case 1 < 2
        { participantId: 'bust', participantName: 'bust', picks: [hit(9), hit(10), later(11)] },
      ],
      d,
    );
    const by = new Map(rows.map((r) => [r.participant_id, [r.max_possible, r.can_win]]));
    expect(Object.fromEntries(by)).toEqual({
      leader: [5, true],
      bolder: [2, true],
      settled: [2, false],
      tie: [2, true],
      short: [1, false],
      bust: [0, false],
    });
  });
});

describe('hasClinched', () => {
  const row = (correct_picks: number, picks: number, busted = false, can_win = true) => ({ correct_picks, picks, busted, tiebreak_rank: correct_picks ? 10 : null, can_win });
  it('a settled leader that nobody else can reach has clinched; one with picks pending can still bust', () => {
    expect(hasClinched(row(3, 3), 1, null)).toBe(true);
    expect(hasClinched(row(3, 3), 2, [row(1, 1, false, false)])).toBe(true);
    expect(hasClinched(row(3, 3), 2, [row(1, 4, false, true)])).toBe(false);
    expect(hasClinched(row(3, 3), 2, null)).toBe(false);
    expect(hasClinched(row(2, 3), 1, null)).toBe(false);
    expect(hasClinched(row(0, 0, true, false), 0, null)).toBe(false);
  });
});
