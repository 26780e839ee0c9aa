/**
 * Benchmark entries (pure, no I/O): reference entries made from the big board alone, shown beside the
 * standings so a player sees whether they beat the consensus. They are scored by the same rules as any
 * entry (scoring.ts) but never ranked among players: they are not participants, hold no place, and do
 * not move anybody's rank, count or 'can still win'.
 */
import { countPicks, rankKey, scoreCounts, type DraftSnapshot, type PickedPlayer } from './scoring.js';

export interface BenchmarkDefinition {
  key: 'board_top_32' | 'chalk_20' | 'top_10';
  name: string;
  /** The board's first `size` players (by rank). */
  size: number;
}

/** Boldest first, as the standings order entries of equal hits. */
export const BENCHMARKS: readonly BenchmarkDefinition[] = [
  { key: 'board_top_32', name: 'Big board top 32', size: 32 },
  { key: 'chalk_20', name: 'Chalk 20', size: 20 },
  { key: 'top_10', name: 'Top 10 only', size: 10 },
];

export interface BenchmarkRow {
  key: BenchmarkDefinition['key'];
  name: string;
  picks: number;
  correct_picks: number;
  /** Picks not decided yet (0 once busted: the entry is out whatever they do). */
  pending: number;
  busted: boolean;
  tiebreak_rank: number | null;
  /** Best possible final score: every pending pick hits; 0 once busted. */
  max_possible: number;
}

/** Each benchmark as it stands: `board` is the big board (any order) with each player's draft round. */
export function benchmarkRows(board: readonly PickedPlayer[], draft: DraftSnapshot): BenchmarkRow[] {
  const byRank = [...board].sort((a, b) => a.rank - b.rank);
  return BENCHMARKS.map(({ key, name, size }) => {
    const picks = byRank.slice(0, size);
    const score = scoreCounts(countPicks(picks), draft);
    return {
      key,
      name,
      picks: picks.length,
      correct_picks: score.correctPicks,
      pending: score.busted ? 0 : score.pending,
      busted: score.busted,
      tiebreak_rank: score.tiebreakRank,
      max_possible: score.busted ? 0 : picks.length,
    };
  });
}

/** What the standings order compares: score, then the tie-break (larger = bolder; none loses). */
interface Scored {
  correct_picks: number;
  tiebreak_rank: number | null;
}

/** Where an entry stands against a benchmark, in the standings' own order (`rankKey`: ties by the tie-break). */
export function versusBenchmark(entry: Scored, benchmark: Scored): 'ahead' | 'level' | 'behind' {
  const mine = rankKey(entry.correct_picks, entry.tiebreak_rank);
  const theirs = rankKey(benchmark.correct_picks, benchmark.tiebreak_rank);
  return mine === theirs ? 'level' : mine > theirs ? 'ahead' : 'behind';
}
