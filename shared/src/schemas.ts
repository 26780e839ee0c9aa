import { z } from 'zod';
import { GROUP_NAME_MAX, MAX_INVITE_HOURS, MAX_PICKS, MAX_VIEWING_DELAY_SECONDS, MIN_PICKS, USERNAME_MAX, USERNAME_MIN } from './constants.js';
import { MAX_ID } from './ids.js';
import { isLongEnoughGroupPassword } from './join-words.js';
import { MESSAGES, usernameRuleMessage } from './messages.js';
import { hasInvisibleCharacters, hasStackedMarks, MAX_STACKED_MARKS } from './names.js';
import { RISK_BANDS } from './risk-bands.js';
import { findTeam, TEAM_ABBREVIATIONS } from './teams.js';

/*
 * One schema per procedure input and output, named for what it is. The server validates with them, the
 * REST adapter and OpenAPI document are generated from them, and the client's forms reuse them.
 * Inputs are strict: unknown fields are refused, not silently dropped.
 */

/** A database id: a positive 32-bit integer (ids written in REST paths and queries are read by `parseId`, shared/src/ids.ts). */
export const idSchema = z.number().int().positive().max(MAX_ID);
const isoDate = z.string();

// ---------------------------------------------------------------- players and draft
export const playerOutput = z.object({
  id: z.number(),
  rank: z.number(),
  player_name: z.string(),
  position: z.string(),
  school: z.string(),
  draft_round: z.number().nullable(),
  draft_pick: z.number().nullable(),
  /** The risk band the selection screen shows: the board's own, else by rank (shared/src/risk-bands.ts). */
  band: z.enum(RISK_BANDS),
});
export type PlayerDto = z.infer<typeof playerOutput>;
export const playersOutput = z.array(playerOutput);

/**
 * One of the 32 teams by its abbreviation (shared/src/teams.ts), any case on the way in ('sea' → 'SEA');
 * anything else is refused with the message naming the field.
 */
export const teamSchema = z
  .string()
  .max(40)
  .transform((v) => findTeam(v)?.abbreviation ?? v)
  .pipe(z.enum(TEAM_ABBREVIATIONS, { error: 'team must be one of the 32 NFL teams by abbreviation (ARI, ATL, … WAS)' }));
/** A round-one slot and the team that holds it now (null: not known, e.g. a season opened without an order). */
export const orderSlotOutput = z.object({ slot: z.number(), team: z.string().nullable() });
export type OrderSlot = z.infer<typeof orderSlotOutput>;

export const draftStatusOutput = z.object({
  draftHasStarted: z.boolean(),
  deadline: isoDate,
  started_at: isoDate.nullable(),
  picks_made: z.number(),
  round_one_complete: z.boolean(),
  round_one_picks: z.number(),
  /** Id of the latest draft change (0 before any): changes whenever anything about the draft does. */
  last_event_id: z.number(),
  /**
   * When that change was recorded (null before any): a page opened with a viewing delay holds back only
   * what changed within the delay (client/src/lib/hold-gate.ts).
   */
  last_change_at: isoDate.nullable(),
  /** Round one's order: slots 1 to round_one_picks, each with the team that holds it now (traded picks included). */
  round_one_order: z.array(orderSlotOutput),
});
export type DraftStatus = z.infer<typeof draftStatusOutput>;

/** `team`: a slot changed hands (a traded pick, set by the operator or the feed); `undo_team`: that taken back. */
export const draftChangeKind = z.enum(['start', 'auto_start', 'pick', 'undo', 'complete_round', 'reopen_round', 'reset', 'team', 'undo_team']);
export const draftChange = z.object({
  event_id: z.number(),
  kind: draftChangeKind,
  slot: z.number().optional(),
  player: playerOutput.optional(),
  /** `team` / `undo_team`: the slot's team after the change and before it (null: none known). */
  team: z.string().nullable().optional(),
  team_before: z.string().nullable().optional(),
  at: isoDate,
});
export type DraftChange = z.infer<typeof draftChange>;


export const recordPickInput = z.strictObject({ slot: idSchema, player_id: idSchema });
/** The operator gives a slot to another team (a traded pick). */
export const setTeamInput = z.strictObject({ slot: idSchema, team: teamSchema });
/**
 * What `draft.undo` would take back now (the operator's console asks before undoing), or null: the
 * "complete" mark (`reopen_round`), the pick at the highest filled slot (`undo`, with its player), or the
 * latest team change since the last reset (`undo_team`: the slot goes from `team_before` back to `team`).
 */
export const nextUndoOutput = z.object({
  change: z
    .object({
      kind: z.enum(['reopen_round', 'undo', 'undo_team']),
      slot: z.number().nullable(),
      player_name: z.string().nullable(),
      team: z.string().nullable(),
      team_before: z.string().nullable(),
    })
    .nullable(),
});
export type NextUndo = z.infer<typeof nextUndoOutput>['change'];
export const draftEventOutput = z.object({
  id: z.number(),
  /** The same kinds as a live change (the audit log is what changes are read back from). */
  kind: draftChangeKind,
  slot: z.number().nullable(),
  player_id: z.number().nullable(),
  player_name: z.string().nullable(),
  /** Team changes: the slot's team after and before. */
  team: z.string().nullable(),
  team_before: z.string().nullable(),
  actor: z.string(),
  created_at: isoDate,
});
export const draftEventsOutput = z.array(draftEventOutput);

// ---------------------------------------------------------------- results feed (server/src/modules/feed)
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

// ---------------------------------------------------------------- names and other text
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

// ---------------------------------------------------------------- users and auth
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

// ---------------------------------------------------------------- groups
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

// ---------------------------------------------------------------- join links
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

// ---------------------------------------------------------------- share cards
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

// ---------------------------------------------------------------- picks
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

// ---------------------------------------------------------------- leaderboard
export const leaderboardRowOutput = z.object({
  rank: z.number(),
  participant_id: z.string(),
  participant_name: z.string(),
  correct_picks: z.number(),
  busted: z.boolean(),
  tiebreak_rank: z.number().nullable(),
  /** The entry's number of picks. An alive entry has no miss: `picks - correct_picks` of its picks are pending. */
  picks: z.number(),
  /**
   * Picks taken in round one, busted or not: a busted entry scores 0 (`correct_picks`) and 'had 9 hits'.
   * `misses`: picks that can no longer hit (taken later, or undrafted once round one is complete); the
   * rest, `picks - hits - misses`, are pending: more of them than round-one slots left busts the entry.
   */
  hits: z.number(),
  misses: z.number(),
  /** Best possible final score: every pending pick hits (`picks` while alive); 0 once busted. */
  max_possible: z.number(),
  /**
   * Whether it can still finish first (alone or sharing first): alive, and its best case reaches the best
   * score already certain in this group (shared/src/contention.ts). False: "Can't finish 1st".
   */
  can_win: z.boolean(),
});
export type LeaderboardRow = z.infer<typeof leaderboardRowOutput>;
/** Longest name search on the standings (screen names are shorter). */
export const STANDINGS_SEARCH_MAX = 50;
export const entryStatus = z.enum(['alive', 'busted']);
export type EntryStatus = z.infer<typeof entryStatus>;
/**
 * A page of the standings: big groups (the global one) are read a page at a time, optionally only the
 * entries whose name contains `search` (ignoring case; blank: everyone) or only alive or busted ones.
 */
export const leaderboardInput = z.strictObject({
  group_id: idSchema,
  limit: z.number().int().min(1).max(5000).default(500),
  offset: z.number().int().min(0).max(10_000_000).default(0),
  search: safeText(STANDINGS_SEARCH_MAX).optional(),
  status: entryStatus.optional(),
});
export type LeaderboardInput = z.output<typeof leaderboardInput>;
/** A reference entry from the big board alone (shared/src/benchmark-entries.ts): scored, never ranked. */
export const benchmarkRowOutput = z.object({
  key: z.enum(['board_top_32', 'chalk_20', 'top_10']),
  name: z.string(),
  picks: z.number(),
  correct_picks: z.number(),
  pending: z.number(),
  busted: z.boolean(),
  tiebreak_rank: z.number().nullable(),
  max_possible: z.number(),
});
export type BenchmarkRowDto = z.infer<typeof benchmarkRowOutput>;
export const benchmarkRowsOutput = z.array(benchmarkRowOutput);

export const leaderboardOutput = z.object({
  group_id: z.number(),
  draft_started: z.boolean(),
  /** Ranked entries in the group (entries with at least one pick). */
  entries: z.number(),
  /** Entries not busted yet. */
  alive: z.number(),
  /**
   * The participant whose entry has clinched first place while round one runs (settled, and no other entry
   * can still finish first: 'Clinched 1st'), whatever page is read; null otherwise.
   */
  clinched_by: z.string().nullable(),
  rankings: z.array(leaderboardRowOutput),
  /** The caller's own row wherever it ranks, or null without an entry. */
  me: leaderboardRowOutput.nullable(),
  /** How many rows `limit`/`offset` page through: `entries`, or those matching `search` and `status`. */
  matches: z.number(),
  /**
   * The caller's 0-based position among those rows, or null (no entry, or it does not match): their page
   * starts at `floor(me_position / limit) * limit`.
   */
  me_position: z.number().nullable(),
  /**
   * The benchmark entries (Big board top 32, Chalk 20, Top 10 only) with their live scores, the same on
   * every leaderboard; not ranked, not counted in `entries`. Empty before the start or when the operator
   * switched them off (BENCHMARK_ENTRIES=false).
   */
  benchmarks: benchmarkRowsOutput,
});
export type Leaderboard = z.infer<typeof leaderboardOutput>;

/**
 * The field (leaderboard.field): after the start, how many entries picked each player, globally (no
 * group_id, or 1) or in one of the caller's groups. An entry is a pick set with at least one pick, counted
 * as the standings count it (a member reusing global picks: their global set).
 */
export const fieldInput = z.strictObject({ group_id: idSchema.optional() }).optional();
export const fieldRowOutput = z.object({
  player_id: z.number(),
  player_name: z.string(),
  /** Entries in the scope holding this player (always at least 1: unpicked players are left out). */
  picked_by: z.number(),
  /** Entries in the scope (the same on every row). */
  entries: z.number(),
  /** picked_by / entries, 0..1, rounded to 4 decimals (0.1234 = 12.34 %). */
  share: z.number(),
});
export type FieldRow = z.infer<typeof fieldRowOutput>;
/** Most picked first, then by big-board rank. */
export const fieldOutput = z.array(fieldRowOutput);

/** The caller's entry in one of their groups, for the group cards (leaderboard.myGroups). */
export const myGroupStandingOutput = z.object({
  group_id: z.number(),
  members: z.number(),
  /** Members whose entry here has picks (their My Picks when they reuse them): the '2 of 3 ready'. */
  ready: z.number(),
  /** Whether the caller's own entry here has picks. */
  has_picks: z.boolean(),
  /** The caller's entry here is their My Picks (global) set, not picks of its own (REST clients' flag). */
  use_global_picks: z.boolean(),
  /** The same in words: 'linked' (follows My Picks, the default) or 'own' (forked for this group). */
  entry_mode: entryModeSchema,
  /** How many picks the caller's entry here holds ('Using My Picks · 10', 'Own picks · 8'). */
  my_picks: z.number(),
  /**
   * After the start, the caller's place here ('3rd of 12 · Alive'; once final '1st of 3 · Winner'); null
   * before it or without an entry. `shared`: another entry holds the same rank (a shared first place).
   * `hits` and `misses` as on a standings row: a busted entry scores 0 and 'had 9 hits'.
   */
  standing: z
    .object({ rank: z.number(), entries: z.number(), alive: z.number(), busted: z.boolean(), correct_picks: z.number(), picks: z.number(), hits: z.number(), misses: z.number(), shared: z.boolean() })
    .nullable(),
});
export type MyGroupStanding = z.infer<typeof myGroupStandingOutput>;
export const myGroupStandingsOutput = z.object({ draft_started: z.boolean(), groups: z.array(myGroupStandingOutput) });
export type MyGroupStandings = z.infer<typeof myGroupStandingsOutput>;

// ---------------------------------------------------------------- a group's draft board
/** A member named on the draft board: their screen name (their id when they have none). */
export const boardMemberOutput = z.object({ participant_id: z.string(), participant_name: z.string() });
export type BoardMember = z.infer<typeof boardMemberOutput>;
/** A round-one slot: its team, the player taken there (null while open) and the members whose entry had him. */
export const boardSlotOutput = z.object({
  slot: z.number(),
  /** The team that holds the slot (null: not known). */
  team: z.string().nullable(),
  player: z.object({ id: z.number(), player_name: z.string(), position: z.string(), school: z.string(), rank: z.number() }).nullable(),
  /**
   * Members whose entry has this player, busted ones included; by name. Empty while the slot is open. Where
   * the group keeps picks private, only the caller (if they had him): `had_by_count` counts everyone.
   */
  had_by: z.array(boardMemberOutput),
  had_by_count: z.number(),
});
export type BoardSlot = z.infer<typeof boardSlotOutput>;
/** An undrafted player some alive entry still needs: each member in `needed_by` busts if he is not taken in round one. */
export const waitingOnOutput = z.object({
  player_id: z.number(),
  player_name: z.string(),
  position: z.string(),
  school: z.string(),
  rank: z.number(),
  /** By name; where the group keeps picks private, only the caller (if they need him). */
  needed_by: z.array(boardMemberOutput),
  /** Every alive entry of the group waiting on him, named or not. */
  needed_by_count: z.number(),
});
export type WaitingOn = z.infer<typeof waitingOnOutput>;
/**
 * A group's round one as it fills (groups.draftBoard, after the start only): every slot with the player
 * taken there and who had him, then the undrafted players alive entries are waiting on, most-needed first.
 */
export const draftBoardOutput = z.object({
  group_id: z.number(),
  /**
   * Whether other members are named (the group's picks_public, as for reading a member's picks). When
   * false, `had_by` and `needed_by` name only the caller; the counts still count every member's entry.
   */
  picks_visible: z.boolean(),
  /** The draft version the board was built at (draft.status's last_event_id). */
  last_event_id: z.number(),
  round_one_complete: z.boolean(),
  /** Entries shown (members with picks here; only the caller's when picks are not visible) and how many are not busted. */
  entries: z.number(),
  alive: z.number(),
  /** Slots 1 to round_one_picks, in order. */
  slots: z.array(boardSlotOutput),
  /** Empty once round one is complete: nothing is pending any more. */
  waiting_on: z.array(waitingOnOutput),
});
export type DraftBoard = z.infer<typeof draftBoardOutput>;

// ---------------------------------------------------------------- live stream (draft.changes)
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

// ---------------------------------------------------------------- seasons (closed seasons are history)
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

// ---------------------------------------------------------------- push notifications (server/src/modules/push)
/** A device's viewing delay ("No spoilers"): its notifications go this many seconds after the pick. */
export const pushDelaySchema = z.number().int().min(0).max(MAX_VIEWING_DELAY_SECONDS);
/**
 * A push service's address for one device, as browsers give them. A shape only: which addresses the server
 * sends to is its own setting (server/src/modules/push/endpoint-policy.ts), checked at subscribe and again
 * at every connection.
 */
export const pushEndpointSchema = z.url({ protocol: /^https?$/ }).max(2048);
/** What `PushSubscription.toJSON()` gives, plus the device's delay. */
export const pushSubscribeInput = z.strictObject({
  endpoint: pushEndpointSchema,
  /** base64url: p256dh a P-256 public key (65 bytes, 87 characters), auth 16 bytes (22); checked whole by the server. */
  keys: z.strictObject({ p256dh: z.string().min(1).max(100), auth: z.string().min(1).max(40) }),
  delay_seconds: pushDelaySchema.default(0),
});
export const pushEndpointInput = z.strictObject({ endpoint: pushEndpointSchema });
export const pushSetDelayInput = z.strictObject({ endpoint: pushEndpointSchema, delay_seconds: pushDelaySchema });
/** Whether this device's endpoint is one of the caller's subscriptions, and its delay. */
export const pushStatusOutput = z.object({ subscribed: z.boolean(), delay_seconds: z.number().nullable() });
export const pushPublicKeyOutput = z.object({ public_key: z.string() });
/** What the service worker gets in a push: shown as a notification with this tag; a tap opens `url`. */
/**
 * The player's push settings beside "Tell me when my picks go" (every device of theirs): an entry of theirs
 * busted, the final result, the reminder an hour before the lock. All on until switched off.
 */
export const pushPreferences = z.strictObject({ busted: z.boolean(), final: z.boolean(), reminder: z.boolean() });
export type PushPreferences = z.infer<typeof pushPreferences>;
export const pushPayload = z.object({ title: z.string(), body: z.string(), tag: z.string(), url: z.string() });
export type PushPayload = z.infer<typeof pushPayload>;
