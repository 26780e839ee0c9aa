import { describe, expect, it } from 'vitest';
import { pastSeasons, winnerLine } from './season-words';

const ann = { participant_id: 'user_a', participant_name: 'AliceDrafts' };
const bob = { participant_id: 'user_b', participant_name: 'Bob' };
const cat = { participant_id: 'user_c', participant_name: 'Cat' };

describe('winnerLine', () => {
  it('names the winner and the score, ties and all', () => {
    expect(winnerLine({ year: 2025, winners: [ann], winning_score: 9 })).toBe('2025 winner: AliceDrafts, 9 hits');
    expect(winnerLine({ year: 2025, winners: [ann], winning_score: 1 })).toBe('2025 winner: AliceDrafts, 1 hit');
    expect(winnerLine({ year: 2026, winners: [ann, bob, cat], winning_score: 4 })).toBe('2026 winners: AliceDrafts, Bob and Cat, 4 hits');
    expect(winnerLine({ year: 2026, winners: [], winning_score: null })).toBeNull();
  });

  it('keeps closed seasons that have standings where asked', () => {
    const season = { deadline: null, opened_at: '', winners: [], winning_score: null, my_rank: null };
    const list = [
      { ...season, year: 2027, current: true, closed_at: null, entries: null },
      { ...season, year: 2026, current: false, closed_at: 'x', entries: null },
      { ...season, year: 2025, current: false, closed_at: 'x', entries: 0 },
    ];
    expect(pastSeasons(list).map((s) => s.year)).toEqual([2025]);
  });
});
