/**
 * The game's rules, written once (docs/rules.md, "Scoring"): what a pick counts as, what an entry scores,
 * the tie-break, the standings' order and competition ranks. Pure, no I/O. Every ranking reads them here:
 * the global standings and every group's (ranked in memory from per-set counts, server/src/modules/standings
 * and leaderboard), My Picks and the share card (`scoreEntry`, `pickOutcome`), the benchmarks, the pushes and
 * the season archive. PostgreSQL holds facts (the picks, the board, the draft) and no rule.
 *
 * Rules:
 * - A pick is a HIT when its player was taken in round one (draft_round = 1).
 * - It is a MISS when the player was taken in a later round (draft_round > 1),
 *   or when round one is complete and the player was not taken in it
 *   (draft_round null).
 * - Otherwise it is PENDING.
 * - Round one is complete when all of its slots are filled or the operator
 *   marked it complete.
 * - An entry is BUSTED when it has any miss, or when it has more pending picks
 *   than round-one slots remain (it can no longer be perfect: "busted early").
 * - A busted entry scores 0; otherwise its score is its number of hits.
 * - The order: score desc, then the tie-break (the largest big-board rank among the hits) desc, none last;
 *   entries equal on both share a rank (1, 2, 2, 4) and are listed by participant id in code point order.
 *   `rankKey` and `ranksBefore` say it once; `rankCounts`, the one ranking function (typed arrays, built
 *   on the previous ranking), orders by them, and `rankEntries` is `rankCounts` on entries as objects.
 */

import { canWinWith, contentionOf, isSettled, NO_BAR, type ContentionCounts, type WinningBar } from './contention.js';

export interface DraftSnapshot {
  /** Number of round-one slots (normally 32). */
  roundOnePicks: number;
  /** Number of players with draft_round = 1. */
  filledSlots: number;
  /** draft_state.round_one_complete: the operator declared round one over. */
  roundOneCompleteMarked: boolean;
}

export interface PickedPlayer {
  /** Big-board rank, 1 = best. */
  rank: number;
  /** null until the player is drafted. */
  draftRound: number | null;
}

export type PickOutcome = 'hit' | 'miss' | 'pending';

export function isRoundOneComplete(d: DraftSnapshot): boolean {
  return d.roundOneCompleteMarked || d.filledSlots >= d.roundOnePicks;
}

/** Round-one slots still open; 0 once round one is complete. */
export function remainingSlots(d: DraftSnapshot): number {
  if (isRoundOneComplete(d)) return 0;
  return Math.max(0, d.roundOnePicks - d.filledSlots);
}

/** A draft round as the typed columns hold it: 0 for not drafted. */
const UNDRAFTED = 0;

/** Taken in round one: a hit, whatever else happens. */
const isRoundOne = (round: number) => round === 1;
/** Taken in a later round: a miss, whatever else happens. */
const isLaterRound = (round: number) => round > 1;

export function pickOutcome(p: PickedPlayer, d: DraftSnapshot): PickOutcome {
  const round = p.draftRound ?? UNDRAFTED;
  if (isRoundOne(round)) return 'hit';
  if (isLaterRound(round)) return 'miss';
  // Not drafted: pending while round one is open, a miss once it is complete.
  return isRoundOneComplete(d) ? 'miss' : 'pending';
}

export interface EntryScore {
  hits: number;
  misses: number;
  pending: number;
  busted: boolean;
  /** Hits, or 0 when busted. */
  correctPicks: number;
  /** Largest big-board rank among the hits; null when no hits or busted. */
  tiebreakRank: number | null;
}

/**
 * What the rules need to know about one entry, whatever the draft state: picks, hits (taken in round one),
 * later-round picks and the largest big-board rank among the hits. The standings keep these per pick set
 * in memory (`CountColumns`) and score them again after every draft change.
 */
export interface EntryCounts {
  picks: number;
  hits: number;
  laterRound: number;
  /** null without hits. */
  maxHitRank: number | null;
}

/** Every entry's counts, one column each, by entry index (0..count-1). */
export interface CountColumns {
  count: number;
  picks: Int32Array;
  hits: Int32Array;
  laterRound: Int32Array;
  /** 0: no hit (big-board ranks start at 1). */
  maxHitRank: Int32Array;
}

/** The board as columns by player index: big-board rank, and draft round (0: not drafted). */
export interface BoardColumns {
  rank: Int32Array;
  round: Int32Array;
}

/**
 * Counts one pick set into `out` at `at`: the set is `players[from..to)`, player indexes into `board`.
 * The one place that says what a pick counts as (`countPicks` is this on a set of objects); the standings
 * count a million sets with it without an object each.
 */
export function countSetInto(players: Int32Array, from: number, to: number, board: BoardColumns, out: CountColumns, at: number): void {
  let hits = 0;
  let laterRound = 0;
  let maxHitRank = 0;
  for (let i = from; i < to; i++) {
    const player = players[i]!;
    const round = board.round[player]!;
    if (isRoundOne(round)) {
      hits++;
      const rank = board.rank[player]!;
      if (rank > maxHitRank) maxHitRank = rank;
    } else if (isLaterRound(round)) {
      laterRound++;
    }
  }
  out.picks[at] = to - from;
  out.hits[at] = hits;
  out.laterRound[at] = laterRound;
  out.maxHitRank[at] = maxHitRank;
}

/** Empty count columns with room for `size` entries. */
export function countColumns(size: number): CountColumns {
  return { count: size, picks: new Int32Array(size), hits: new Int32Array(size), laterRound: new Int32Array(size), maxHitRank: new Int32Array(size) };
}

export function countPicks(picks: readonly PickedPlayer[]): EntryCounts {
  const n = picks.length;
  const board: BoardColumns = { rank: Int32Array.from(picks, (p) => p.rank), round: Int32Array.from(picks, (p) => p.draftRound ?? UNDRAFTED) };
  const out = countColumns(1);
  countSetInto(Int32Array.from({ length: n }, (_, i) => i), 0, n, board, out, 0);
  return { picks: out.picks[0]!, hits: out.hits[0]!, laterRound: out.laterRound[0]!, maxHitRank: out.maxHitRank[0] || null };
}

/** The rules applied to an entry's counts; `scoreEntry` is this applied to `countPicks`. */
export function scoreCounts(c: EntryCounts, d: DraftSnapshot): EntryScore {
  const complete = isRoundOneComplete(d);
  const undrafted = c.picks - c.hits - c.laterRound;
  // Once round one is complete an undrafted pick is a miss; until then it is pending.
  const misses = c.laterRound + (complete ? undrafted : 0);
  const pending = complete ? 0 : undrafted;
  const busted = bustedUnder(d)(c.picks, c.hits, c.laterRound);
  return {
    hits: c.hits,
    misses,
    pending,
    busted,
    correctPicks: busted ? 0 : c.hits,
    // Decision: a busted entry's hits no longer count for anything — its score
    // is 0, and it gets no tie-break either (null, sorted last among entries
    // with the same score). Otherwise busted entries would be ordered among
    // the zero-score rows by hits that the rules say no longer count.
    tiebreakRank: busted ? null : c.maxHitRank,
  };
}

/**
 * The bust rule under one draft state, for many entries' counts without an object each (`rankCounts`):
 * any miss, or more pending picks than round-one slots remain.
 */
export function bustedUnder(d: DraftSnapshot): (picks: number, hits: number, laterRound: number) => boolean {
  const complete = isRoundOneComplete(d);
  const remaining = remainingSlots(d);
  return (picks, hits, laterRound) => {
    const undrafted = picks - hits - laterRound;
    // Complete: an undrafted pick is a miss. Else it is pending, and too many pending picks bust.
    return laterRound > 0 || (complete ? undrafted > 0 : undrafted > remaining);
  };
}

export function scoreEntry(picks: readonly PickedPlayer[], d: DraftSnapshot): EntryScore {
  return scoreCounts(countPicks(picks), d);
}

// ---------------------------------------------------------------- the order: one key, one comparator

/** Big-board ranks fit in 31 bits (PostgreSQL integers); correct picks are below 2^22, so keys stay exact. */
const TIEBREAK_SPAN = 2 ** 31;
const MAX_CORRECT = 2 ** 22;

/**
 * An entry's place in the order as one number, larger first: its score, then its tie-break (the boldest
 * hit: the largest big-board rank among its hits; none, as every busted entry, counts as 0 and goes last).
 * Equal keys share a rank.
 */
export function rankKey(correctPicks: number, tiebreakRank: number | null): number {
  return correctPicks * TIEBREAK_SPAN + (tiebreakRank ?? 0);
}

/** The score and tie-break a `rankKey` stands for. */
export function keyFields(key: number): { correctPicks: number; tiebreakRank: number | null } {
  const correctPicks = Math.floor(key / TIEBREAK_SPAN);
  const tiebreak = key - correctPicks * TIEBREAK_SPAN;
  return { correctPicks, tiebreakRank: tiebreak === 0 ? null : tiebreak };
}

/**
 * The standings' comparator, the only one: entry A (its `rankKey` and its place in participant-id order,
 * `codePointOrder`) is listed before entry B. Ties after the tie-break share a rank (`sameRank`) and are
 * listed by participant id, so every instance and every ranking lists them alike.
 */
export function ranksBefore(keyA: number, idRankA: number, keyB: number, idRankB: number): boolean {
  return keyA > keyB || (keyA === keyB && idRankA < idRankB);
}

/** Whether two entries share a rank (competition ranks: 1, 2, 2, 4). */
export function sameRank(keyA: number, keyB: number): boolean {
  return keyA === keyB;
}

/** The better of two winning bars (contention.ts): the one that would rank first. */
export function higherBar(a: WinningBar, b: WinningBar): WinningBar {
  return rankKey(b.score, b.tiebreakRank || null) > rankKey(a.score, a.tiebreakRank || null) ? b : a;
}

/** The bar of a scope: its best settled entry (rows in any order; contention.ts says what counts). */
export function winningBar(rows: Iterable<ContentionCounts>): WinningBar {
  let bar = NO_BAR;
  for (const row of rows) if (isSettled(row)) bar = higherBar(bar, { score: row.correct_picks, tiebreakRank: row.tiebreak_rank ?? 0 });
  return bar;
}

/**
 * The bar from rows in ranking order (score desc, tie-break desc): the first settled row, so a scan stops
 * there. Same answer as `winningBar`.
 */
export function winningBarOfRanked(rows: readonly ContentionCounts[]): WinningBar {
  for (const row of rows) if (isSettled(row)) return { score: row.correct_picks, tiebreakRank: row.tiebreak_rank ?? 0 };
  return NO_BAR;
}

/**
 * Compares strings by Unicode code point, which is the order of PostgreSQL's
 * `COLLATE "C"` on a UTF-8 database (byte order of UTF-8 = code point order).
 * For strings without astral-plane characters this is identical to plain
 * UTF-16 code-unit comparison (`a < b`); the fix-up below only reorders
 * surrogates (U+D800..DFFF) after U+E000..FFFF, as code point order requires.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/**
 * Indexes of `ids` in `compareCodePoints` order (COLLATE "C"). Ids without surrogates (all real ones)
 * sort with the engine's own string comparison, which is the same order and several times faster.
 */
export function codePointOrder(ids: readonly string[]): number[] {
  const order = ids.map((_, i) => i);
  const astral = ids.some((id) => /[\ud800-\udfff]/.test(id));
  if (astral) order.sort((a, b) => compareCodePoints(ids[a]!, ids[b]!));
  else order.sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
  return order;
}

/** `idRank` of `codePointOrder`'s answer: each entry's place in participant-id order. */
export function idRanks(idOrder: readonly number[]): Int32Array {
  const rank = new Int32Array(idOrder.length);
  for (let i = 0; i < idOrder.length; i++) rank[idOrder[i]!] = i;
  return rank;
}

// ---------------------------------------------------------------- ranking: the one function every standings calls

/** One ranking of `count` entries, of which `size` are ranked. Never changed once made: a later ranking makes new arrays (or shares these). */
export interface RankedOrder {
  /** Entries ranked (those with picks). */
  size: number;
  /** Entries the ranking was made of (ranked or not): `rankCounts`'s `counts.count`. */
  count: number;
  /** By entry: its `rankKey`; NOT_RANKED for an entry without picks. */
  keys: Float64Array;
  /** By entry: its picks, hits and misses and whether it is busted, packed (`packState`; read by `fieldsAt`). */
  state: Int32Array;
  /** By position: the entry there. */
  entries: Int32Array;
  /** By position: its competition rank. */
  ranks: Int32Array;
  /** By entry: its position, -1 when not ranked. */
  positionOf: Int32Array;
  /** Entries ranked and not busted. */
  alive: number;
  /** The best settled entry's score (contention.ts): who can still win is measured against it. */
  bar: WinningBar;
  /** Entries placed again by this ranking (all of them when it had no previous one to build on). */
  moved: number;
}

/** The key of an entry without picks: not an entry, not ranked (below every real key). */
const NOT_RANKED = -1;

/** Picks, hits and misses each fit in 6 bits of an entry's state (an entry holds at most MAX_PICKS, 32). */
const COUNT_SPAN = 64;

/** An entry's state in one integer: ((misses · 64 + hits) · 64 + picks) · 2 + 1 if busted. */
function packState(picks: number, hits: number, misses: number, busted: boolean): number {
  if (picks >= COUNT_SPAN) throw new RangeError(`an entry with ${picks} picks: the state holds fewer than ${COUNT_SPAN}`);
  return ((misses * COUNT_SPAN + hits) * COUNT_SPAN + picks) * 2 + (busted ? 1 : 0);
}

const picksOf = (state: number) => (state >> 1) % COUNT_SPAN;

/** What one row of the standings says, from a ranking (`rank`, score, state), without the names. */
export interface RankedFields {
  rank: number;
  entry: number;
  correct_picks: number;
  busted: boolean;
  tiebreak_rank: number | null;
  picks: number;
  /** Picks taken in round one, busted or not (a busted entry scores 0: it 'had 9 hits'). */
  hits: number;
  /** Picks that can no longer hit: taken in a later round, or undrafted once round one is complete. */
  misses: number;
}

/**
 * Ranks `counts` under the draft state `d`: every ranking of the game (global, every group's, `rankEntries`)
 * is this function. Entries without picks are not ranked. `idRank[e]` is entry e's place in participant-id
 * order (0..count-1, `idRanks(codePointOrder(ids))`). With `previous` (a ranking of the first
 * `previous.count` of these entries, whose id order has not changed among them) only the entries whose key
 * changed, and entries added since, are placed again: they are sorted among themselves and merged into the
 * previous order, which keeps every other entry in place relative to the others. Scoring every entry again
 * is cheap (arithmetic over typed arrays; a pick's draft state can bust entries that do not hold the player).
 */
export function rankCounts(counts: CountColumns, d: DraftSnapshot, idRank: Int32Array, previous?: RankedOrder): RankedOrder {
  const n = counts.count;
  const keys = new Float64Array(n);
  const state = new Int32Array(n);
  const busted = bustedUnder(d);
  const complete = isRoundOneComplete(d);
  // Columns in locals: the loops below run over every entry at every ranking.
  const { picks, hits, laterRound, maxHitRank } = counts;
  let alive = 0;
  let size = 0;
  let mostHits = 0;
  for (let e = 0; e < n; e++) {
    const k = picks[e]!;
    if (k === 0) {
      keys[e] = NOT_RANKED;
      continue;
    }
    const h = hits[e]!;
    const later = laterRound[e]!;
    const out = busted(k, h, later);
    if (h > mostHits) mostHits = h;
    // The score and tie-break (scoreCounts): a busted entry scores 0 with none.
    keys[e] = out ? rankKey(0, null) : rankKey(h, maxHitRank[e] || null);
    state[e] = packState(k, h, complete ? k - h : later, out);
    size++;
    if (!out) alive++;
  }
  if (mostHits >= MAX_CORRECT) throw new RangeError(`an entry with ${mostHits} hits: keys are exact below ${MAX_CORRECT}`);
  const usable = previous && previous.count <= n ? previous : undefined;
  // The entries to place: those whose key changed, and those the previous ranking did not have.
  const moved = scratch.bytes(n);
  const before = usable?.keys;
  const kept = usable?.count ?? 0;
  let changed = 0;
  let placed = 0;
  for (let e = 0; e < n; e++) {
    if (e < kept && before![e] === keys[e]) continue;
    moved[e] = 1;
    changed++;
    if (keys[e] !== NOT_RANKED) placed++;
  }
  let entries: Int32Array;
  let ranks: Int32Array;
  let positionOf: Int32Array;
  if (usable && changed === 0) {
    // Nobody moved (a rename, a pick no entry still alive holds): the order and ranks are the same arrays.
    ({ entries, ranks, positionOf } = usable);
  } else {
    entries = merged(sortedMoved(moved, placed, keys, idRank), moved, usable?.entries ?? new Int32Array(0), keys, idRank, size);
    ranks = new Int32Array(size);
    positionOf = new Int32Array(n).fill(-1);
    for (let p = 0; p < size; p++) {
      const e = entries[p]!;
      positionOf[e] = p;
      ranks[p] = p > 0 && sameRank(keys[e]!, keys[entries[p - 1]!]!) ? ranks[p - 1]! : p + 1;
    }
  }
  return { size, count: n, keys, state, entries, ranks, positionOf, alive, bar: barOf(entries, keys, state), moved: changed };
}

/** The row fields at position `p` of a ranking. */
export function fieldsAt(order: RankedOrder, p: number): RankedFields {
  const e = order.entries[p]!;
  const { correctPicks, tiebreakRank } = keyFields(order.keys[e]!);
  const state = order.state[e]!;
  const counts = state >> 1;
  return {
    rank: order.ranks[p]!,
    entry: e,
    correct_picks: correctPicks,
    busted: (state & 1) === 1,
    tiebreak_rank: tiebreakRank,
    picks: counts % COUNT_SPAN,
    hits: Math.floor(counts / COUNT_SPAN) % COUNT_SPAN,
    misses: Math.floor(counts / (COUNT_SPAN * COUNT_SPAN)),
  };
}

/** Whether entry `e` is busted in this ranking. */
export function bustedIn(order: RankedOrder, e: number): boolean {
  return (order.state[e]! & 1) === 1;
}

/**
 * Working arrays reused from one ranking to the next (zeroed where it matters): at a million entries a
 * ranking's own arrays are ~24 MB outside the heap, and every such allocation pushes V8 towards a full
 * collection of the whole heap (measured: ~0.7 s of CPU at a million entries, every third pick).
 */
const scratch = {
  u8: new Uint8Array(0),
  i32: new Int32Array(0),
  f64: new Float64Array(0),
  bytes(n: number): Uint8Array {
    if (this.u8.length < n) this.u8 = new Uint8Array(Math.max(n, this.u8.length * 2));
    const view = this.u8.subarray(0, n);
    view.fill(0);
    return view;
  },
  ints(n: number): Int32Array {
    if (this.i32.length < n) this.i32 = new Int32Array(Math.max(n, this.i32.length * 2));
    return this.i32.subarray(0, n);
  },
  floats(n: number): Float64Array {
    if (this.f64.length < n) this.f64 = new Float64Array(Math.max(n, this.f64.length * 2));
    return this.f64.subarray(0, n);
  },
};

/**
 * The moved entries that are ranked, in `ranksBefore` order. Sorting 250,000 entries with a comparator
 * function takes ~10× as long as the engine's numeric sort of a Float64Array, so each becomes one number
 * that sorts as `ranksBefore` orders: its key's place among the moved entries' distinct keys (larger key
 * first) · n + its id rank. Exact while distinct keys · n < 2^53.
 */
function sortedMoved(moved: Uint8Array, count: number, keys: Float64Array, idRank: Int32Array): Int32Array {
  const n = moved.length;
  const distinct = new Map<number, number>();
  for (let e = 0; e < n; e++) if (moved[e] && keys[e] !== NOT_RANKED) distinct.set(keys[e]!, 0);
  // Distinct keys in ranking order (ranksBefore on equal id ranks: the key decides).
  const inOrder = [...distinct.keys()].sort((a, b) => (ranksBefore(a, 0, b, 0) ? -1 : ranksBefore(b, 0, a, 0) ? 1 : 0));
  inOrder.forEach((key, i) => distinct.set(key, i));
  if (inOrder.length * n >= Number.MAX_SAFE_INTEGER) throw new RangeError(`${inOrder.length} scores × ${n} entries do not fit a sort key`);
  const sortKeys = scratch.floats(count);
  let i = 0;
  for (let e = 0; e < n; e++) if (moved[e] && keys[e] !== NOT_RANKED) sortKeys[i++] = distinct.get(keys[e]!)! * n + idRank[e]!;
  sortKeys.sort();
  // Back to entries: the id rank names the entry (`byIdRank`, built once here for the moved ones).
  const byIdRank = scratch.ints(n);
  for (let e = 0; e < n; e++) if (moved[e]) byIdRank[idRank[e]!] = e;
  const out = new Int32Array(count);
  for (let j = 0; j < count; j++) out[j] = byIdRank[sortKeys[j]! % n]!;
  return out;
}

/** The previous order without the moved entries, merged with the moved ones (both in ranking order). */
function merged(sorted: Int32Array, moved: Uint8Array, previous: Int32Array, keys: Float64Array, idRank: Int32Array, size: number): Int32Array {
  const out = new Int32Array(size);
  let p = 0;
  let j = 0;
  let at = 0;
  for (;;) {
    while (p < previous.length && moved[previous[p]!]) p++;
    if (p >= previous.length) break;
    const kept = previous[p]!;
    // Moved entries that rank before this kept one go first.
    while (j < sorted.length) {
      const m = sorted[j]!;
      if (!ranksBefore(keys[m]!, idRank[m]!, keys[kept]!, idRank[kept]!)) break;
      out[at++] = m;
      j++;
    }
    out[at++] = kept;
    p++;
  }
  while (j < sorted.length) out[at++] = sorted[j++]!;
  if (at !== size) throw new Error(`ranked ${at} of ${size} entries`);
  return out;
}

/** The first settled entry in ranking order (alive, every pick a hit): `winningBarOfRanked` on the arrays. */
function barOf(entries: Int32Array, keys: Float64Array, state: Int32Array): WinningBar {
  for (let p = 0; p < entries.length; p++) {
    const e = entries[p]!;
    if (state[e]! & 1) continue;
    const { correctPicks, tiebreakRank } = keyFields(keys[e]!);
    if (correctPicks === picksOf(state[e]!)) return { score: correctPicks, tiebreakRank: tiebreakRank ?? 0 };
  }
  return NO_BAR;
}

/**
 * The entry at the top of a ranking if it has clinched first place (contention.ts, `hasClinched`: settled
 * with hits, and no other entry can still finish first), else -1. Known for every entry, so a board read a
 * page at a time can say it too. Scans only until another entry can still win.
 */
export function clinchedIn(order: RankedOrder): number {
  if (order.size === 0) return -1;
  const leader = fieldsAt(order, 0);
  if (!isSettled(leader) || leader.correct_picks === 0) return -1;
  for (let p = 1; p < order.size && order.alive > 1; p++) {
    const e = order.entries[p]!;
    const state = order.state[e]!;
    if (state & 1) continue;
    const { correctPicks, tiebreakRank } = keyFields(order.keys[e]!);
    if (canWinWith(correctPicks, false, tiebreakRank, picksOf(state), order.bar)) return -1;
  }
  return leader.entry;
}

// ---------------------------------------------------------------- the rules on entries as objects

export interface Entry {
  participantId: string;
  participantName: string;
  picks: readonly PickedPlayer[];
}

export interface RankedRow {
  rank: number;
  participant_id: string;
  participant_name: string;
  correct_picks: number;
  busted: boolean;
  tiebreak_rank: number | null;
  /** The entry's number of picks: while it is alive, `picks - correct_picks` of them are still pending. */
  picks: number;
  /** Picks taken in round one, busted or not; and picks that can no longer hit (RankedFields). */
  hits: number;
  misses: number;
  /** Best possible final score and whether it can still finish first (shared/src/contention.ts). */
  max_possible: number;
  can_win: boolean;
}

/**
 * The standings of a few entries given as objects (the reference the tests hold every standings to): each
 * entry counted by `countPicks`'s rule, then ranked by `rankCounts`, as the server ranks its millions.
 * Entries without picks are not ranked.
 */
export function rankEntries(entries: readonly Entry[], d: DraftSnapshot): RankedRow[] {
  const counts = countColumns(entries.length);
  entries.forEach((entry, e) => {
    const c = countPicks(entry.picks);
    counts.picks[e] = c.picks;
    counts.hits[e] = c.hits;
    counts.laterRound[e] = c.laterRound;
    counts.maxHitRank[e] = c.maxHitRank ?? 0;
  });
  const order = rankCounts(counts, d, idRanks(codePointOrder(entries.map((e) => e.participantId))));
  return Array.from({ length: order.size }, (_, p) => {
    const { entry, ...fields } = fieldsAt(order, p);
    const row = { ...fields, participant_id: entries[entry]!.participantId, participant_name: entries[entry]!.participantName };
    return {
      rank: row.rank,
      participant_id: row.participant_id,
      participant_name: row.participant_name,
      correct_picks: row.correct_picks,
      busted: row.busted,
      tiebreak_rank: row.tiebreak_rank,
      picks: row.picks,
      hits: row.hits,
      misses: row.misses,
      ...contentionOf(row, order.bar),
    };
  });
}
