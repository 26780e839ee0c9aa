import { z } from 'zod';
import { idSchema, isoDate } from './common.js';
import { playerOutput } from './draft.js';

/* The results feed's schemas (server/src/modules/feed): one of the files shared/src/schemas.ts gathers. */
/**
 * A feed's pick the server did not record by itself: to confirm (no sure match), a conflict (the slot or
 * player is recorded otherwise), or `team`: the feed names a team we do not know for the slot, or another
 * team than the operator set (`feed.team` against `recorded_team`).
 */
export const feedQueueItemOutput = z.object({
  id: z.number(),
  slot: z.number(),
  kind: z.enum(['confirm', 'conflict', 'team']),
  status: z.enum(['open', 'confirmed', 'dismissed', 'resolved']),
  feed: z.object({ player_name: z.string(), school: z.string(), position: z.string().nullable(), team: z.string().nullable() }),
  /** The board player the feed's name is closest to (null: none close enough). */
  suggested: playerOutput.nullable(),
  /** For a conflict: the player recorded at the slot when it was raised. */
  recorded: playerOutput.nullable(),
  /** Name (and school) similarity of the suggestion, 0–1. */
  score: z.number().nullable(),
  /** For a `team` item: the slot's team when it was raised. */
  recorded_team: z.string().nullable(),
  created_at: isoDate,
});
export type FeedQueueItem = z.infer<typeof feedQueueItemOutput>;
export const feedStatusOutput = z.object({
  configured: z.boolean(),
  kind: z.enum(['espn', 'generic']),
  interval_seconds: z.number(),
  last_poll_at: isoDate.nullable(),
  last_success_at: isoDate.nullable(),
  last_error: z.string().nullable(),
  /** Seconds since the last successful poll (null: none yet). */
  lag_seconds: z.number().nullable(),
  /** Round-one picks the feed reported at its last successful poll. */
  picks_seen: z.number(),
  /** Polls in a row that failed (0 after a success). */
  consecutive_failures: z.number(),
  /** When the next poll is due (null: none scheduled, the draft is not live or nothing polled yet). */
  next_poll_at: isoDate.nullable(),
  /** Seconds until then (0 when due), null with next_poll_at. */
  next_poll_in_seconds: z.number().nullable(),
  /** The feed keeps failing: polls wait longer than the interval, doubling up to a cap. */
  backing_off: z.boolean(),
  /** Open items, oldest slot first. */
  queue: z.array(feedQueueItemOutput),
});
export type FeedStatus = z.infer<typeof feedStatusOutput>;
export const feedConfirmInput = z.strictObject({ id: idSchema, player_id: idSchema.optional() });
export const feedDismissInput = z.strictObject({ id: idSchema });
export const feedDecisionOutput = z.object({ item: feedQueueItemOutput, event_id: z.number().nullable() });
