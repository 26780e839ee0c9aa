import { z } from 'zod';
import { MAX_ID } from '../ids.js';
import { MESSAGES } from '../messages.js';
import { hasInvisibleCharacters, hasStackedMarks, MAX_STACKED_MARKS } from '../names.js';

/** A database id: a positive 32-bit integer (ids written in REST paths and queries are read by `parseId`, shared/src/ids.ts). */
export const idSchema = z.number().int().positive().max(MAX_ID);
/** A date as the wire carries it: an ISO 8601 string. */
export const isoDate = z.string();

/**
 * `before`: the draft as it was at that moment (ISO 8601 with a zone, e.g. 2026-04-23T20:00:45Z), as of its
 * last change recorded before it. What a page loaded with a viewing delay shows at once (client/src/lib/
 * hold-gate.ts); the server refuses a moment later than its own clock (400, server/src/modules/draft/as-of.ts).
 */
export const beforeSchema = z.iso.datetime({ offset: true, error: 'before must be a date and time in ISO 8601 with a zone, e.g. 2026-04-23T20:00:45Z' });
/** The input of a read that takes nothing but `before` (draft.status, players.list). */
export const asOfInput = z.strictObject({ before: beforeSchema.optional() }).optional();
export type AsOfInput = z.output<typeof asOfInput>;

/**
 * Every name people see (usernames, group names): NFC-normalised (stored that way, so the database's
 * case-insensitive unique indexes compare one form), trimmed, free of invisible and control characters
 * (names.ts: Unicode's default ignorables, written out, and the rest) and of marks stacked on one letter
 * (names.ts, MAX_STACKED_MARKS), then the length rules. Messages name the field. Whether a name passes for
 * another's is the server's to say (name-keys.ts, `nameKeys`).
 */
export function displayNameSchema(field: string, min: number, max: number, tooShort: string) {
  return z
    .string()
    .normalize('NFC')
    .trim()
    .min(min, tooShort)
    .max(max, `${field} must be at most ${max} characters`)
    .refine((v) => !hasInvisibleCharacters(v), `${field} must not contain invisible or control characters`)
    .refine((v) => !hasStackedMarks(v), MESSAGES.nameMarksStacked(field, MAX_STACKED_MARKS));
}

/** Text that only travels (ids, tokens, passwords): never a NUL, which PostgreSQL text cannot hold. */
export const NUL_MESSAGE = 'Text must not contain NUL characters';
const hasNoNul = (v: string) => !v.includes('\u0000');
export const safeText = (max: number) => z.string().max(max).refine(hasNoNul, NUL_MESSAGE);

/** A participant id as the identity providers make them (`user_…`; `temp_…` for the account fix). */
export const participantIdSchema = z.string().max(200).regex(/^(user|temp)_[A-Za-z0-9_-]+$/, 'Not a participant id');
