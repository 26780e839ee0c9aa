/**
 * Pure scoring rules for First Round (no I/O).
 *
 * This module is the reference implementation of the leaderboard. The SQL in
 * server/src/modules/leaderboard/leaderboard.sql.ts and the in-memory global
 * standings (global-standings.ts, built on `bustedUnder` and standings-order.ts)
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
 * The bust rule under one draft state, for many entries' counts without an object each (the global
 * standings, standings-order.ts): any miss, or more pending picks than round-one slots remain.
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
