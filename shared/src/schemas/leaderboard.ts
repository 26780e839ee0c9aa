import { z } from 'zod';
import { beforeSchema, idSchema, safeText } from './common.js';
import { entryModeSchema } from './groups.js';

/* The schemas of the leaderboard: one of the files shared/src/schemas.ts gathers. */

/**
 * An entry's odds in the standings (docs/rules.md, "Odds"): its chance to survive round one and to finish
 * first among the standings' entries (a group's; the global standings: every global entry; sharing first
 * counts), from the same seeded batch every screen draws.
 */
export const standingOddsOutput = z.object({
  /** The chance (0..1) the entry is alive when round one completes. */
  survive: z.number().min(0).max(1),
  /** The chance (0..1) it finishes first in the group (globally: among every global entry), alone or sharing first. */
  win: z.number().min(0).max(1),
  /** '37 % to survive · 12 % to win'. */
  text: z.string(),
});
export type StandingOdds = z.infer<typeof standingOddsOutput>;

export const leaderboardRowOutput = z.object({
  rank: z.number(),
  participant_id: z.string(),
  participant_name: z.string(),
  correct_picks: z.number(),
  busted: z.boolean(),
  tiebreak_rank: z.number().nullable(),
  /** The entry's number of picks. An alive entry has no miss: `picks - correct_picks` of its picks are pending. */
  picks: z.number(),
  /**
   * Picks taken in round one, busted or not: a busted entry scores 0 (`correct_picks`) and 'had 9 hits'.
   * `misses`: picks that can no longer hit (taken later, or undrafted once round one is complete); the
   * rest, `picks - hits - misses`, are pending: more of them than round-one slots left busts the entry.
   */
  hits: z.number(),
  misses: z.number(),
  /** Best possible final score: every pending pick hits (`picks` while alive); 0 once busted. */
  max_possible: z.number(),
  /**
   * Whether it can still finish first (alone or sharing first): alive, and its best case reaches the best
   * score already certain in this group (shared/src/contention.ts). False: "Can't finish 1st".
   */
  can_win: z.boolean(),
  /**
   * The entry's odds while round one runs, in a group's standings and the global ones alike; absent once
   * round one is complete (results only).
   */
  odds: standingOddsOutput.optional(),
});
export type LeaderboardRow = z.infer<typeof leaderboardRowOutput>;
/** Longest name search on the standings (screen names are shorter). */
export const STANDINGS_SEARCH_MAX = 50;
export const entryStatus = z.enum(['alive', 'busted']);
export type EntryStatus = z.infer<typeof entryStatus>;
/**
 * A page of the standings: big groups (the global one) are read a page at a time, optionally only the
 * entries whose name contains `search` (ignoring case; blank: everyone) or only alive or busted ones.
 */
export const leaderboardInput = z.strictObject({
  group_id: idSchema,
  limit: z.number().int().min(1).max(5000).default(500),
  offset: z.number().int().min(0).max(10_000_000).default(0),
  search: safeText(STANDINGS_SEARCH_MAX).optional(),
  status: entryStatus.optional(),
  /** The standings as of the draft's last change before this moment (common.ts, `beforeSchema`). */
  before: beforeSchema.optional(),
});
export type LeaderboardInput = z.output<typeof leaderboardInput>;
/** A reference entry from the big board alone (shared/src/benchmark-entries.ts): scored, never ranked. */
export const benchmarkRowOutput = z.object({
  key: z.enum(['board_top_32', 'chalk_20', 'top_10']),
  name: z.string(),
  picks: z.number(),
  correct_picks: z.number(),
  pending: z.number(),
  busted: z.boolean(),
  tiebreak_rank: z.number().nullable(),
  max_possible: z.number(),
});
export type BenchmarkRowDto = z.infer<typeof benchmarkRowOutput>;
export const benchmarkRowsOutput = z.array(benchmarkRowOutput);

export const leaderboardOutput = z.object({
  group_id: z.number(),
  draft_started: z.boolean(),
  /** Ranked entries in the group (entries with at least one pick). */
  entries: z.number(),
  /** Entries not busted yet. */
  alive: z.number(),
  /**
   * The participant whose entry has clinched first place while round one runs (settled, and no other entry
   * can still finish first: 'Clinched 1st'), whatever page is read; null otherwise.
   */
  clinched_by: z.string().nullable(),
  rankings: z.array(leaderboardRowOutput),
  /** The caller's own row wherever it ranks, or null without an entry. */
  me: leaderboardRowOutput.nullable(),
  /** How many rows `limit`/`offset` page through: `entries`, or those matching `search` and `status`. */
  matches: z.number(),
  /**
   * The caller's 0-based position among those rows, or null (no entry, or it does not match): their page
   * starts at `floor(me_position / limit) * limit`.
   */
  me_position: z.number().nullable(),
  /**
   * The benchmark entries (Big board top 32, Chalk 20, Top 10 only) with their live scores, the same on
   * every leaderboard; not ranked, not counted in `entries`. Empty before the start or when the operator
   * switched them off (BENCHMARK_ENTRIES=false).
   */
  benchmarks: benchmarkRowsOutput,
});
export type Leaderboard = z.infer<typeof leaderboardOutput>;

/**
 * The field (leaderboard.field): after the start, how many entries picked each player, globally (no
 * group_id, or 1) or in one of the caller's groups. An entry is a pick set with at least one pick, counted
 * as the standings count it (a member reusing global picks: their global set).
 */
export const fieldInput = z.strictObject({ group_id: idSchema.optional() }).optional();
export const fieldRowOutput = z.object({
  player_id: z.number(),
  player_name: z.string(),
  /** Entries in the scope holding this player (always at least 1: unpicked players are left out). */
  picked_by: z.number(),
  /** Entries in the scope (the same on every row). */
  entries: z.number(),
  /** picked_by / entries, 0..1, rounded to 4 decimals (0.1234 = 12.34 %). */
  share: z.number(),
});
export type FieldRow = z.infer<typeof fieldRowOutput>;
/** Most picked first, then by big-board rank. */
export const fieldOutput = z.array(fieldRowOutput);

/** The caller's entry in one of their groups, for the group cards (leaderboard.myGroups). */
export const myGroupStandingOutput = z.object({
  group_id: z.number(),
  members: z.number(),
  /** Members whose entry here has picks (their My Picks when they reuse them): the '2 of 3 ready'. */
  ready: z.number(),
  /** Whether the caller's own entry here has picks. */
  has_picks: z.boolean(),
  /** The caller's entry here is their My Picks (global) set, not picks of its own (REST clients' flag). */
  use_global_picks: z.boolean(),
  /** The same in words: 'linked' (follows My Picks, the default) or 'own' (forked for this group). */
  entry_mode: entryModeSchema,
  /** How many picks the caller's entry here holds ('Using My Picks · 10', 'Own picks · 8'). */
  my_picks: z.number(),
  /**
   * After the start, the caller's place here ('3rd of 12 · Alive'; once final '1st of 3 · Winner'); null
   * before it or without an entry. `shared`: another entry holds the same rank (a shared first place).
   * `hits` and `misses` as on a standings row: a busted entry scores 0 and 'had 9 hits'.
   */
  standing: z
    .object({ rank: z.number(), entries: z.number(), alive: z.number(), busted: z.boolean(), correct_picks: z.number(), picks: z.number(), hits: z.number(), misses: z.number(), shared: z.boolean() })
    .nullable(),
});
export type MyGroupStanding = z.infer<typeof myGroupStandingOutput>;
export const myGroupStandingsOutput = z.object({ draft_started: z.boolean(), groups: z.array(myGroupStandingOutput) });
export type MyGroupStandings = z.infer<typeof myGroupStandingsOutput>;
