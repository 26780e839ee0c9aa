import { describe, expect, it } from 'vitest';
import { benchmarkRows, versusBenchmark } from './benchmark-entries.js';
import type { DraftSnapshot, PickedPlayer } from './scoring.js';

/** A 40-player board; `drafted` lists the ranks taken in round one, `later` those taken after it. */
function board(drafted: number[], later: number[] = []): PickedPlayer[] {
  return Array.from({ length: 40 }, (_, i) => {
    const rank = 40 - i; // any order in, ranks decide
    return { rank, draftRound: drafted.includes(rank) ? 1 : later.includes(rank) ? 2 : null };
  });
}
const live = (filled: number): DraftSnapshot => ({ roundOnePicks: 32, filledSlots: filled, roundOneCompleteMarked: false });

describe('benchmark entries', () => {
  it('before any pick: everything pending, nobody busted', () => {
    expect(benchmarkRows(board([]), live(0))).toEqual([
      { key: 'board_top_32', name: 'Big board top 32', picks: 32, correct_picks: 0, pending: 32, busted: false, tiebreak_rank: null, max_possible: 32 },
      { key: 'chalk_20', name: 'Chalk 20', picks: 20, correct_picks: 0, pending: 20, busted: false, tiebreak_rank: null, max_possible: 20 },
      { key: 'top_10', name: 'Top 10 only', picks: 10, correct_picks: 0, pending: 10, busted: false, tiebreak_rank: null, max_possible: 10 },
    ]);
  });

  it('counts hits by board rank and busts the board top 32 once more picks are pending than slots remain', () => {
    // Ranks 1–8 and 25 taken, plus a reach (#38) that takes a slot from the board's top 32.
    const rows = benchmarkRows(board([1, 2, 3, 4, 5, 6, 7, 8, 25, 38]), live(10));
    const [top32, chalk20, top10] = rows;
    // 9 hits of 32; 23 pending but only 22 slots left: it can no longer be perfect, so it is out.
    expect(top32).toMatchObject({ correct_picks: 0, busted: true, pending: 0, max_possible: 0, tiebreak_rank: null });
    expect(chalk20).toMatchObject({ correct_picks: 8, busted: false, pending: 12, max_possible: 20, tiebreak_rank: 8 });
    expect(top10).toMatchObject({ correct_picks: 8, busted: false, pending: 2, max_possible: 10, tiebreak_rank: 8 });
  });

  it('a top-10 player taken in round two busts every benchmark', () => {
    const rows = benchmarkRows(board([1, 2, 3], [9]), live(3));
    expect(rows.map((r) => [r.key, r.busted, r.correct_picks])).toEqual([
      ['board_top_32', true, 0],
      ['chalk_20', true, 0],
      ['top_10', true, 0],
    ]);
  });

  it('round one complete: an undrafted pick is a miss', () => {
    const all10 = Array.from({ length: 10 }, (_, i) => i + 1);
    const rows = benchmarkRows(board([...all10, 12, 15]), { roundOnePicks: 32, filledSlots: 12, roundOneCompleteMarked: true });
    expect(rows.find((r) => r.key === 'top_10')).toMatchObject({ correct_picks: 10, busted: false, pending: 0, max_possible: 10, tiebreak_rank: 10 });
    expect(rows.find((r) => r.key === 'chalk_20')).toMatchObject({ busted: true, correct_picks: 0 });
  });
});

describe('versusBenchmark', () => {
  it('compares score first, then the bolder tie-break, as the standings do', () => {
    expect(versusBenchmark({ correct_picks: 5, tiebreak_rank: 3 }, { correct_picks: 4, tiebreak_rank: 30 })).toBe('ahead');
    expect(versusBenchmark({ correct_picks: 4, tiebreak_rank: 12 }, { correct_picks: 4, tiebreak_rank: 9 })).toBe('ahead');
    expect(versusBenchmark({ correct_picks: 4, tiebreak_rank: 9 }, { correct_picks: 4, tiebreak_rank: 9 })).toBe('level');
    expect(versusBenchmark({ correct_picks: 0, tiebreak_rank: null }, { correct_picks: 0, tiebreak_rank: null })).toBe('level');
    expect(versusBenchmark({ correct_picks: 0, tiebreak_rank: null }, { correct_picks: 2, tiebreak_rank: 2 })).toBe('behind');
  });
});
