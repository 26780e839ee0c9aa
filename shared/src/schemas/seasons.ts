import { z } from 'zod';
import { idSchema } from './common.js';

/* The schemas of seasons (closed seasons are history): one of the files shared/src/schemas.ts gathers. */
/** A draft year: the season it names (2025 = the 2025 draft). */
export const seasonYearSchema = z.number().int().min(2000).max(2999);
/** `seasons.list`: every season; with `group_id` (one of the caller's groups) its winners there. */
export const seasonsListInput = z.strictObject({ group_id: idSchema.optional() }).optional();
export const seasonSummaryOutput = z.object({
  year: z.number(),
  /** The season being played now (its standings are the live ones, at the paths of today). */
  current: z.boolean(),
  deadline: z.string().nullable(),
  opened_at: z.string(),
  closed_at: z.string().nullable(),
  /** Closed seasons: ranked entries globally, or in the group asked about (null: the group was not there). */
  entries: z.number().nullable(),
  /** Closed seasons: who finished first (several on a tie), with their score; empty without entries. */
  winners: z.array(z.object({ participant_id: z.string(), participant_name: z.string() })),
  winning_score: z.number().nullable(),
  /** The caller's own final place (globally, or in the group), null without an entry. */
  my_rank: z.number().nullable(),
});
export type SeasonSummary = z.infer<typeof seasonSummaryOutput>;
export const seasonsListOutput = z.array(seasonSummaryOutput);

export const seasonGroupLeaderboardInput = z.strictObject({
  year: seasonYearSchema,
  group_id: idSchema,
  limit: z.number().int().min(1).max(5000).default(500),
  offset: z.number().int().min(0).max(10_000_000).default(0),
});
export const seasonGlobalLeaderboardInput = seasonGroupLeaderboardInput.omit({ group_id: true });
export type SeasonLeaderboardInput = z.output<typeof seasonGroupLeaderboardInput>;

export const seasonPickOutput = z.object({
  player_id: z.number(),
  player_name: z.string(),
  position: z.string(),
  school: z.string(),
  rank: z.number(),
  /** The round-one slot he went at, null when he was not taken in round one. */
  draft_pick: z.number().nullable(),
  /** The team that held that slot in the season's order (null: not taken, or not known). */
  team: z.string().nullable(),
  hit: z.boolean(),
});
export type SeasonPick = z.infer<typeof seasonPickOutput>;
export const seasonEntryOutput = z.object({
  rank: z.number(),
  participant_id: z.string(),
  /** The name the player had when the season closed. */
  participant_name: z.string(),
  correct_picks: z.number(),
  hits: z.number(),
  picks: z.number(),
  busted: z.boolean(),
  tiebreak_rank: z.number().nullable(),
  /** By board rank; null where they are not the caller's to see (others' global picks, private groups). */
  pick_list: z.array(seasonPickOutput).nullable(),
});
export type SeasonEntry = z.infer<typeof seasonEntryOutput>;
export const seasonLeaderboardOutput = z.object({
  year: z.number(),
  group_id: z.number(),
  /** The group's name when the season closed. */
  group_name: z.string(),
  closed_at: z.string(),
  entries: z.number(),
  rankings: z.array(seasonEntryOutput),
  /** The caller's own final row wherever it ranks, null without an entry. */
  me: seasonEntryOutput.nullable(),
});
export type SeasonLeaderboard = z.infer<typeof seasonLeaderboardOutput>;
