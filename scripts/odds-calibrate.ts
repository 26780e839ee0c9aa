// `npm run odds:calibrate`: how the odds model (shared/src/odds.ts) fits the bundled 2025 round one. Prints
// the temperature that fits the picks best (the likelihood of the 32 picks in slot order, on a grid), then
// at picks 0, 8, 16 and 24 the Brier score of every undrafted board player's modelled chance of going in
// round one against what happened, beside the baseline "the best-ranked undrafted players fill the open
// slots", and the reliability table by board-rank band. docs/benchmarks.md, "The night's odds".
// `-- --cost` adds what the odds cost to compute (below).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { calibrationAt, fitTemperature, roundOneLogLikelihood, TOP_RANKS } from '../shared/src/odds-calibration.js';
import { entryOdds, ODDS_SIMULATIONS, ODDS_TEMPERATURE, oddsBoard, simulateRoundOne } from '../shared/src/odds.js';
import { roundOne2025Ranks } from './lib/round-one-2025.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { boardRanks, pickRanks } = roundOne2025Ranks(root);
const grid = Array.from({ length: 40 }, (_, i) => i + 1);
const best = fitTemperature(boardRanks, pickRanks, grid);
const ll = (t: number) => roundOneLogLikelihood(boardRanks, pickRanks, t).toFixed(1);
console.log(`2025 round one: ${pickRanks.length} picks, board ranks ${pickRanks.join(' ')}`);
console.log(`temperature: best fit ${best} (log-likelihood ${ll(best)}; T=4 ${ll(4)}, T=16 ${ll(16)}); the model uses ${ODDS_TEMPERATURE}`);
const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
for (const after of [0, 8, 16, 24]) {
  const c = calibrationAt(boardRanks, pickRanks, after, ODDS_TEMPERATURE);
  console.log(`\nafter pick ${after}: Brier ${c.brier.toFixed(4)} (baseline ${c.baselineBrier.toFixed(4)}); ranks 1–${TOP_RANKS} ${c.brierTop.toFixed(3)} (baseline ${c.baselineBrierTop.toFixed(3)})`);
  console.log('| ranks | undrafted | model | baseline | went |');
  for (const b of c.bands) {
    if (b.players === 0) continue;
    const band = Number.isFinite(b.band[1]) ? `${b.band[0]}–${b.band[1]}` : `${b.band[0]}+`;
    console.log(`| ${band} | ${b.players} | ${pct(b.modelled)} | ${pct(b.baseline)} | ${pct(b.actual)} |`);
  }
}

// --cost: what the odds cost on this board before the draft: a batch of simulations (15 draws, each with
// another seed) and one selection's odds on a batch (200 selections of 1–32 picks), median and max.
if (process.argv.includes('--cost')) {
  const n = boardRanks.length;
  const board = { rank: Int32Array.from(boardRanks), round: new Int32Array(n) };
  const players = boardRanks.map((rank, i) => ({ id: i + 1, rank, draft_round: null }));
  const d = { roundOnePicks: pickRanks.length, filledSlots: 0, roundOneCompleteMarked: false };
  const batch: number[] = [];
  for (let seed = 0; seed < 15; seed++) {
    const t0 = performance.now();
    simulateRoundOne(board, d, { seed });
    batch.push(performance.now() - t0);
  }
  const odds = oddsBoard(players, d);
  const change: number[] = [];
  for (let k = 0; k < 200; k++) {
    const picks = Array.from({ length: 1 + (k % 32) }, (_, i) => 1 + ((i * 5 + k) % 80));
    const t0 = performance.now();
    entryOdds(odds, picks);
    change.push(performance.now() - t0);
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!.toFixed(2);
  console.log(`\ncost: a batch of ${ODDS_SIMULATIONS} simulations (${n} players, ${pickRanks.length} slots) median ${median(batch)} ms, max ${Math.max(...batch).toFixed(2)} ms;`);
  console.log(`one selection's odds on it median ${median(change)} ms, max ${Math.max(...change).toFixed(2)} ms`);
}
