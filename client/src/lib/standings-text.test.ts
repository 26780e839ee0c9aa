import { describe, expect, it } from 'vitest';
import { contentionShown, contentionText, ordinal, pendingOf, plural, tiebreakText } from './standings-text';

describe('standings text', () => {
  it('ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112, 302].map(ordinal)).toEqual([
      '1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th', '112th', '302nd',
    ]);
  });

  it('plurals', () => {
    expect([plural(1, 'pick'), plural(0, 'pick'), plural(2, 'match', 'matches')]).toEqual(['1 pick', '0 picks', '2 matches']);
  });

  it('the tie-break in words', () => {
    expect(tiebreakText(35)).toBe('Tie-break: boldest hit, #35 on the board');
  });

  it('who can still win: alive entries during the draft only', () => {
    expect(contentionText({ busted: false, can_win: true })).toBe('Can still win');
    expect(contentionText({ busted: false, can_win: false })).toBe("Can't finish 1st");
    expect(contentionText({ busted: true, can_win: false })).toBeNull();
    expect(contentionShown({ draftHasStarted: true, round_one_complete: false })).toBe(true);
    expect(contentionShown({ draftHasStarted: false, round_one_complete: false })).toBe(false);
    expect(contentionShown({ draftHasStarted: true, round_one_complete: true })).toBe(false);
    expect(contentionShown(undefined)).toBe(false);
  });

  it('pending picks: alive entries only', () => {
    expect(pendingOf({ busted: false, picks: 10, correct_picks: 9 })).toBe(1);
    expect(pendingOf({ busted: true, picks: 10, correct_picks: 0 })).toBeNull();
  });
});
