import { describe, expect, it } from 'vitest';
import { contentionOf } from './contention.js';
import { codePointOrder, countPicks, fieldsAt, idRanks, rankCounts, rankEntries, type CountColumns, type DraftSnapshot, type Entry, type RankedOrder } from './scoring.js';
import { seededRandom } from './seeded-random';

// Mixed case, punctuation, a BMP letter above the surrogates and an astral one: every order trap.
const prefixes = ['user_', 'User_', 'u', '_', 'a-', 'Zz', '\uFF21', '\u{1F600}', 'b'];

/** The entries' counts as columns, the way the global standings keep them. */
function columns(entries: readonly Entry[]): CountColumns {
  const n = entries.length;
  const c: CountColumns = { count: n, picks: new Int32Array(n), hits: new Int32Array(n), laterRound: new Int32Array(n), maxHitRank: new Int32Array(n) };
  entries.forEach((entry, e) => {
    const k = countPicks(entry.picks);
    c.picks[e] = k.picks;
    c.hits[e] = k.hits;
    c.laterRound[e] = k.laterRound;
    c.maxHitRank[e] = k.maxHitRank ?? 0;
  });
  return c;
}

/** A ranking's rows as `rankEntries` writes them. */
function rowsOf(order: RankedOrder, entries: readonly Entry[]) {
  return Array.from({ length: order.size }, (_, p) => {
    const { entry, ...fields } = fieldsAt(order, p);
    const row = { ...fields, participant_id: entries[entry]!.participantId, participant_name: entries[entry]!.participantName };
    return { rank: row.rank, participant_id: row.participant_id, participant_name: row.participant_name, correct_picks: row.correct_picks, busted: row.busted, tiebreak_rank: row.tiebreak_rank, picks: row.picks, hits: row.hits, misses: row.misses, ...contentionOf(row, order.bar) };
  });
}

/** Random entries (several picks from a small pool: many exact ties) over a board of 120 ranks, `scale` apart. */
function randomWorld(seed: number, scale: number, size = 600) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const entries: Entry[] = Array.from({ length: size }, (_, i) => {
    const ranks = new Set<number>();
    const count = 1 + int(i % 3 === 0 ? 32 : 6);
    while (ranks.size < count) ranks.add(1 + int(i % 2 === 0 ? 40 : 120));
    return { participantId: `${prefixes[int(prefixes.length)]!}${int(50)}_${i}`, participantName: `Player ${i}`, picks: [...ranks].map((rank) => ({ rank: rank * scale, draftRound: null as number | null })) };
  });
  return { next, int, entries };
}

describe('rankCounts equals rankEntries', () => {
  for (const [seed, filled, marked, scale] of [
    [1, 0, false, 1],
    [2, 5, false, 1],
    [3, 20, false, 1],
    [4, 29, false, 1],
    [5, 32, false, 1],
    [6, 18, true, 1],
    [7, 12, false, 100_000],
  ] as const) {
    it(`ranked whole: 600 random entries, ${filled} slots filled${marked ? ', marked complete' : ''}${scale > 1 ? ', sparse ranks' : ''}`, () => {
      const { next, entries } = randomWorld(seed, scale);
      const order = Array.from({ length: 120 }, (_, i) => i + 1).sort(() => next() - 0.5);
      const round = new Map<number, number | null>(order.map((rank, i) => [rank * scale, i < filled ? 1 : i < filled + 10 ? 2 + (i % 6) : null]));
      for (const entry of entries) for (const pick of entry.picks as { rank: number; draftRound: number | null }[]) pick.draftRound = round.get(pick.rank)!;
      const d: DraftSnapshot = { roundOnePicks: 32, filledSlots: filled, roundOneCompleteMarked: marked };
      const expected = rankEntries(entries, d);
      const ranked = rankCounts(columns(entries), d, idRanks(codePointOrder(entries.map((e) => e.participantId))));
      expect(rowsOf(ranked, entries)).toEqual(expected);
      expect(ranked.alive).toBe(expected.filter((r) => !r.busted).length);
      expect(expected.filter((r, i) => i > 0 && expected[i - 1]!.rank === r.rank).length).toBeGreaterThan(20);
    });
  }

  for (const [seed, scale] of [
    [11, 1],
    [12, 1],
    [13, 100_000],
  ] as const) {
    it(`re-ranked incrementally after every step of a random pick sequence (picks, undo, round one marked complete and unmarked, new entries; seed ${seed})`, () => {
      const { next, int, entries } = randomWorld(seed, scale, 250);
      const board = Array.from({ length: 120 }, (_, i) => (i + 1) * scale);
      const taken: number[] = [];
      let marked = false;
      let previous: RankedOrder | undefined;
      const steps: string[] = [];
      const kinds = new Set<string>();
      for (let step = 0; step < 60; step++) {
        const roll = next();
        const complete = marked || taken.length >= 32;
        let kind: string;
        if (complete && roll < 0.5) kind = marked ? 'unmark' : 'undo';
        else if (taken.length > 0 && roll < 0.2) kind = 'undo';
        else if (!complete && roll < 0.27) kind = 'mark';
        else if (roll < 0.32) kind = 'entry';
        else kind = complete ? (marked ? 'unmark' : 'undo') : 'pick';
        if (kind === 'pick') {
          const left = board.filter((r) => !taken.includes(r));
          // Mostly the best players left (held by many), sometimes any; now and then a later-round pick.
          taken.push(left[Math.floor(next() ** 3 * left.length)]!);
        } else if (kind === 'undo') taken.pop();
        else if (kind === 'mark') marked = true;
        else if (kind === 'unmark') marked = false;
        else {
          const ranks = new Set<number>();
          const count = 1 + int(8);
          while (ranks.size < count) ranks.add((1 + int(60)) * scale);
          entries.push({ participantId: `${prefixes[int(prefixes.length)]!}new_${step}`, participantName: `New ${step}`, picks: [...ranks].map((rank) => ({ rank, draftRound: null })) });
        }
        steps.push(kind);
        kinds.add(kind);
        const laterRound = new Set(taken.filter((_, i) => i % 9 === 8));
        const roundOne = new Set(taken);
        for (const entry of entries) {
          for (const pick of entry.picks as { rank: number; draftRound: number | null }[]) {
            pick.draftRound = laterRound.has(pick.rank) ? 2 : roundOne.has(pick.rank) ? 1 : null;
          }
        }
        const d: DraftSnapshot = { roundOnePicks: 32, filledSlots: taken.length - laterRound.size, roundOneCompleteMarked: marked };
        const idRank = idRanks(codePointOrder(entries.map((e) => e.participantId)));
        const incremental = rankCounts(columns(entries), d, idRank, previous);
        const whole = rankCounts(columns(entries), d, idRank);
        const expected = rankEntries(entries, d);
        expect(rowsOf(incremental, entries), steps.join(', ')).toEqual(expected);
        // The same order as ranking everything anew, in the same arrays' terms.
        expect(incremental.entries).toEqual(whole.entries);
        expect(incremental.ranks).toEqual(whole.ranks);
        expect(incremental.alive).toBe(expected.filter((r) => !r.busted).length);
        expect(incremental.moved).toBeLessThanOrEqual(entries.length);
        previous = incremental;
      }
      expect([...kinds].sort()).toEqual(['entry', 'mark', 'pick', 'undo', 'unmark']);
    });
  }

  it('moves only the entries whose score changed', () => {
    const { entries } = randomWorld(21, 1);
    const idRank = idRanks(codePointOrder(entries.map((e) => e.participantId)));
    const d: DraftSnapshot = { roundOnePicks: 32, filledSlots: 0, roundOneCompleteMarked: false };
    const first = rankCounts(columns(entries), d, idRank);
    expect(first.moved).toBe(entries.length);
    // Nothing changed: nobody moves, and the order is the very same arrays.
    const again = rankCounts(columns(entries), d, idRank, first);
    expect(again.moved).toBe(0);
    expect(again.entries).toBe(first.entries);
    // One player taken in round one: only alive entries holding him change score (the draft state's
    // remaining slots drop by one, which busts no entry of at most 32 picks here that was alive with 31).
    const player = entries[0]!.picks[0]!.rank;
    for (const entry of entries) for (const pick of entry.picks as { rank: number; draftRound: number | null }[]) if (pick.rank === player) pick.draftRound = 1;
    const after = rankCounts(columns(entries), { ...d, filledSlots: 1 }, idRank, first);
    const holders = entries.filter((e) => e.picks.some((p) => p.rank === player)).length;
    expect(after.moved).toBeGreaterThan(0);
    expect(after.moved).toBeLessThanOrEqual(holders + entries.filter((e) => e.picks.length > 31).length);
    expect(rowsOf(after, entries)).toEqual(rankEntries(entries, { ...d, filledSlots: 1 }));
  });
});

/**
 * The rules as docs/rules.md words them, written here a second way on purpose (a sort with a comparator of
 * its own, then competition ranks), so the one implementation is held to an independent reading of them.
 */
function rankedAsWorded(entries: readonly Entry[], d: DraftSnapshot) {
  const complete = d.roundOneCompleteMarked || d.filledSlots >= d.roundOnePicks;
  const remaining = complete ? 0 : Math.max(0, d.roundOnePicks - d.filledSlots);
  const scored = entries
    .filter((e) => e.picks.length > 0)
    .map((e) => {
      const hits = e.picks.filter((p) => p.draftRound === 1);
      const later = e.picks.filter((p) => p.draftRound !== null && p.draftRound > 1).length;
      const undrafted = e.picks.filter((p) => p.draftRound === null).length;
      const busted = later > 0 || (complete ? undrafted > 0 : undrafted > remaining);
      const tiebreak = busted || hits.length === 0 ? null : Math.max(...hits.map((p) => p.rank));
      return { id: e.participantId, correct: busted ? 0 : hits.length, tiebreak, busted };
    });
  const codePoints = (s: string) => [...s].map((c) => c.codePointAt(0)!);
  const byId = (a: string, b: string) => {
    const x = codePoints(a);
    const y = codePoints(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  };
  scored.sort((a, b) => b.correct - a.correct || (b.tiebreak ?? -1) - (a.tiebreak ?? -1) || byId(a.id, b.id));
  return scored.map((s, i) => {
    let first = i;
    while (first > 0 && scored[first - 1]!.correct === s.correct && scored[first - 1]!.tiebreak === s.tiebreak) first--;
    return [first + 1, s.id, s.correct, s.tiebreak, s.busted];
  });
}

describe('rankEntries equals the rules as worded', () => {
  for (const [seed, filled, marked] of [
    [31, 0, false],
    [32, 9, false],
    [33, 27, false],
    [34, 32, false],
    [35, 15, true],
  ] as const) {
    it(`600 random entries, ${filled} slots filled${marked ? ', marked complete' : ''}`, () => {
      const { next, entries } = randomWorld(seed, 1);
      const order = Array.from({ length: 120 }, (_, i) => i + 1).sort(() => next() - 0.5);
      const round = new Map<number, number | null>(order.map((rank, i) => [rank, i < filled ? 1 : i < filled + 8 ? 2 : null]));
      for (const entry of entries) for (const pick of entry.picks as { rank: number; draftRound: number | null }[]) pick.draftRound = round.get(pick.rank)!;
      // Some entries without picks: not ranked.
      entries.push({ participantId: 'no_picks', participantName: 'None', picks: [] });
      const d: DraftSnapshot = { roundOnePicks: 32, filledSlots: filled, roundOneCompleteMarked: marked };
      const rows = rankEntries(entries, d).map((r) => [r.rank, r.participant_id, r.correct_picks, r.tiebreak_rank, r.busted]);
      expect(rows).toEqual(rankedAsWorded(entries, d));
      expect(rows.filter((r, i) => i > 0 && rows[i - 1]![0] === r[0]).length).toBeGreaterThan(20);
    });
  }
});
