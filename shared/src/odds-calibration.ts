/**
 * How well the odds model (odds.ts) fits a real round one: the temperature's fit and the calibration
 * report of docs/benchmarks.md, "The night's odds" (`npm run odds:calibrate`). Pure, no I/O: the board's
 * ranks and the round's picks (board ranks in slot order) come in as numbers.
 */
import { ODDS_SIMULATIONS, simulateRoundOne } from './odds.js';
import type { BoardColumns } from './scoring.js';

/**
 * The log-likelihood of a round one's picks, in slot order, under the model at temperature `t`: each pick
 * the chosen player's softmax share among the board's players not yet taken.
 */
export function roundOneLogLikelihood(boardRanks: readonly number[], pickRanks: readonly number[], t: number): number {
  const left = new Set(boardRanks);
  let sum = 0;
  for (const r of pickRanks) {
    let total = 0;
    for (const x of left) total += Math.exp(-(x - r) / t);
    sum -= Math.log(total);
    left.delete(r);
  }
  return sum;
}

/** The temperature of `grid` with the largest likelihood of the picks. */
export function fitTemperature(boardRanks: readonly number[], pickRanks: readonly number[], grid: readonly number[]): number {
  let best = grid[0]!;
  for (const t of grid) if (roundOneLogLikelihood(boardRanks, pickRanks, t) > roundOneLogLikelihood(boardRanks, pickRanks, best)) best = t;
  return best;
}

/** Board-rank bands of the reliability table. */
export const CALIBRATION_BANDS: readonly [number, number][] = [
  [1, 10],
  [11, 20],
  [21, 32],
  [33, 50],
  [51, 100],
  [101, Infinity],
];

/** The contested part of the board, where the Brier score is also given alone. */
export const TOP_RANKS = 50;

export interface BandRow {
  band: [number, number];
  /** Undrafted board players in the band at that pick. */
  players: number;
  /** The model's mean chance that they go in round one. */
  modelled: number;
  /** The baseline's mean chance (the best-ranked undrafted players fill the open slots). */
  baseline: number;
  /** The share of them that went. */
  actual: number;
}

export interface CalibrationAt {
  /** Picks already made. */
  after: number;
  /** Mean squared error of each undrafted board player's chance against what happened (0 or 1). */
  brier: number;
  /** The same for the baseline. */
  baselineBrier: number;
  /** Both on the players ranked 1–50 alone (the rest are near-certain misses that flatter both scores). */
  brierTop: number;
  baselineBrierTop: number;
  bands: BandRow[];
}

/**
 * The calibration after the first `after` picks of a real round one: the model's chance that each player
 * still undrafted then goes in the rest of round one, against what happened, and the baseline "the top of
 * the board goes" (the open slots go to the best-ranked undrafted players: the top 32 before the first pick).
 */
export function calibrationAt(boardRanks: readonly number[], pickRanks: readonly number[], after: number, t: number, simulations = ODDS_SIMULATIONS): CalibrationAt {
  const slots = pickRanks.length;
  const taken = new Set(pickRanks.slice(0, after));
  const went = new Set(pickRanks);
  const board: BoardColumns = { rank: Int32Array.from(boardRanks), round: Int32Array.from(boardRanks, (r) => (taken.has(r) ? 1 : 0)) };
  const sims = simulateRoundOne(board, { roundOnePicks: slots, filledSlots: after, roundOneCompleteMarked: false }, { temperature: t, simulations });
  const open = boardRanks.map((r, i) => ({ r, i })).filter(({ r }) => !taken.has(r)).sort((a, b) => a.r - b.r);
  const rows = open.map(({ r, i }, place) => ({ r, p: sims.goes[i]!, base: place < slots - after ? 1 : 0, o: went.has(r) ? 1 : 0 }));
  const top = rows.filter((x) => x.r <= TOP_RANKS);
  const brierOf = (f: (x: (typeof rows)[number]) => number, of = rows) => of.reduce((s, x) => s + (f(x) - x.o) ** 2, 0) / of.length;
  const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
  return {
    after,
    brier: brierOf((x) => x.p),
    baselineBrier: brierOf((x) => x.base),
    brierTop: brierOf((x) => x.p, top),
    baselineBrierTop: brierOf((x) => x.base, top),
    bands: CALIBRATION_BANDS.map((band) => {
      const inBand = rows.filter((x) => x.r >= band[0] && x.r <= band[1]);
      return { band, players: inBand.length, modelled: mean(inBand.map((x) => x.p)), baseline: mean(inBand.map((x) => x.base)), actual: mean(inBand.map((x) => x.o)) };
    }),
  };
}
