// `npx tsx scripts/bench-global-odds.ts [--entries 100000] [--own 5000]`: what the global standings' odds
// cost per draft moment, in memory (no database, no HTTP): a book of random entries (1–32 picks, skewed to
// the top of a 200-player board), then at picks 0, 8, 16, 24 and 31 of round one: the ranking (as the live
// fan-out makes it), the batch of simulations, the first page of 100 rows with their odds (the first odds
// read makes the whole field's best surviving key per simulation: `fieldBest`), and `--own` readers' own
// rows. docs/benchmarks.md, "The global standings' odds".
import { bookSimulations, rankGlobal } from '../server/src/modules/leaderboard/ranking.js';
import { Book, type PlayerFact } from '../server/src/modules/standings/book.js';
import type { RankedOrder } from '../shared/src/scoring.js';
import { seededRandom } from '../shared/src/seeded-random.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const ENTRIES = arg('entries', 100_000);
const OWN = arg('own', 5_000);
const PLAYERS = 200;
const SLOTS = 32;

const random = seededRandom(2026);
const book = new Book(SLOTS, ENTRIES);
const rounds = new Int32Array(PLAYERS);
const facts = (): PlayerFact[] => Array.from(rounds, (round, i) => [i + 1, i + 1, round]);
book.applyDraft(facts(), false);
for (let p = 0; p < ENTRIES; p++) {
  const index = book.takeParticipant([p + 1, `p${String(p).padStart(7, '0')}`, `Player ${p}`]);
  const size = 1 + Math.floor(random() ** 1.3 * SLOTS);
  const picks = new Set<number>();
  while (picks.size < size) picks.add(1 + Math.floor(random() ** 2 * 80));
  book.writeSet(index, 1, [...picks], false);
}
for (const step of book.indexHolders()) void step;

/** Round one as the model would draw it: each slot the best undrafted rank, give or take a few places. */
function recordUpTo(picks: number) {
  let made = rounds.reduce((n, r) => n + (r === 1 ? 1 : 0), 0);
  while (made < picks) {
    const open = [...rounds.keys()].filter((i) => rounds[i] === 0);
    rounds[open[Math.floor(random() * Math.min(6, open.length))]!] = 1;
    made++;
  }
  book.applyDraft(facts(), false);
}

const ms = (t0: number) => `${(performance.now() - t0).toFixed(1)} ms`;
let previous: RankedOrder | undefined;
console.log(`${ENTRIES} global entries, ${OWN} readers' own rows per pick`);
for (const picks of [0, 8, 16, 24, 31]) {
  recordUpTo(picks);
  // The batch first (the groups' odds draw it too); then the ranking, which takes it.
  let t0 = performance.now();
  bookSimulations(book);
  const simulated = ms(t0);
  t0 = performance.now();
  const ranking = rankGlobal(book, previous);
  previous = ranking.order;
  const ranked = ms(t0);
  t0 = performance.now();
  ranking.at(0);
  const first = ms(t0);
  t0 = performance.now();
  ranking.slice(1, 100);
  const page = ms(t0);
  t0 = performance.now();
  for (let k = 0; k < OWN; k++) ranking.at(Math.floor(random() * ranking.length));
  const own = ms(t0);
  const top = ranking.at(0)!;
  console.log(
    `after pick ${picks}: simulations ${simulated}; ranked ${ranked}; the first row's odds (the field's best key per simulation) ${first}; ` +
      `99 more rows ${page}; ${OWN} own rows ${own}; alive ${ranking.alive}; the leader ${top.odds?.text ?? 'no odds'}`,
  );
}
