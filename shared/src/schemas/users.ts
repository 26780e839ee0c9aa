import { z } from 'zod';
import { USERNAME_MAX, USERNAME_MIN } from '../constants.js';
import { usernameRuleMessage } from '../messages.js';
import { displayNameSchema, isoDate, participantIdSchema } from './common.js';

/* The schemas of users and auth: one of the files shared/src/schemas.ts gathers. */
export const usernameSchema = displayNameSchema('Username', USERNAME_MIN, USERNAME_MAX, usernameRuleMessage.tooShort);

export const profileOutput = z.object({
  id: z.string(),
  participant_id: z.string(),
  email: z.string().nullable(),
  screen_name: z.string().nullable(),
  is_first_login: z.boolean().nullable(),
  is_admin: z.boolean(),
});
export type Profile = z.infer<typeof profileOutput>;

export const updateScreenNameInput = z.strictObject({ screen_name: usernameSchema });
export const userStatusOutput = z.object({ is_first_login: z.boolean().nullable() });
/** "E-mail me before picks lock" (Settings): reminders 24 h and 1 h before the deadline. */
export const remindersSetting = z.strictObject({ reminders: z.boolean() });
export type RemindersSetting = z.infer<typeof remindersSetting>;

export const migrateParticipantInput = z.strictObject({
  temp_id: participantIdSchema,
  clerk_id: participantIdSchema,
});
export const migrateParticipantOutput = z.object({
  success: z.boolean(),
  message: z.string(),
  moved_picks: z.number(),
  moved_memberships: z.number(),
});

export const authTestOutput = z.object({
  success: z.boolean(),
  message: z.string(),
  user_id: z.string(),
  email: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  token_info: z.object({
    provider: z.enum(['local', 'clerk']),
    length: z.number(),
    preview: z.string(),
    issued_at: isoDate.nullable(),
    expires_at: isoDate.nullable(),
    expires_in_seconds: z.number().nullable(),
  }),
});

export const jwtDebugOutput = z.object({
  provider: z.enum(['local', 'clerk']),
  token_length: z.number(),
  token_preview: z.string(),
  header: z.record(z.string(), z.unknown()),
  claims: z.record(z.string(), z.unknown()),
  valid: z.boolean(),
});
