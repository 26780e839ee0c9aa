import { describe, expect, it } from 'vitest';
import { bustedLine, entryState, entryStateText, fieldSummary, finalLine, firstPlaceShared, placeText, rowBustReason } from './entry-words';

describe('an entry in words', () => {
  it('while round one runs: Alive or Busted', () => {
    expect(entryStateText({ rank: 1, busted: false, correct_picks: 3 }, false)).toBe('Alive');
    expect(entryStateText({ rank: 4, busted: true, correct_picks: 0 }, false)).toBe('Busted');
  });

  it('once final: Winner (shared where tied), Survived with its hits, Busted; never Alive', () => {
    expect(entryStateText({ rank: 1, busted: false, correct_picks: 9 }, true)).toBe('Winner');
    expect(entryStateText({ rank: 1, busted: false, correct_picks: 9 }, true, true)).toBe('Shared winner');
    expect(entryStateText({ rank: 2, busted: false, correct_picks: 7 }, true)).toBe('Survived · 7 hits');
    expect(entryStateText({ rank: 2, busted: false, correct_picks: 1 }, true)).toBe('Survived · 1 hit');
    expect(entryStateText({ rank: 3, busted: true, correct_picks: 0 }, true)).toBe('Busted');
    expect(entryState({ rank: 1, busted: true }, true)).toBe('busted');
  });

  it('places and summaries', () => {
    expect(placeText(1, 3, true)).toBe('FINAL · 1st of 3');
    expect(placeText(2, 12, false)).toBe('2nd of 12');
    expect(fieldSummary(12, 5, false)).toBe('12 entries · 5 still alive');
    expect(fieldSummary(12, 5, true)).toBe('12 entries · 5 survived round one');
    expect(fieldSummary(1, 1, true, ['participant', 'participants'])).toBe('1 participant · 1 survived round one');
    expect(firstPlaceShared([{ rank: 1, busted: false }, { rank: 1, busted: false }, { rank: 3, busted: false }])).toBe(true);
    expect(firstPlaceShared([{ rank: 1, busted: false }, { rank: 2, busted: false }])).toBe(false);
  });
});

describe('a busted entry in words, one number everywhere', () => {
  it('says the hits it had and why: a miss, or more picks pending than slots left', () => {
    expect(bustedLine({ picks: 10, hits: 9, misses: 1 }, 20)).toBe('had 9 hits · 1 pick was not drafted in round one');
    expect(rowBustReason({ picks: 10, hits: 1, misses: 3 }, 20)).toBe('3 picks were not drafted in round one');
    expect(bustedLine({ picks: 30, hits: 6, misses: 0 }, 23)).toBe('had 6 hits · 24 picks still pending, only 23 slots left in round one');
  });

  it("the final line My Picks shows and the final push says", () => {
    expect(finalLine({ busted: false, hits: 9, picks: 10, rank: 2, entries: 12 })).toBe('Final: 9 of 10 hit · 2nd of 12');
    expect(finalLine({ busted: false, hits: 10, picks: 10, rank: 1, entries: 302 })).toBe('Final: 10 of 10 hit · 1st of 302 · Winner');
    expect(finalLine({ busted: true, hits: 3, picks: 10, rank: 5, entries: 12 })).toBe('Final · busted · had 3 hits · 5th of 12');
  });
});
