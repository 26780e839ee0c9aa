import { describe, expect, it } from 'vitest';
import {
  compareCodePoints,
  countPicks,
  isRoundOneComplete,
  pickOutcome,
  rankEntries,
  remainingSlots,
  scoreCounts,
  scoreEntry,
  type DraftSnapshot,
  type Entry,
  type PickedPlayer,
} from './scoring.js';

const snap = (filledSlots: number, roundOneCompleteMarked = false, roundOnePicks = 32): DraftSnapshot => ({
  roundOnePicks,
  filledSlots,
  roundOneCompleteMarked,
});

const hit = (rank: number): PickedPlayer => ({ rank, draftRound: 1 });
const later = (rank: number, round = 2): PickedPlayer => ({ rank, draftRound: round });
const undrafted = (rank: number): PickedPlayer => ({ rank, draftRound: null });

describe('round one state', () => {
  it('is complete when all slots are filled', () => {
    expect(isRoundOneComplete(snap(31))).toBe(false);
    expect(isRoundOneComplete(snap(32))).toBe(true);
    expect(remainingSlots(snap(31))).toBe(1);
    expect(remainingSlots(snap(32))).toBe(0);
  });

  it('is complete when marked, even with open slots', () => {
    expect(isRoundOneComplete(snap(20, true))).toBe(true);
    expect(remainingSlots(snap(20, true))).toBe(0);
  });

  it('never reports negative remaining slots', () => {
    expect(remainingSlots(snap(40))).toBe(0);
    expect(remainingSlots(snap(0))).toBe(32);
    expect(remainingSlots(snap(3, false, 5))).toBe(2);
  });
});

describe('pickOutcome', () => {
  it('round one is a hit', () => {
    expect(pickOutcome(hit(10), snap(5))).toBe('hit');
    expect(pickOutcome(hit(10), snap(32))).toBe('hit');
  });

  it('later round is a miss', () => {
    expect(pickOutcome(later(10, 2), snap(5))).toBe('miss');
    expect(pickOutcome(later(10, 7), snap(0))).toBe('miss');
  });

  it('undrafted is pending until round one is complete, then a miss', () => {
    expect(pickOutcome(undrafted(10), snap(31))).toBe('pending');
    expect(pickOutcome(undrafted(10), snap(32))).toBe('miss');
    expect(pickOutcome(undrafted(10), snap(12, true))).toBe('miss');
  });
});

describe('scoreEntry', () => {
  it('counts hits and takes the largest hit rank as tie-break', () => {
    const s = scoreEntry([hit(3), hit(40), hit(12), undrafted(7)], snap(10));
    expect(s).toEqual({ hits: 3, misses: 0, pending: 1, busted: false, correctPicks: 3, tiebreakRank: 40 });
  });

  it('no hits gives a null tie-break', () => {
    const s = scoreEntry([undrafted(1), undrafted(2)], snap(0));
    expect(s).toEqual({ hits: 0, misses: 0, pending: 2, busted: false, correctPicks: 0, tiebreakRank: null });
  });

  it('any miss busts the entry: score 0 and tie-break null', () => {
    const s = scoreEntry([hit(3), hit(50), later(9)], snap(10));
    expect(s).toEqual({ hits: 2, misses: 1, pending: 0, busted: true, correctPicks: 0, tiebreakRank: null });
  });

  it('early bust boundary: pending == remaining is alive, remaining + 1 is busted', () => {
    const d = snap(29); // 3 slots remain
    const alive = scoreEntry([hit(5), undrafted(1), undrafted(2), undrafted(3)], d);
    expect(alive.pending).toBe(3);
    expect(alive.busted).toBe(false);
    expect(alive.correctPicks).toBe(1);
    expect(alive.tiebreakRank).toBe(5);

    const busted = scoreEntry([hit(5), undrafted(1), undrafted(2), undrafted(3), undrafted(4)], d);
    expect(busted.pending).toBe(4);
    expect(busted.busted).toBe(true);
    expect(busted.correctPicks).toBe(0);
    expect(busted.tiebreakRank).toBeNull();
  });

  it('before the draft a full 32-pick entry is alive and 33 pending would bust', () => {
    const picks = Array.from({ length: 32 }, (_, i) => undrafted(i + 1));
    expect(scoreEntry(picks, snap(0)).busted).toBe(false);
    expect(scoreEntry([...picks, undrafted(99)], snap(0)).busted).toBe(true);
  });

  it('round complete by filling turns pending picks into misses', () => {
    const s = scoreEntry([hit(1), undrafted(2)], snap(32));
    expect(s).toMatchObject({ hits: 1, misses: 1, pending: 0, busted: true, correctPicks: 0 });
    expect(scoreEntry([hit(1), hit(2)], snap(32))).toMatchObject({ busted: false, correctPicks: 2, tiebreakRank: 2 });
  });

  it('round complete by marking turns pending picks into misses', () => {
    const s = scoreEntry([hit(1), undrafted(2)], snap(12, true));
    expect(s).toMatchObject({ hits: 1, misses: 1, pending: 0, busted: true, correctPicks: 0, tiebreakRank: null });
    expect(scoreEntry([hit(1), hit(8)], snap(12, true))).toMatchObject({ busted: false, correctPicks: 2, tiebreakRank: 8 });
  });
});

describe('rankEntries', () => {
  const entry = (participantId: string, picks: PickedPlayer[], participantName = participantId): Entry => ({
    participantId,
    participantName,
    picks,
  });

  it('orders by score, then by larger tie-break, with shared competition ranks', () => {
    const d = snap(10);
    const rows = rankEntries(
      [
        entry('d', [hit(2), hit(9)]), // 2 hits, tb 9
        entry('a', [hit(1), hit(30), undrafted(4)]), // 2 hits, tb 30
        entry('c', [hit(3), hit(9)]), // 2 hits, tb 9 (ties with d)
        entry('b', [hit(7)]), // 1 hit, tb 7
        entry('e', [undrafted(5)]), // 0, tb null
        entry('f', [hit(100), later(6)]), // busted: 0, null
      ],
      d,
    );
    expect(rows).toEqual([
      { rank: 1, participant_id: 'a', participant_name: 'a', correct_picks: 2, busted: false, tiebreak_rank: 30, picks: 3, hits: 2, misses: 0, max_possible: 3, can_win: true },
      { rank: 2, participant_id: 'c', participant_name: 'c', correct_picks: 2, busted: false, tiebreak_rank: 9, picks: 2, hits: 2, misses: 0, max_possible: 2, can_win: true },
      { rank: 2, participant_id: 'd', participant_name: 'd', correct_picks: 2, busted: false, tiebreak_rank: 9, picks: 2, hits: 2, misses: 0, max_possible: 2, can_win: true },
      { rank: 4, participant_id: 'b', participant_name: 'b', correct_picks: 1, busted: false, tiebreak_rank: 7, picks: 1, hits: 1, misses: 0, max_possible: 1, can_win: false },
      { rank: 5, participant_id: 'e', participant_name: 'e', correct_picks: 0, busted: false, tiebreak_rank: null, picks: 1, hits: 0, misses: 0, max_possible: 1, can_win: false },
      { rank: 5, participant_id: 'f', participant_name: 'f', correct_picks: 0, busted: true, tiebreak_rank: null, picks: 2, hits: 1, misses: 1, max_possible: 0, can_win: false },
    ]);
  });

  it('a busted entry with hits ranks with the zero scores and has a null tie-break', () => {
    const rows = rankEntries(
      [entry('x', [hit(150), hit(140), later(3)]), entry('y', [undrafted(1)])],
      snap(5),
    );
    expect(rows.map((r) => [r.participant_id, r.rank, r.correct_picks, r.busted, r.tiebreak_rank])).toEqual([
      ['x', 1, 0, true, null],
      ['y', 1, 0, false, null],
    ]);
  });

  it('a busted entry keeps the hits it had and its misses (its score is 0): every screen says "had 2 hits"', () => {
    const rows = rankEntries([entry('miss', [hit(150), hit(140), later(3), undrafted(4)]), entry('slots', [hit(9), undrafted(1), undrafted(2), undrafted(3)])], snap(30));
    expect(rows.map((r) => [r.participant_id, r.correct_picks, r.busted, r.hits, r.misses, r.picks])).toEqual([
      ['miss', 0, true, 2, 1, 4],
      ['slots', 0, true, 1, 0, 4],
    ]);
    // Once round one is complete, an undrafted pick is a miss.
    expect(rankEntries([entry('done', [hit(9), undrafted(1), undrafted(2)])], snap(30, true)).map((r) => [r.hits, r.misses])).toEqual([[1, 2]]);
  });

  it('excludes entries without picks', () => {
    const rows = rankEntries([entry('a', []), entry('b', [hit(1)]), entry('c', [])], snap(1));
    expect(rows.map((r) => r.participant_id)).toEqual(['b']);
    expect(rankEntries([entry('a', [])], snap(0))).toEqual([]);
  });

  it('breaks shared ranks by participant id in code-unit ("C" collation) order', () => {
    const rows = rankEntries(
      [entry('b', [hit(1)]), entry('B', [hit(1)]), entry('a', [hit(1)]), entry('_', [hit(1)]), entry('A', [hit(1)])],
      snap(3),
    );
    expect(rows.map((r) => r.participant_id)).toEqual(['A', 'B', '_', 'a', 'b']);
    expect(rows.every((r) => r.rank === 1)).toBe(true);
  });

  it('keeps the participant name as given', () => {
    const rows = rankEntries([entry('user_1', [hit(1)], 'Alice')], snap(1));
    expect(rows[0]?.participant_name).toBe('Alice');
  });
});

describe('compareCodePoints', () => {
  it('matches code point (UTF-8 byte) order', () => {
    expect(compareCodePoints('a', 'b')).toBe(-1);
    expect(compareCodePoints('ab', 'a')).toBe(1);
    expect(compareCodePoints('abc', 'abc')).toBe(0);
    // U+FF21 (BMP) sorts before U+1F600 (astral), unlike raw UTF-16 code units.
    expect(compareCodePoints('\uFF21', '\u{1F600}')).toBe(-1);
    expect(compareCodePoints('\u{1F600}', '\uFF21')).toBe(1);
  });
});

describe('scoreCounts', () => {
  it('scoreEntry is scoreCounts of countPicks', () => {
    const picks = [hit(3), hit(40), later(9), undrafted(7)];
    expect(countPicks(picks)).toEqual({ picks: 4, hits: 2, laterRound: 1, maxHitRank: 40 });
    expect(scoreEntry(picks, snap(10))).toEqual(scoreCounts(countPicks(picks), snap(10)));
  });
});
