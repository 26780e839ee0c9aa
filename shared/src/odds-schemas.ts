/**
 * The odds in the answers (docs/api.md, "Odds"; the model: docs/rules.md, "Odds"). Chances are 0..1 with
 * their words beside them ('37 % to survive'), so a client shows the game's wording without rounding its own.
 */
import { z } from 'zod';
import { picksOutput } from './schemas.js';

export const killListItemOutput = z.object({
  player_id: z.number(),
  player_name: z.string(),
  /** The chance (0..1) the player does not go in round one. */
  misses: z.number().min(0).max(1),
  /** 'Jalen Milroe · 58 % to miss round one'. */
  text: z.string(),
});

export const entryOddsOutput = z.object({
  /** The chance (0..1) the entry is alive when round one completes. */
  survive: z.number().min(0).max(1),
  /** '37 % to survive'. */
  survive_text: z.string(),
  /** The pending picks, the one most likely to miss round one first. */
  kill_list: z.array(killListItemOutput),
  /** 'Needs all of: …' (null: nothing pending). */
  needs: z.string().nullable(),
});
export type EntryOddsDto = z.infer<typeof entryOddsOutput>;

/** The caller's own picks with their odds: null once round one is complete (results only) or without picks. */
export const myPicksOutput = picksOutput.extend({ odds: entryOddsOutput.nullable() });
export type MyPicks = z.infer<typeof myPicksOutput>;
