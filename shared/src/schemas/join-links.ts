import { z } from 'zod';
import { MAX_INVITE_HOURS } from '../constants.js';
import { idSchema, isoDate } from './common.js';

/* The schemas of join links: one of the files shared/src/schemas.ts gathers. */
/** A new invite link: for `expiration_hours` hours, or, without them, until picks lock (the draft's deadline). */
export const createJoinLinkInput = z.strictObject({
  group_id: idSchema,
  expiration_hours: z.number().int().min(1).max(MAX_INVITE_HOURS).optional(),
});
/**
 * The link made: `until_picks_lock` when it lasts until the deadline (`expiration_hours` then counts the
 * hours until it, rounded up), and `active_links`, how many links to the group work now, this one included
 * (earlier ones keep working until they expire).
 */
export const joinLinkOutput = z.object({
  token: z.string(),
  group_id: z.number(),
  expires_at: isoDate,
  expiration_hours: z.number(),
  until_picks_lock: z.boolean(),
  active_links: z.number(),
});
/** Invite tokens are base64url; anything else cannot be one (and never reaches the database). */
export const joinLinkTokenInput = z.strictObject({ token: z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/, 'Not an invite token') });
/**
 * Where a link leads, as the signed-out invitation card shows it: no sign-in needed, so nothing beyond the
 * card: screen names only (never e-mails, never picks), at most INVITE_CARD_NAMES of them.
 */
export const resolvedJoinLinkOutput = z.object({
  group_id: z.number(),
  group_name: z.string(),
  expires_at: isoDate,
  /** The screen name of whoever made the link (the owner), null when they have none. */
  invited_by: z.string().nullable(),
  member_count: z.number(),
  /** Screen names of the first members (owner first, then by joining), at most INVITE_CARD_NAMES. */
  member_names: z.array(z.string()),
  /** When picks lock (the draft's deadline), and whether the draft has started already (a joiner then gets no entry). */
  pick_deadline: isoDate,
  draft_started: z.boolean(),
  /** Round one is over: the card says so in final words. */
  round_one_complete: z.boolean(),
});
export type ResolvedJoinLink = z.infer<typeof resolvedJoinLinkOutput>;
