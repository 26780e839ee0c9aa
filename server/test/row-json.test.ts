import { describe, expect, it } from 'vitest';
import { leaderboardRowOutput, type LeaderboardRow } from '@first-round/shared/schemas';
import { leaderboardRowJson } from '../src/modules/leaderboard/leaderboard.service.js';

/** A row as a ranking makes it, with its keys in the ranking's order (not the schema's) and names of every kind. */
function randomRow(i: number): LeaderboardRow {
  const names = ['Sam', 'O\'Brien "the Hawk"', 'Zoë ✓ 🏈', 'back\\slash', 'tab\there', 'line\nbreak', '\u2028sep', ''];
  const picks = 1 + (i % 32);
  const busted = i % 3 === 0;
  return {
    participant_name: names[i % names.length]!,
    participant_id: `user_${i.toString(36)}`,
    rank: 1 + i,
    correct_picks: i % (picks + 1),
    busted,
    tiebreak_rank: i % 4 === 0 ? null : 1 + (i % 90),
    picks,
    hits: i % (picks + 1),
    misses: busted ? i % 2 : 0,
    max_possible: busted ? 0 : picks,
    can_win: !busted && i % 2 === 0,
    ...(i % 3 === 0 ? {} : { odds: { survive: (i % 101) / 100, win: (i % 7) / 7, text: `${i % 101} % to survive · ${names[i % names.length]!}` } }),
  };
}

describe("a standings row written as JSON for the live stream's own part", () => {
  it('is byte for byte what the schema gives, for every kind of name and count', () => {
    for (let i = 0; i < 500; i++) {
      const row = randomRow(i);
      expect(leaderboardRowJson(row)).toBe(JSON.stringify(leaderboardRowOutput.parse(row)));
    }
  });

  it('refuses a count that is not a finite number instead of writing invalid JSON', () => {
    expect(() => leaderboardRowJson({ ...randomRow(1), rank: Number.NaN })).toThrow('a standings row holds NaN where a number belongs');
    expect(() => leaderboardRowJson({ ...randomRow(2), tiebreak_rank: Number.POSITIVE_INFINITY })).toThrow('Infinity');
  });
});
