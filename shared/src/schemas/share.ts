import { z } from 'zod';
import { idSchema } from './common.js';

/* The schemas of share cards: one of the files shared/src/schemas.ts gathers. */
/** Whose entry the card shows: the caller's, in this group (absent: the global leaderboard). */
export const createShareLinkInput = z.strictObject({ group_id: idSchema.optional() });
/**
 * A share link: the token (at least 128 random bits, base64url), the public page (`/s/{token}`) and its
 * picture (`/api/share/{token}.png`): absolute, on the server's configured public address (PUBLIC_URL). The
 * same (participant, group) always gets the same link.
 */
export const shareLinkOutput = z.object({ token: z.string(), group_id: z.number(), url: z.string(), image_url: z.string() });
export type ShareLink = z.infer<typeof shareLinkOutput>;
/** Share tokens are base64url, as invite tokens are: anything else cannot be one (and never reaches the database). */
export const shareTokenSchema = z.string().min(20).max(64).regex(/^[A-Za-z0-9_-]+$/, 'Not a share token');
