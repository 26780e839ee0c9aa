/**
 * The night's odds (docs/rules.md, "Odds"; docs/decisions.md, "The night's odds"): a model of the rest of
 * round one, simulated, each simulated end of round one scored by the game's rules (scoring.ts). Pure, no
 * I/O; the server and the web app run the same code on the same board, so they say the same number.
 *
 * The model: the round-one slots still open are filled one after another from the undrafted players on the
 * big board, each slot taking player i with a chance proportional to exp(-rank_i / T) among those left (a
 * Plackett–Luce draw on board rank with one temperature T, `ODDS_TEMPERATURE`, calibrated on the bundled
 * 2025 round one: scripts/odds-calibrate.ts). Players off the board never go; the order of slots does not
 * matter, only which players fill them.
 *
 * One batch of simulations serves every entry: per player, a bit per simulation saying whether it went in
 * round one in that simulation. The draw is seeded by the draft's state (`oddsSeed`: which board ranks went
 * in which round, and the slots left), so every instance and every screen draws the same batch for the same
 * moment.
 */
import { countPicks, isRoundOneComplete, rankKey, ranksBefore, remainingSlots, sameRank, scoreCounts, type BoardColumns, type DraftSnapshot, type PickedPlayer } from './scoring.js';
import { seededRandom } from './seeded-random.js';

/** The model's one parameter: the softmax temperature on big-board rank (the 2025 round one's best fit). */
export const ODDS_TEMPERATURE = 9;

/** Simulations per draft state: a chance carries a sampling error of at most ±1.1 points (one s.e.). */
export const ODDS_SIMULATIONS = 2000;

export interface OddsOptions {
  simulations?: number;
  temperature?: number;
  /** Defaults to `oddsSeed(board, d)`. */
  seed?: number;
}

/** A batch of simulated ends of round one for one draft state. */
export interface Simulations {
  /** Simulations in the batch. */
  count: number;
  /** 32-bit words per player's bitset. */
  words: number;
  /** The draft state simulated from. */
  draft: DraftSnapshot;
  board: BoardColumns;
  /** By player index: `words` words, bit k set when the player went in round one in simulation k (drafted players: as they are). */
  wentBits: Uint32Array;
  /** By player index: the share of simulations in which the player went in round one. */
  goes: Float64Array;
}

/**
 * The seed of a draft state: FNV-1a over the slots (total, filled, marked complete) and, in board-rank
 * order, the rank and draft round of every board player. Two instances with the same board and picks draw
 * the same simulations; a pick recorded, undone or a board replaced draws another batch.
 */
export function oddsSeed(board: BoardColumns, d: DraftSnapshot): number {
  let h = 0x811c9dc5;
  const mix = (v: number) => {
    for (let s = 0; s < 32; s += 8) {
      h ^= (v >>> s) & 0xff;
      h = Math.imul(h, 0x01000193);
    }
  };
  mix(d.roundOnePicks);
  mix(d.filledSlots);
  mix(d.roundOneCompleteMarked ? 1 : 0);
  for (const i of byRank(board)) {
    mix(board.rank[i]!);
    mix(board.round[i]!);
  }
  return h >>> 0;
}

/** Player indexes in board-rank order (ties by index): the order every draw visits them in. */
function byRank(board: BoardColumns): number[] {
  return Array.from(board.rank, (_, i) => i).sort((a, b) => board.rank[a]! - board.rank[b]! || a - b);
}

/**
 * Simulates the rest of round one `count` times. Each simulation fills the open slots by a Plackett–Luce
 * draw, sampled exactly by the exponential race: each undrafted player draws an arrival time
 * Exp(1) / exp(-rank / T), and the `slots` earliest go (the same law as drawing slot by slot).
 */
export function simulateRoundOne(board: BoardColumns, d: DraftSnapshot, options: OddsOptions = {}): Simulations {
  const count = options.simulations ?? ODDS_SIMULATIONS;
  const temperature = options.temperature ?? ODDS_TEMPERATURE;
  const random = seededRandom(options.seed ?? oddsSeed(board, d));
  const n = board.rank.length;
  const words = Math.ceil(count / 32);
  const wentBits = new Uint32Array(n * words);
  const goes = new Float64Array(n);
  const slots = remainingSlots(d);
  const open = byRank(board).filter((i) => board.round[i] === 0);
  for (let i = 0; i < n; i++) {
    // Drafted players are as they are in every simulation.
    if (board.round[i] === 1) {
      wentBits.fill(0xffffffff, i * words, (i + 1) * words);
      goes[i] = 1;
    }
  }
  if (slots > 0 && open.length > 0) {
    const best = board.rank[open[0]!]!;
    // exp(rank / T) relative to the best undrafted rank, so the factors stay finite.
    const scale = Float64Array.from(open, (i) => Math.exp((board.rank[i]! - best) / temperature));
    const times = new Float64Array(open.length);
    const sorted = new Float64Array(open.length);
    const taken = Math.min(slots, open.length);
    for (let k = 0; k < count; k++) {
      for (let j = 0; j < open.length; j++) times[j] = -Math.log(1 - random()) * scale[j]!;
      sorted.set(times);
      const cutoff = kthSmallest(sorted, taken - 1);
      const word = k >>> 5;
      const bit = 1 << (k & 31);
      for (let j = 0; j < open.length; j++) {
        if (times[j]! > cutoff) continue;
        const i = open[j]!;
        wentBits[i * words + word]! |= bit;
        goes[i]!++;
      }
    }
    for (const i of open) goes[i] = goes[i]! / count;
  }
  return { count, words, draft: d, board, wentBits, goes };
}

/** The k-th smallest of `a` (0-based), by selection in place (Hoare's quickselect): `a` is reordered. */
function kthSmallest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** The draft state once the simulated round one is over: every slot filled. */
function finalDraft(d: DraftSnapshot): DraftSnapshot {
  return { roundOnePicks: d.roundOnePicks, filledSlots: d.roundOnePicks, roundOneCompleteMarked: d.roundOneCompleteMarked };
}

/** An entry's picks as the rules read them, in the board as it is now. */
function pickedNow(board: BoardColumns, picks: ArrayLike<number>): PickedPlayer[] {
  return Array.from(picks, (i) => ({ rank: board.rank[i]!, draftRound: board.round[i] || null }));
}

/**
 * One entry's end of round one, sorted into the two outcomes the rules tell apart: every pending pick went
 * (the entry scored with all of its picks hits) or not (scored with at least one still undrafted at the
 * end). `survives`: the simulations in which the entry is alive when round one completes, as a bitset.
 * Both outcomes are scored by scoring.ts (`scoreCounts` under the completed draft); the model only says
 * which simulations fall in which.
 */
export interface SimulatedEntry {
  survives: Uint32Array;
  /** Simulations in `survives`. */
  surviving: number;
  /** The entry's standings key (`rankKey`) in a simulation where it survives. */
  key: number;
  /** Its pending picks (player indexes), now. */
  pending: number[];
}

export function simulateEntry(sims: Simulations, picks: ArrayLike<number>): SimulatedEntry {
  const { board, words } = sims;
  const now = pickedNow(board, picks);
  const counts = countPicks(now);
  const pending = Array.from(picks).filter((i) => board.round[i] === 0);
  const end = finalDraft(sims.draft);
  // Every pending pick taken in round one: the rules score that end.
  const allWent = scoreCounts(countPicks(now.map((p) => (p.draftRound === null ? { rank: p.rank, draftRound: 1 } : p))), end);
  // Some pending pick left undrafted at the end: the rules score that end too (one left out stands for all).
  const someLeft = pending.length > 0 ? scoreCounts({ ...counts, hits: counts.hits + pending.length - 1 }, end) : allWent;
  const survives = new Uint32Array(words);
  const busted = counts.picks === 0 || scoreCounts(counts, sims.draft).busted;
  if (!busted && !allWent.busted) {
    survives.fill(0xffffffff);
    // Alive at the end only where every pending pick went (when the rules bust the other outcome).
    if (someLeft.busted) for (const i of pending) for (let w = 0; w < words; w++) survives[w]! &= sims.wentBits[i * words + w]!;
  }
  const tail = sims.count & 31;
  if (tail) survives[words - 1]! &= (1 << tail) - 1;
  let surviving = 0;
  for (let w = 0; w < words; w++) surviving += popcount(survives[w]!);
  return { survives, surviving, key: rankKey(allWent.correctPicks, allWent.tiebreakRank), pending };
}

/** The chance (0..1) that the entry is alive when round one completes; null once round one is complete. */
export function survivalChance(sims: Simulations, picks: ArrayLike<number>): number | null {
  if (isRoundOneComplete(sims.draft)) return null;
  return simulateEntry(sims, picks).surviving / sims.count;
}

/**
 * Each entry's chance (0..1) to finish first among `entries` (a group's), sharing first counting as
 * first: in each simulation the surviving entries with the best standings key win. Null once round one is
 * complete. A whole field too big to hold every entry's bitset (the global standings) is `fieldBest` and
 * `fieldOdds`: the same numbers.
 */
export function winChances(sims: Simulations, entries: readonly ArrayLike<number>[]): (number | null)[] {
  if (isRoundOneComplete(sims.draft)) return entries.map(() => null);
  const simulated = entries.map((picks) => simulateEntry(sims, picks));
  // The standings' order of the keys (scoring.ts): the best first, equal keys sharing a place.
  const order = simulated.map((_, e) => e).sort((a, b) => (ranksBefore(simulated[a]!.key, 0, simulated[b]!.key, 0) ? -1 : ranksBefore(simulated[b]!.key, 0, simulated[a]!.key, 0) ? 1 : 0));
  const claimed = new Uint32Array(sims.words);
  const wins = new Float64Array(entries.length);
  for (let at = 0; at < order.length; ) {
    // Entries with equal keys share first in the simulations nobody above them survived.
    let end = at;
    while (end < order.length && sameRank(simulated[order[end]!]!.key, simulated[order[at]!]!.key)) end++;
    for (let j = at; j < end; j++) {
      const s = simulated[order[j]!]!;
      let won = 0;
      for (let w = 0; w < sims.words; w++) won += popcount(s.survives[w]! & ~claimed[w]!);
      wins[order[j]!] = won / sims.count;
    }
    for (let j = at; j < end; j++) {
      const s = simulated[order[j]!]!;
      for (let w = 0; w < sims.words; w++) claimed[w]! |= s.survives[w]!;
    }
    at = end;
  }
  return Array.from(wins);
}

/** A simulation no entry survives: nobody wins it. */
export const NO_SURVIVOR = -1;

/**
 * A whole field of entries (the global standings: 100,000 and more), as `fieldBest` scans it: by entry
 * index, in columns, without an object per entry.
 */
export interface FieldEntries {
  /** The entries to scan, in the standings' order of `keys`, best first (equal keys in any order). */
  order: ArrayLike<number>;
  /** By entry: its standings key where it survives, every pending pick gone (`simulateEntry`'s `key`). */
  keys: ArrayLike<number>;
  /** Every entry's picks (player indexes in the simulations' board): entry e's are `players[start[e] .. start[e] + picks[e])`. */
  players: ArrayLike<number>;
  start: ArrayLike<number>;
  picks: ArrayLike<number>;
  /** By entry: busted now (the rules' verdict): it survives no simulation. */
  busted(e: number): boolean;
}

/**
 * Per simulation, the best standings key among the field's entries that survive it (NO_SURVIVOR where none
 * does): what an entry's chance to win the whole field is measured against (`fieldOdds`), made once per
 * draft moment for every entry. The entries are scanned best key first, so a simulation is settled by the
 * first entry that survives it and is not looked at again; the scan ends once every simulation is settled
 * (at the latest at the first alive entry with nothing pending: it survives them all). An entry survives a
 * simulation when every pending pick went in it (as in `simulateEntry`); only the words of simulations
 * still open in which its least likely pending pick went are looked at, that pick first, so most entries
 * are out after a few word ANDs.
 */
export function fieldBest(sims: Simulations, field: FieldEntries): Float64Array {
  const best = new Float64Array(sims.count).fill(NO_SURVIVOR);
  if (isRoundOneComplete(sims.draft)) return best;
  const { words, wentBits, goes } = sims;
  // The simulations not settled yet; and, a bit per word of them, the words that still hold one (`live`)
  // and, per player, the words in which he went at least once (`some`): an entry's least likely pick
  // names the only words worth a look.
  const open = new Uint32Array(words).fill(0xffffffff);
  const tail = sims.count & 31;
  if (tail) open[words - 1] = (1 << tail) - 1;
  const spans = Math.ceil(words / 32);
  const live = new Uint32Array(spans);
  for (let w = 0; w < words; w++) live[w >>> 5] = live[w >>> 5]! | (1 << (w & 31));
  const some = new Uint32Array(goes.length * spans);
  for (let i = 0; i < goes.length; i++) for (let w = 0; w < words; w++) if (wentBits[i * words + w] !== 0) some[i * spans + (w >>> 5)] = some[i * spans + (w >>> 5)]! | (1 << (w & 31));
  let liveWords = words;
  let pending = new Int32Array(64);
  const { order, keys, picks } = field;
  for (let at = 0; at < order.length && liveWords > 0; at++) {
    const e = order[at]!;
    if (at > 0 && ranksBefore(keys[e]!, 0, keys[order[at - 1]!]!, 0)) throw new Error('fieldBest: the entries are not in the order of their keys');
    if (field.busted(e)) continue;
    if (picks[e]! > pending.length) pending = new Int32Array(picks[e]!);
    const m = pendingInto(sims, field, e, pending);
    const key = keys[e]!;
    for (let span = 0; span < spans; span++) {
      for (let look = m > 0 ? live[span]! & some[pending[0]! * spans + span]! : live[span]!; look !== 0; look &= look - 1) {
        const w = span * 32 + (31 - Math.clz32(look & -look));
        let won = open[w]!;
        for (let q = 0; q < m && won !== 0; q++) won &= wentBits[pending[q]! * words + w]!;
        if (won === 0) continue;
        open[w] = open[w]! & ~won;
        for (let x = won; x !== 0; x &= x - 1) best[w * 32 + (31 - Math.clz32(x & -x))] = key;
        if (open[w] === 0) {
          live[span] = live[span]! & ~(1 << (w & 31));
          liveWords--;
        }
      }
    }
  }
  return best;
}

/** Entry e's pending picks into `out` (room for all its picks), the least likely to go first; answers how many. */
function pendingInto(sims: Simulations, field: FieldEntries, e: number, out: Int32Array): number {
  const { goes, board } = sims;
  const from = field.start[e]!;
  const to = from + field.picks[e]!;
  let m = 0;
  for (let j = from; j < to; j++) {
    const i = field.players[j]!;
    if (board.round[i] !== 0) continue;
    out[m] = i;
    if (m > 0 && goes[i]! < goes[out[0]!]!) {
      out[m] = out[0]!;
      out[0] = i;
    }
    m++;
  }
  return m;
}

/**
 * Entry e's odds in a whole field (`fieldBest`'s): its chance to survive round one, every pending pick gone
 * (as `survivalChance` says it), and to finish first among every entry of the field, sharing first counting
 * as first (in each simulation it survives, no entry's key is better than its own: `best`). Read from the
 * field's columns, as the scan read them, with no object but the answer. Null once round one is complete.
 */
export function fieldOdds(sims: Simulations, best: Float64Array, field: FieldEntries, e: number): { survive: number; win: number } | null {
  if (isRoundOneComplete(sims.draft)) return null;
  if (field.busted(e)) return { survive: 0, win: 0 };
  const pending = new Int32Array(field.picks[e]!);
  const m = pendingInto(sims, field, e, pending);
  const { words, wentBits } = sims;
  const key = field.keys[e]!;
  const tail = sims.count & 31;
  let survived = 0;
  let won = 0;
  for (let w = 0; w < words; w++) {
    let x = w === words - 1 && tail ? (1 << tail) - 1 : -1;
    for (let q = 0; q < m && x !== 0; q++) x &= wentBits[pending[q]! * words + w]!;
    survived += popcount(x);
    for (; x !== 0; x &= x - 1) if (!ranksBefore(best[w * 32 + (31 - Math.clz32(x & -x))]!, 0, key, 0)) won++;
  }
  return { survive: survived / sims.count, win: won / sims.count };
}

export interface KillListItem {
  /** Player index. */
  player: number;
  /** The chance (0..1) the player does not go in round one. */
  misses: number;
}

/** The entry's pending picks, most likely to miss round one first (ties by board rank); [] once complete. */
export function killList(sims: Simulations, picks: ArrayLike<number>): KillListItem[] {
  if (isRoundOneComplete(sims.draft)) return [];
  return Array.from(picks)
    .filter((i) => sims.board.round[i] === 0)
    // Counted back to whole simulations, so an answer reads 0.805 and not 0.8049999999999999.
    .map((player) => ({ player, misses: Math.round((1 - sims.goes[player]!) * sims.count) / sims.count }))
    .sort((a, b) => b.misses - a.misses || sims.board.rank[a.player]! - sims.board.rank[b.player]!);
}

/** A board player as the answers carry it (`PlayerDto`'s fields). */
export interface BoardPlayer {
  id: number;
  rank: number;
  draft_round: number | null;
}

/** A batch of simulations over a board of players by id: what the screens and the server hold. */
export interface OddsBoard {
  sims: Simulations;
  /** Player id → index in the simulations' board. */
  index: Map<number, number>;
}

/** An entry's odds: its chance to survive round one and its kill list, players by id. */
export interface EntryOdds {
  survive: number;
  kill_list: { player_id: number; misses: number }[];
}

let lastBoard: { seed: number; simulations: number; ids: readonly number[]; odds: OddsBoard } | null = null;

/**
 * The simulations for a board of players (by id) and a draft state. The last batch is kept: every entry,
 * screen and answer of one draft moment shares it (the seed names the whole board and draft state; the ids
 * in the same order say the indexes are the same too).
 */
export function oddsBoard(players: readonly BoardPlayer[], d: DraftSnapshot, options: { simulations?: number } = {}): OddsBoard {
  const board: BoardColumns = { rank: Int32Array.from(players, (p) => p.rank), round: Int32Array.from(players, (p) => p.draft_round ?? 0) };
  const seed = oddsSeed(board, d);
  const simulations = options.simulations ?? ODDS_SIMULATIONS;
  const ids = players.map((p) => p.id);
  const last = lastBoard;
  if (last && last.seed === seed && last.simulations === simulations && last.ids.length === ids.length && last.ids.every((id, i) => id === ids[i])) return last.odds;
  const odds = { sims: simulateRoundOne(board, d, { seed, simulations }), index: new Map(ids.map((id, i) => [id, i])) };
  lastBoard = { seed, simulations, ids, odds };
  return odds;
}

/** An entry's odds (its picks by player id; ids not on the board are left out); null once round one is complete. */
export function entryOdds(odds: OddsBoard, playerIds: readonly number[]): EntryOdds | null {
  const picks = playerIds.map((id) => odds.index.get(id)).filter((i): i is number => i !== undefined);
  const survive = survivalChance(odds.sims, picks);
  if (survive === null) return null;
  const ids = new Map([...odds.index].map(([id, i]) => [i, id]));
  return { survive, kill_list: killList(odds.sims, picks).map((k) => ({ player_id: ids.get(k.player)!, misses: k.misses })) };
}
