/**
 * The order of many entries ranked from their counts (pure, no I/O): what the global standings keep for
 * 100,000 entries and more, in typed arrays instead of an object per entry, re-ranked incrementally.
 *
 * The rules are scoring.ts's (`bustedUnder`, and `rankEntries`'s order: correct picks desc, tie-break desc
 * with none last, then participant id in code point order; competition ranks). Each entry's score is one
 * number, its key: correct picks · 2^31 + tie-break rank (0: none), so a higher key ranks higher and equal
 * keys share a rank. A re-rank scores every entry again (cheap: arithmetic over typed arrays; a pick's
 * draft state can bust entries that do not hold the player), then moves only the entries whose key changed:
 * they are sorted among themselves and merged into the previous order, which keeps every other entry in
 * place relative to the others. shared/src/standings-order.test.ts and server/test/global-standings.test.ts
 * hold it equal to `rankEntries` over random data and pick sequences.
 */
import { NO_BAR, type WinningBar } from './contention.js';
import { bustedUnder, type DraftSnapshot } from './scoring.js';

/** Big-board ranks fit in 31 bits (PostgreSQL integers); correct picks are below 2^22, so keys stay exact. */
const TIEBREAK_SPAN = 2 ** 31;
const MAX_CORRECT = 2 ** 22;

/** Every entry's counts, one column each, by entry index (0..count-1): what `entry_stat` holds. */
export interface CountColumns {
  count: number;
  picks: Int32Array;
  hits: Int32Array;
  laterRound: Int32Array;
  /** 0: no hit (big-board ranks start at 1). */
  maxHitRank: Int32Array;
}

/** One ranking of `size` entries. Never changed once made: a later ranking makes new arrays (or shares these). */
export interface RankedOrder {
  size: number;
  /** By entry: correct picks · 2^31 + tie-break rank (0: none). */
  keys: Float64Array;
  /** By entry: picks · 2 + 1 if busted. */
  state: Int32Array;
  /** By position: the entry there. */
  entries: Int32Array;
  /** By position: its competition rank. */
  ranks: Int32Array;
  /** By entry: its position. */
  positionOf: Int32Array;
  /** Entries not busted. */
  alive: number;
  /** The best settled entry's score (contention.ts): who can still win is measured against it. */
  bar: WinningBar;
  /** Entries placed again by this ranking (all of them when it had no previous one to build on). */
  moved: number;
}

/** What one row of the standings says, from a ranking (`rank`, score, state), without the names. */
export interface RankedFields {
  rank: number;
  entry: number;
  correct_picks: number;
  busted: boolean;
  tiebreak_rank: number | null;
  picks: number;
}

/**
 * Ranks `counts` under the draft state `d`. `idRank[e]` is entry e's place in participant-id order and
 * `idOrder` its inverse (see `codePointOrder`). With `previous` (a ranking of the first `previous.size`
 * of these entries, whose id order has not changed among them) only the entries whose key changed, and
 * entries added since, are placed again.
 */
export function rankCounts(counts: CountColumns, d: DraftSnapshot, idRank: Int32Array, previous?: RankedOrder): RankedOrder {
  const n = counts.count;
  const keys = new Float64Array(n);
  const state = new Int32Array(n);
  const busted = bustedUnder(d);
  // Columns in locals: the loops below run over every entry at every ranking.
  const { picks, hits, laterRound, maxHitRank } = counts;
  let alive = 0;
  let mostHits = 0;
  for (let e = 0; e < n; e++) {
    const h = hits[e]!;
    const out = busted(picks[e]!, h, laterRound[e]!);
    if (h > mostHits) mostHits = h;
    keys[e] = out ? 0 : h * TIEBREAK_SPAN + maxHitRank[e]!;
    state[e] = picks[e]! * 2 + (out ? 1 : 0);
    if (!out) alive++;
  }
  if (mostHits >= MAX_CORRECT) throw new RangeError(`an entry with ${mostHits} hits: keys are exact below ${MAX_CORRECT}`);
  const usable = previous && previous.size <= n ? previous : undefined;
  // The entries to place: those whose key changed, and those the previous ranking did not have.
  const moved = scratch.bytes(n);
  const before = usable?.keys;
  const kept = usable?.size ?? 0;
  let changed = 0;
  for (let e = 0; e < n; e++) {
    if (e < kept && before![e] === keys[e]) continue;
    moved[e] = 1;
    changed++;
  }
  let entries: Int32Array;
  let ranks: Int32Array;
  let positionOf: Int32Array;
  if (usable && changed === 0) {
    // Nobody moved (a rename, a pick no entry still alive holds): the order and ranks are the same arrays.
    ({ entries, ranks, positionOf } = usable);
  } else {
    entries = merged(sortedMoved(moved, changed, keys, idRank), moved, usable?.entries ?? new Int32Array(0), keys, idRank, n);
    ranks = new Int32Array(n);
    positionOf = new Int32Array(n);
    for (let p = 0; p < n; p++) {
      const e = entries[p]!;
      positionOf[e] = p;
      ranks[p] = p > 0 && keys[e] === keys[entries[p - 1]!] ? ranks[p - 1]! : p + 1;
    }
  }
  return { size: n, keys, state, entries, ranks, positionOf, alive, bar: barOf(entries, keys, state), moved: changed };
}

/** The row fields at position `p` of a ranking. */
export function fieldsAt(order: RankedOrder, p: number): RankedFields {
  const e = order.entries[p]!;
  const key = order.keys[e]!;
  const correct = Math.floor(key / TIEBREAK_SPAN);
  const tiebreak = key - correct * TIEBREAK_SPAN;
  return { rank: order.ranks[p]!, entry: e, correct_picks: correct, busted: (order.state[e]! & 1) === 1, tiebreak_rank: tiebreak === 0 ? null : tiebreak, picks: order.state[e]! >> 1 };
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

/** `idRank` of `codePointOrder`'s answer: each entry's place in participant-id order. */
export function idRanks(idOrder: readonly number[]): Int32Array {
  const rank = new Int32Array(idOrder.length);
  for (let i = 0; i < idOrder.length; i++) rank[idOrder[i]!] = i;
  return rank;
}

/**
 * The moved entries in ranking order (key desc, then id order). Each becomes one number, its key's place
 * among the moved entries' distinct keys (best first) · n + its id rank, and the engine's numeric sort of
 * a Float64Array (no comparator) orders them: exact while distinct keys · n < 2^53.
 */
function sortedMoved(moved: Uint8Array, count: number, keys: Float64Array, idRank: Int32Array): Int32Array {
  const n = moved.length;
  const distinct = new Map<number, number>();
  for (let e = 0; e < n; e++) if (moved[e]) distinct.set(keys[e]!, 0);
  const best = [...distinct.keys()].sort((a, b) => b - a);
  best.forEach((key, i) => distinct.set(key, i));
  if (best.length * n >= Number.MAX_SAFE_INTEGER) throw new RangeError(`${best.length} scores × ${n} entries do not fit a sort key`);
  const sortKeys = scratch.floats(count);
  let i = 0;
  for (let e = 0; e < n; e++) if (moved[e]) sortKeys[i++] = distinct.get(keys[e]!)! * n + idRank[e]!;
  sortKeys.sort();
  // Back to entries: the id rank names the entry (`byIdRank`, built once here for the moved ones).
  const byIdRank = scratch.ints(n);
  for (let e = 0; e < n; e++) if (moved[e]) byIdRank[idRank[e]!] = e;
  const out = new Int32Array(count);
  for (let j = 0; j < count; j++) out[j] = byIdRank[sortKeys[j]! % n]!;
  return out;
}

/** The previous order without the moved entries, merged with the moved ones (both in ranking order). */
function merged(sorted: Int32Array, moved: Uint8Array, previous: Int32Array, keys: Float64Array, idRank: Int32Array, n: number): Int32Array {
  const out = new Int32Array(n);
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
      const before = keys[m]! > keys[kept]! || (keys[m] === keys[kept] && idRank[m]! < idRank[kept]!);
      if (!before) break;
      out[at++] = m;
      j++;
    }
    out[at++] = kept;
    p++;
  }
  while (j < sorted.length) out[at++] = sorted[j++]!;
  if (at !== n) throw new Error(`ranked ${at} of ${n} entries`);
  return out;
}

/** The first settled entry in ranking order (alive, every pick a hit): `winningBarOfRanked` on the arrays. */
function barOf(entries: Int32Array, keys: Float64Array, state: Int32Array): WinningBar {
  for (let p = 0; p < entries.length; p++) {
    const e = entries[p]!;
    if (state[e]! & 1) continue;
    const correct = Math.floor(keys[e]! / TIEBREAK_SPAN);
    if (correct === state[e]! >> 1) return { score: correct, tiebreakRank: keys[e]! - correct * TIEBREAK_SPAN };
  }
  return NO_BAR;
}
