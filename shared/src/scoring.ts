/**
 * Pure scoring rules for First Round (no I/O).
 *
 * This module is the reference implementation of the leaderboard. The SQL in
 * server/src/modules/leaderboard/leaderboard.sql.ts and the in-memory global
 * standings (global-standings.ts, built on `scoreCounts` and `orderByScore`)
 * must produce exactly the same rows; server/test/leaderboard-sql.test.ts and
 * this module's tests check that on randomized data.
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
 */

import { contentionOf, winningBar } from './contention.js';

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

export function pickOutcome(p: PickedPlayer, d: DraftSnapshot): PickOutcome {
  if (p.draftRound === 1) return 'hit';
  if (p.draftRound !== null && p.draftRound > 1) return 'miss';
  if (p.draftRound === null && isRoundOneComplete(d)) return 'miss';
  return 'pending';
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
 * What the rules need to know about one entry: the counts PostgreSQL keeps per pick set in `entry_stat`
 * (picks, hits = taken in round one, later-round picks, largest big-board rank among the hits).
 */
export interface EntryCounts {
  picks: number;
  hits: number;
  laterRound: number;
  /** null without hits. */
  maxHitRank: number | null;
}

export function countPicks(picks: readonly PickedPlayer[]): EntryCounts {
  let hits = 0;
  let laterRound = 0;
  let maxHitRank: number | null = null;
  for (const p of picks) {
    if (p.draftRound === 1) {
      hits++;
      if (maxHitRank === null || p.rank > maxHitRank) maxHitRank = p.rank;
    } else if (p.draftRound !== null && p.draftRound > 1) {
      laterRound++;
    }
  }
  return { picks: picks.length, hits, laterRound, maxHitRank };
}

/** The rules applied to an entry's counts; `scoreEntry` is this applied to `countPicks`. */
export function scoreCounts(c: EntryCounts, d: DraftSnapshot): EntryScore {
  const complete = isRoundOneComplete(d);
  const undrafted = c.picks - c.hits - c.laterRound;
  // Once round one is complete an undrafted pick is a miss; until then it is pending.
  const misses = c.laterRound + (complete ? undrafted : 0);
  const pending = complete ? 0 : undrafted;
  const busted = misses > 0 || pending > remainingSlots(d);
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

export function scoreEntry(picks: readonly PickedPlayer[], d: DraftSnapshot): EntryScore {
  return scoreCounts(countPicks(picks), d);
}

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
  /** Best possible final score and whether it can still finish first (shared/src/contention.ts). */
  max_possible: number;
  can_win: boolean;
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
 * Leaderboard order: correct_picks desc, then tiebreak_rank desc with nulls
 * last (the bolder entry, whose worst-ranked hit is ranked larger, wins).
 * Entries equal on both share a rank, competition style (1, 2, 2, 4); within
 * a shared rank rows are ordered by participant_id (COLLATE "C" order).
 * Entries without picks are not ranked.
 */
export function rankEntries(entries: readonly Entry[], d: DraftSnapshot): RankedRow[] {
  const scored = entries
    .filter((e) => e.picks.length > 0)
    .map((e) => ({ entry: e, score: scoreEntry(e.picks, d) }));

  scored.sort((a, b) => {
    if (a.score.correctPicks !== b.score.correctPicks) {
      return b.score.correctPicks - a.score.correctPicks;
    }
    const ta = a.score.tiebreakRank;
    const tb = b.score.tiebreakRank;
    if (ta !== tb) {
      if (ta === null) return 1;
      if (tb === null) return -1;
      return tb - ta;
    }
    return compareCodePoints(a.entry.participantId, b.entry.participantId);
  });

  const rows: Omit<RankedRow, 'max_possible' | 'can_win'>[] = [];
  let prev: EntryScore | null = null;
  let rank = 0;
  for (const [i, { entry, score }] of scored.entries()) {
    if (
      prev === null ||
      prev.correctPicks !== score.correctPicks ||
      prev.tiebreakRank !== score.tiebreakRank
    ) {
      rank = i + 1;
    }
    prev = score;
    rows.push({
      rank,
      participant_id: entry.participantId,
      participant_name: entry.participantName,
      correct_picks: score.correctPicks,
      busted: score.busted,
      tiebreak_rank: score.tiebreakRank,
      picks: entry.picks.length,
    });
  }
  // Who can still win is measured against the scope's best certain score (contention.ts): any order.
  const bar = winningBar(rows);
  return rows.map((row) => ({ ...row, ...contentionOf(row, bar) }));
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

/** Leaderboard positions: `entries[p]` is the entry index at position p, `ranks[p]` its competition rank. */
export interface Positions {
  entries: Int32Array;
  ranks: Int32Array;
}

/**
 * The order and ranks of `rankEntries` for many scored entries at once, in linear time (the global
 * standings re-rank 100,000 entries after every pick): a counting sort on (correct picks, tie-break),
 * descending, that walks `idOrder` (entry indexes by participant id, see `codePointOrder`) so every
 * bucket keeps id order. Only the entries in `idOrder` are placed.
 */
export function orderByScore(scores: readonly Pick<EntryScore, 'correctPicks' | 'tiebreakRank'>[], idOrder: readonly number[]): Positions {
  let maxCorrect = 0;
  let maxTiebreak = 0;
  let whole = true;
  for (const i of idOrder) {
    const s = scores[i]!;
    if (s.correctPicks > maxCorrect) maxCorrect = s.correctPicks;
    if (s.tiebreakRank !== null && s.tiebreakRank > maxTiebreak) maxTiebreak = s.tiebreakRank;
    whole &&= Number.isInteger(s.correctPicks) && s.correctPicks >= 0 && (s.tiebreakRank === null || (Number.isInteger(s.tiebreakRank) && s.tiebreakRank > 0));
  }
  // One number per (score, tie-break) pair, larger = better; a null tie-break (0) sorts after any rank.
  const width = maxTiebreak + 1;
  const key = (i: number) => scores[i]!.correctPicks * width + (scores[i]!.tiebreakRank ?? 0);
  const buckets = (maxCorrect + 1) * width;
  const n = idOrder.length;
  const entries = new Int32Array(n);
  const ranks = new Int32Array(n);
  if (whole && buckets <= 1 << 20) {
    // Big-board ranks and pick counts are small: one slot per possible key.
    const keys = new Int32Array(scores.length);
    const starts = new Int32Array(buckets);
    for (const i of idOrder) starts[(keys[i] = key(i))]!++;
    let at = 0;
    for (let k = buckets - 1; k >= 0; k--) {
      const size = starts[k]!;
      starts[k] = at;
      at += size;
    }
    const next = starts.slice();
    for (const i of idOrder) {
      const k = keys[i]!;
      const p = next[k]!++;
      entries[p] = i;
      ranks[p] = starts[k]! + 1;
    }
    return { entries, ranks };
  }
  const sizes = new Map<number, number>();
  for (const i of idOrder) sizes.set(key(i), (sizes.get(key(i)) ?? 0) + 1);
  const starts = new Map<number, number>();
  let at = 0;
  for (const k of [...sizes.keys()].sort((a, b) => b - a)) {
    starts.set(k, at);
    at += sizes.get(k)!;
  }
  const next = new Map(starts);
  for (const i of idOrder) {
    const k = key(i);
    const p = next.get(k)!;
    next.set(k, p + 1);
    entries[p] = i;
    ranks[p] = starts.get(k)! + 1;
  }
  return { entries, ranks };
}
