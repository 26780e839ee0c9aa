import { z } from 'zod';
import { GROUP_NAME_MAX } from '../constants.js';
import { isLongEnoughGroupPassword } from '../join-words.js';
import { MESSAGES } from '../messages.js';
import { displayNameSchema, idSchema, isoDate, safeText } from './common.js';

/* The schemas of groups: one of the files shared/src/schemas.ts gathers. */
export const groupNameSchema = displayNameSchema('Group name', 1, GROUP_NAME_MAX, MESSAGES.groupNameRequired);
export const groupOutput = z.object({
  id: z.number(),
  group_id: z.number(),
  name: z.string(),
  is_public: z.boolean(),
  picks_public: z.boolean(),
  has_password: z.boolean(),
  /** Whether members other than the owner may invite (the owner's setting, on unless turned off). */
  members_can_invite: z.boolean(),
  member_count: z.number(),
  created_at: isoDate,
});
export type GroupDto = z.infer<typeof groupOutput>;
export const groupsOutput = z.array(groupOutput);

export const createGroupInput = z.strictObject({
  name: groupNameSchema,
  picks_public: z.boolean().default(false),
  is_public: z.boolean().default(false),
  /** Empty or left out: no password. */
  password: safeText(200)
    .refine((v) => v === '' || isLongEnoughGroupPassword(v), MESSAGES.groupPasswordTooShort)
    .optional(),
});
export const createSimpleGroupInput = z.strictObject({ name: groupNameSchema });
export const groupIdInput = z.strictObject({ group_id: idSchema });
export const joinGroupInput = z.strictObject({ group_id: idSchema, password: safeText(200).optional() });
/**
 * What a refused join by id carries beside its message (REST: in the error body; tRPC: in `error.data`),
 * so clients need not read the words: the tries left before a join limit (the tighter of the group's and
 * the player's), and once none are left which limit holds ('group': wrong passwords for this group;
 * 'player': failed joins anywhere) and when a try is allowed again.
 */
export const joinRefusalData = z.object({
  tries_left: z.number().int().min(0),
  lockout: z.enum(['group', 'player']).optional(),
  retry_at: isoDate.optional(),
});
export type JoinRefusalData = z.infer<typeof joinRefusalData>;
/**
 * A join's answer, with where the draft is: after the start a new member gets no entry, and `message` says
 * what they will and will not see (shared/src/join-words.ts, `lateJoinNotice`).
 */
export const joinResultOutput = z.object({
  success: z.boolean(),
  group_id: z.number(),
  already_member: z.boolean(),
  message: z.string(),
  draft_started: z.boolean(),
  round_one_complete: z.boolean(),
});
export const leaveResultOutput = z.object({ success: z.boolean(), group_deleted: z.boolean() });
export const memberCountOutput = z.object({ group_id: z.number(), member_count: z.number() });
/** How a member's entry in a group is made: 'linked' follows their My Picks (the default), 'own' was forked for the group (shared/src/entries.ts). */
export const entryModeSchema = z.enum(['linked', 'own']);
export const membershipOutput = z.object({
  group_id: z.number(),
  participant_id: z.string(),
  is_member: z.boolean(),
  is_owner: z.boolean(),
  /** The entry here is the caller's My Picks (REST clients' flag; `entry_mode` says the same in words). */
  use_global_picks: z.boolean(),
  /** Null for a caller who is not a member. */
  entry_mode: entryModeSchema.nullable(),
  /** Whether the caller may make invite links to the group: its owner, or a member while the owner lets members invite. */
  can_invite: z.boolean(),
});
export const memberOutput = z.object({
  participant_id: z.string(),
  participant_name: z.string(),
  screen_name: z.string().nullable(),
  is_owner: z.boolean(),
  has_picks: z.boolean(),
  /** Whether this member plays their My Picks here ('linked') or picks of their own ('own'); never the picks. */
  entry_mode: entryModeSchema,
  joined: isoDate,
});
export const membersOutput = z.array(memberOutput);
export const useGlobalPicksInput = z.strictObject({ group_id: idSchema, use_global_picks: z.boolean() });
/** A group's new password (GROUP_PASSWORD_MIN characters at least), or null to remove it (joining by id then needs none). */
export const groupPasswordSchema = safeText(200)
  .refine((v) => v.trim().length > 0, { message: MESSAGES.groupPasswordBlank, abort: true })
  .refine(isLongEnoughGroupPassword, MESSAGES.groupPasswordTooShort);
export const setGroupPasswordInput = z.strictObject({ group_id: idSchema, password: groupPasswordSchema.nullable() });
/** The owner lets members invite (true, the default) or keeps invites to themselves (false). */
export const setMembersCanInviteInput = z.strictObject({ group_id: idSchema, members_can_invite: z.boolean() });
/** The landing page's live counts: entries on the global leaderboard (players with picks) and groups. */
export const publicCountsOutput = z.object({ entries: z.number(), groups: z.number() });
export type PublicCounts = z.infer<typeof publicCountsOutput>;
