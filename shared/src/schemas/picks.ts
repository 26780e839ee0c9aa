import { z } from 'zod';
import { MAX_PICKS, MIN_PICKS } from '../constants.js';
import { MESSAGES } from '../messages.js';
import { idSchema, participantIdSchema } from './common.js';

/* The schemas of picks: one of the files shared/src/schemas.ts gathers. */
export const myPicksInput = z.strictObject({ group_id: idSchema.optional() }).optional();
export const picksOutput = z.object({ picks: z.array(z.number()), group_id: z.number(), use_global_picks: z.boolean() });
/**
 * A set of picks, 1 to 32 players, with its message (docs/rules.md, "Entries and picks": the server enforces the bound; the
 * selection screen shows Too Many Picks for the INVALID_INPUT kind this answers).
 */
export const picksSchema = z.array(idSchema).min(MIN_PICKS, MESSAGES.picksCountOutOfRange).max(MAX_PICKS, MESSAGES.picksCountOutOfRange);
export const savePicksInput = z.strictObject({
  picks: picksSchema,
  group_id: idSchema.optional(),
});
export const savePicksOutput = z.object({ success: z.boolean(), picks: z.array(z.number()), group_id: z.number() });
export const participantPicksInput = z.strictObject({ group_id: idSchema, participant_id: participantIdSchema });
