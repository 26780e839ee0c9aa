import { describe, expect, it } from 'vitest';
import { entryOdds, fieldBest, fieldOdds, killList, ODDS_TEMPERATURE, oddsBoard, oddsSeed, simulateEntry, simulateRoundOne, survivalChance, winChances, type Simulations } from './odds.js';
import { seededRandom } from './seeded-random.js';
import { rankEntries, ranksBefore, scoreEntry, type BoardColumns, type DraftSnapshot } from './scoring.js';

/** A board of players ranked 1..n, with the given draft rounds (0: undrafted). */
function board(rounds: number[]): BoardColumns {
  return { rank: Int32Array.from(rounds, (_, i) => i + 1), round: Int32Array.from(rounds) };
}

function draft(roundOnePicks: number, filledSlots: number): DraftSnapshot {
  return { roundOnePicks, filledSlots, roundOneCompleteMarked: false };
}

const weight = (rank: number) => Math.exp(-rank / ODDS_TEMPERATURE);
/** Sampling error bound: 4 standard errors of a share estimated from `n` simulations. */
const within = (p: number, n: number) => 4 * Math.sqrt(Math.max(p * (1 - p), 1e-9) / n) + 1e-9;

describe('the odds of the rest of round one', () => {
  it('one slot left and two pending picks: holding both is busted, holding one is that player taking the slot', () => {
    // Ranks 1..3; rank 1 went, one of two slots left; ranks 2 and 3 are undrafted.
    const b = board([1, 0, 0]);
    const d = draft(2, 1);
    const sims = simulateRoundOne(b, d);
    expect(survivalChance(sims, [1, 2])).toBe(0);
    const exact = weight(2) / (weight(2) + weight(3));
    expect(Math.abs(survivalChance(sims, [1])! - exact)).toBeLessThan(within(exact, sims.count));
    expect(Math.abs(survivalChance(sims, [2])! - (1 - exact))).toBeLessThan(within(exact, sims.count));
    // The two are the two halves of every simulation.
    expect(survivalChance(sims, [1])! + survivalChance(sims, [2])!).toBeCloseTo(1, 10);
  });

  it('a player certain to go: as many slots as undrafted players, or already taken in round one', () => {
    const sims = simulateRoundOne(board([1, 0, 0, 2]), draft(3, 1));
    expect(survivalChance(sims, [1, 2])).toBe(1);
    expect(survivalChance(sims, [0])).toBe(1);
    expect(sims.goes[1]).toBe(1);
  });

  it('an entry already busted is 0 %, alive with nothing pending is 100 %', () => {
    const sims = simulateRoundOne(board([1, 2, 0, 0, 0]), draft(3, 1));
    expect(survivalChance(sims, [1])).toBe(0); // taken in round two: a miss
    expect(survivalChance(sims, [0, 1, 2])).toBe(0);
    expect(survivalChance(sims, [0])).toBe(1);
    expect(winChances(sims, [[0], [1]])).toEqual([1, 0]);
  });

  it('after round one no odds: results only', () => {
    const sims = simulateRoundOne(board([1, 1, 0]), draft(2, 2));
    expect(survivalChance(sims, [0])).toBeNull();
    expect(winChances(sims, [[0]])).toEqual([null]);
    expect(killList(sims, [2])).toEqual([]);
  });

  it('the same draft state draws the same simulations, whatever order the board is listed in', () => {
    const b = board([1, 0, 0, 0, 0, 0, 0, 0]);
    const d = draft(4, 1);
    const a = simulateRoundOne(b, d);
    const again = simulateRoundOne(board([1, 0, 0, 0, 0, 0, 0, 0]), d);
    expect(Array.from(again.wentBits)).toEqual(Array.from(a.wentBits));
    // The board reversed: player i is now at index 7 - i.
    const reversed: BoardColumns = { rank: b.rank.slice().reverse(), round: b.round.slice().reverse() };
    const r = simulateRoundOne(reversed, d);
    expect(oddsSeed(reversed, d)).toBe(oddsSeed(b, d));
    for (const picks of [[1, 3], [2], [4, 5, 6]]) expect(survivalChance(r, picks.map((i) => 7 - i))).toBe(survivalChance(a, picks));
    // Another pick recorded: another seed.
    expect(oddsSeed(board([1, 1, 0, 0, 0, 0, 0, 0]), draft(4, 2))).not.toBe(oddsSeed(b, d));
  });

  it('the kill list: pending picks, the one most likely to miss round one first', () => {
    const sims = simulateRoundOne(board([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]), draft(5, 1));
    const list = killList(sims, [7, 0, 2, 4]);
    expect(list.map((k) => k.player)).toEqual([7, 4, 2]);
    expect(list[0]!.misses).toBeGreaterThan(list[2]!.misses);
  });

  it('simulated survival and win chances match an exact enumeration on small boards, within sampling error', () => {
    // 7 players; ranks 1 and 3 went in round one, rank 6 in round two; 3 of 5 slots left.
    const rounds = [1, 0, 1, 0, 0, 2, 0];
    const b = board(rounds);
    const d = draft(5, 2);
    const entries = [[1], [1, 3], [0, 3, 4], [3, 6], [1, 3, 4], [4, 6], [0, 2], [5, 1], [1, 3, 6]];
    // Every order in which the 3 slots can be filled from the 4 undrafted players, with its chance.
    const open = [1, 3, 4, 6];
    const survive = new Array<number>(entries.length).fill(0);
    const win = new Array<number>(entries.length).fill(0);
    const orders = (left: number[], k: number): [number[], number][] => {
      if (k === 0) return [[[], 1]];
      const total = left.reduce((s, i) => s + weight(i + 1), 0);
      return left.flatMap((i) => orders(left.filter((j) => j !== i), k - 1).map(([rest, p]): [number[], number] => [[i, ...rest], (p * weight(i + 1)) / total]));
    };
    for (const [went, p] of orders(open, 3)) {
      // That end of round one, scored by the rules.
      const end = rounds.map((r, i) => (went.includes(i) ? 1 : r));
      const done = draft(5, 5);
      const picked = (e: number[]) => e.map((i) => ({ rank: i + 1, draftRound: end[i] || null }));
      entries.forEach((e, j) => {
        if (!scoreEntry(picked(e), done).busted) survive[j]! += p;
      });
      const rows = rankEntries(entries.map((e, j) => ({ participantId: `p${j}`, participantName: `p${j}`, picks: picked(e) })), done);
      for (const row of rows) if (row.rank === 1 && !row.busted) win[Number(row.participant_id.slice(1))]! += p;
    }
    const sims = simulateRoundOne(b, d, { simulations: 4000 });
    const chances = winChances(sims, entries);
    entries.forEach((e, j) => {
      expect(Math.abs(survivalChance(sims, e)! - survive[j]!), `survival of ${e}`).toBeLessThan(within(survive[j]!, sims.count));
      expect(Math.abs(chances[j]! - win[j]!), `win of ${e}`).toBeLessThan(within(win[j]!, sims.count));
    });
    // Each player's share of simulations in round one against the exact chance.
    for (const i of open) {
      const exact = orders(open, 3).reduce((s, [went, p]) => s + (went.includes(i) ? p : 0), 0);
      expect(Math.abs(sims.goes[i]! - exact)).toBeLessThan(within(exact, sims.count));
    }
  });
});

/** A whole field's odds by `fieldBest`: entries scanned by their key if they survive, best first (as the server orders them). */
function oddsInField(sims: Simulations, entries: number[][]) {
  const keys = entries.map((picks) => simulateEntry(sims, picks).key);
  const order = entries.map((_, e) => e).sort((a, b) => (ranksBefore(keys[a]!, 0, keys[b]!, 0) ? -1 : ranksBefore(keys[b]!, 0, keys[a]!, 0) ? 1 : 0));
  const busted = entries.map((picks) => scoreEntry(Array.from(picks, (i) => ({ rank: sims.board.rank[i]!, draftRound: sims.board.round[i] || null })), sims.draft).busted);
  const start = entries.map((_, e) => entries.slice(0, e).reduce((n, picks) => n + picks.length, 0));
  const field = { order, keys, players: entries.flat(), start, picks: entries.map((p) => p.length), busted: (e: number) => busted[e]! };
  const best = fieldBest(sims, field);
  return entries.map((_, e) => fieldOdds(sims, best, field, e));
}

/** `count` random entries of 1..`most` distinct players of the first `players`, skewed to the top of the board. */
function randomEntries(seed: number, count: number, players: number, most: number): number[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const size = 1 + Math.floor(random() * most);
    const picks = new Set<number>();
    while (picks.size < size) picks.add(Math.floor(random() ** 1.5 * players));
    return [...picks];
  });
}

describe('odds in a whole field (the global standings)', () => {
  it("each entry's win chance from each simulation's best surviving key is winChances over every entry, exactly", () => {
    // 60 players: the first 10 ranks went but rank 4 (round two); 12 of 22 slots left.
    const rounds = Array.from({ length: 60 }, (_, i) => (i === 3 ? 2 : i < 10 ? 1 : 0));
    for (const [seed, most] of [
      [1, 4],
      [2, 12],
      [3, 25],
    ] as const) {
      const sims = simulateRoundOne(board(rounds), draft(22, 9));
      const entries = randomEntries(seed, 400, 60, most);
      const field = oddsInField(sims, entries);
      const wins = winChances(sims, entries);
      entries.forEach((picks, e) => {
        expect(field[e]!.survive, `survival of ${picks}`).toBe(survivalChance(sims, picks));
        expect(field[e]!.win, `win of ${picks}`).toBe(wins[e]);
      });
      // Somebody wins in most simulations.
      expect(field.reduce((s, o) => s + o!.win, 0)).toBeGreaterThan(0.5);
    }
  });

  it('certain to lose is 0 % to win, the one alive entry that can reach the best score 100 %, busted 0 % of both, and none after round one', () => {
    // Ranks 1 and 2 went; 3 of 5 slots left.
    const sims = simulateRoundOne(board([1, 1, 0, 0, 0, 0, 0, 0, 0, 0]), draft(5, 2));
    // Settled on 2 hits (boldest #2); settled on 1 hit; 4 pending picks with 3 slots left (busted).
    const entries = [[0, 1], [0], [2, 3, 4, 5]];
    expect(oddsInField(sims, entries)).toEqual([
      { survive: 1, win: 1 },
      { survive: 1, win: 0 },
      { survive: 0, win: 0 },
    ]);
    // An entry that beats the settled one when rank 3 goes: it wins exactly then, the settled one otherwise.
    const [settled, , , bolder] = oddsInField(sims, [...entries, [0, 1, 2]]);
    expect(bolder!.win).toBe(bolder!.survive);
    expect(bolder!.survive).toBe(sims.goes[2]);
    expect(settled!.win).toBeCloseTo(1 - bolder!.win, 12);
    const after = simulateRoundOne(board([1, 1, 1, 1, 1, 0]), draft(5, 5));
    expect(oddsInField(after, [[0, 1], [5]])).toEqual([null, null]);
  });
});

describe('odds on a board of players by id', () => {
  const players = Array.from({ length: 40 }, (_, i) => ({ id: 100 + i, rank: i + 1, draft_round: i < 2 ? 1 : null }));
  const d = draft(32, 2);

  it("an entry's survival and kill list by player id; the same batch for the same moment, a new one after a pick", () => {
    const odds = oddsBoard(players, d);
    expect(oddsBoard([...players], d)).toBe(odds);
    const mine = entryOdds(odds, [100, 130, 110, 999])!;
    expect(mine.survive).toBe(survivalChance(odds.sims, [0, 30, 10]));
    expect(mine.kill_list.map((k) => k.player_id)).toEqual([130, 110]);
    expect(mine.kill_list[0]!.misses).toBe(1 - odds.sims.goes[30]!);
    const after = players.map((p) => (p.id === 102 ? { ...p, draft_round: 1 } : p));
    expect(oddsBoard(after, draft(32, 3))).not.toBe(odds);
    expect(entryOdds(oddsBoard(after, draft(32, 32)), [100])).toBeNull();
  });
});
