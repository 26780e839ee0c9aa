import { describe, expect, it } from 'vitest';
import { moveDescription, moveLabel, RankMoveTracker, rankDeltas } from './rank-moves';

const row = (participant_id: string, rank: number) => ({ participant_id, rank });

describe('rank arrows', () => {
  it('counts places moved per participant, up as positive, and only rows that moved', () => {
    const before = [row('a', 1), row('b', 2), row('c', 3), row('d', 4), row('e', 5)];
    const after = [row('e', 2), row('a', 1), row('c', 3), row('b', 4), row('d', 5)];
    expect(Object.fromEntries(rankDeltas(before, after))).toEqual({ e: 3, b: -2, d: -1 });
  });

  it('gives no arrow to a row that was not on the previous page, nor for a shared rank that stays', () => {
    expect(rankDeltas([row('a', 1), row('b', 1)], [row('a', 1), row('b', 1), row('z', 3)]).size).toBe(0);
    expect(rankDeltas([], [row('a', 1)]).size).toBe(0);
  });

  it('writes the arrows and says them in words', () => {
    expect(moveLabel(3)).toBe('▲3');
    expect(moveLabel(-2)).toBe('▼2');
    expect(moveLabel(0)).toBe('');
    expect(moveDescription(3)).toBe('Up 3 places since the last pick');
    expect(moveDescription(-1)).toBe('Down 1 place since the last pick');
  });
});

describe('following a page across picks', () => {
  const v1 = [row('a', 1), row('b', 2), row('c', 3)];
  const v2 = [row('c', 1), row('a', 2), row('b', 3)];
  const v3 = [row('c', 1), row('b', 2), row('a', 3)];

  it('compares the page a pick brought with the page as it stood when the pick came in', () => {
    const t = new RankMoveTracker();
    expect(t.update(v1, 5).moves.size).toBe(0); // a first page: nothing to compare with
    // The change moves the version first; the page on screen is still the old one: no arrows yet.
    expect(t.update(v1, 6).moves.size).toBe(0);
    // Then the re-ranked page arrives under that version.
    const moves = t.update(v2, 6);
    expect(moves.version).toBe(6);
    expect(Object.fromEntries(moves.moves)).toEqual({ c: 2, a: -1, b: -1 });
  });

  it('keeps the arrows while the page is read again under the same version, and counts the next pick from there', () => {
    const t = new RankMoveTracker();
    t.update(v1, 5);
    t.update(v2, 6);
    const again = [...v2];
    expect(Object.fromEntries(t.update(again, 6).moves)).toEqual({ c: 2, a: -1, b: -1 });
    // The next pick: counted from v2, not from v1.
    t.update(again, 7);
    expect(Object.fromEntries(t.update(v3, 7).moves)).toEqual({ b: 1, a: -1 });
  });

  it('clears the arrows after a pick that moved nobody', () => {
    const t = new RankMoveTracker();
    t.update(v1, 5);
    expect(t.update(v2, 6).moves.size).toBe(3);
    expect(t.update(v2, 7).moves.size).toBe(0);
  });

  it('counts a burst of changes (a catch-up) as one move, from the page before the first of them', () => {
    const t = new RankMoveTracker();
    t.update(v1, 5);
    t.update(v1, 6);
    t.update(v1, 7);
    expect(Object.fromEntries(t.update(v3, 8).moves)).toEqual({ c: 2, a: -2 });
  });

  it('waits for a draft version before counting', () => {
    const t = new RankMoveTracker();
    expect(t.update(v1, undefined).moves.size).toBe(0);
    // The first version seen is the baseline: the page shown then has no arrows.
    expect(t.update(v2, 4).moves.size).toBe(0);
    expect(t.update(v2, 5).moves.size).toBe(0);
    expect(Object.fromEntries(t.update(v3, 5).moves)).toEqual({ a: -1, b: 1 });
  });
});
