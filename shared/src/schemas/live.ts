import { z } from 'zod';
import type { DraftChange } from './draft.js';
import { leaderboardInput, leaderboardOutput, leaderboardRowOutput } from './leaderboard.js';

/* The schemas of the live stream (draft.changes): one of the files shared/src/schemas.ts gathers. */
/**
 * Opening or resuming the live stream: the last event id seen (an audit-log id, a decimal safe integer),
 * and optionally the standings page on screen, which the stream then sends again, re-ranked, after every
 * change (a `standings` update), so that page needs no request on draft night.
 */
/** Where a reconnecting stream resumes: the last event id it saw (SSE's Last-Event-ID). */
const lastEventIdSchema = z
  .string()
  .regex(/^\d{1,16}$/, 'lastEventId must be an event id')
  .refine((v) => Number.isSafeInteger(Number(v)), 'lastEventId must be an event id')
  .nullish();
export const draftChangesInput = z
  .strictObject({
    lastEventId: lastEventIdSchema,
    standings: leaderboardInput.optional(),
  })
  .optional();
export type DraftChangesInput = z.output<typeof draftChangesInput>;
/**
 * The spectators' stream (draft.publicChanges): no standings page to name, for it carries the one public
 * page (the global top 100, leaderboard.public) after every change.
 */
export const publicChangesInput = z.strictObject({ lastEventId: lastEventIdSchema }).optional();
export type PublicChangesInput = z.output<typeof publicChangesInput>;

/**
 * The watched standings page as of draft change `event_id` (the answer leaderboard.group gives then): what
 * the web app's live layer puts together from the stream's two standings messages below, and what an older
 * server sent whole (still understood by the web app, for a rolling deploy: docs/decisions.md).
 */
export const standingsUpdate = z.object({
  kind: z.literal('standings'),
  event_id: z.number(),
  leaderboard: leaderboardOutput,
});
export type StandingsUpdate = z.infer<typeof standingsUpdate>;

/**
 * The watched page without the reader's own part: the same bytes for every watcher of that page, so the
 * fan-out builds (and compresses) it once per change (docs/decisions.md, "National scale: the fan-out").
 */
export const standingsPage = z.object({
  kind: z.literal('standings_page'),
  event_id: z.number(),
  leaderboard: leaderboardOutput.omit({ me: true, me_position: true }),
});
export type StandingsPage = z.infer<typeof standingsPage>;

/**
 * The reader's own part of the watched page (leaderboard.group's `me` and `me_position`): sent just before
 * the page it belongs to, in the same write, on a stream's first page and whenever it changed; otherwise
 * the last one sent still holds.
 */
export const standingsMine = z.object({
  kind: z.literal('standings_me'),
  event_id: z.number(),
  group_id: z.number(),
  me: leaderboardRowOutput.nullable(),
  me_position: z.number().nullable(),
});
export type StandingsMine = z.infer<typeof standingsMine>;

/** What the live stream carries: every draft change and, when asked for, the standings after it, in two parts. */
export type LiveMessage = DraftChange | StandingsPage | StandingsMine;
/** What the web app's live layer hands on: a change, or a watched page put together whole. */
export type LiveUpdate = DraftChange | StandingsUpdate;
export const isStandingsUpdate = (message: LiveUpdate): message is StandingsUpdate => message.kind === 'standings';
