import type { RetryWhen } from './join-words.js';
import { GROUP_PASSWORD_MIN } from './constants.js';
import { plural } from './words.js';

/** 'in 15 minutes (at 8:16 PM)'. */
const tryAgain = (retry: RetryWhen) => `in ${plural(retry.minutes, 'minute')} (at ${retry.clock})`;
const ASK_FOR_A_LINK = 'or ask a member for an invite link.';

/** Every text a player reads (docs/rules.md, "Input rules and their words"), so server and client say exactly the same thing. */
export const MESSAGES = {
  /** Refusals of a request as such, before any rule: the body, the headers, the path (server/src/refusals.ts). */
  requestBodyTooLarge: 'Request body is too large',
  requestHeadersTooLarge: 'Request headers are too large',
  requestUnreadable: 'The request could not be read',
  requestTooSlow: 'The request took too long to arrive',
  notFound: 'Not found',
  authRequired: 'Authentication required',
  authRequiredSignInAgain: 'Authentication required. Please sign in again.',
  invalidCode: 'Invalid verification code',
  sendCodeFailed: 'Failed to send verification code',
  /** The offline banner (client/src/components/offline-banner.tsx). */
  offline: "You're offline — standings update when you're back",
  /** Under it, when the page shows answers read before (client/src/lib/persisted-queries.ts). */
  offlineLastKnown: 'Showing what was last known',
  verificationIncomplete: 'Verification incomplete',
  enterEmail: 'Please enter your email',
  enterCode: 'Please enter the verification code',
  enterUsername: 'Please enter a username',
  /** The sign-in code step when the provider answers every address alike (the built-in one). */
  codeStepNoAccount: 'No account with this address? Instead of a code, we mailed it how to make one.',
  /** The sign-up code step, likewise: an address that has an account gets a code that signs it in. */
  codeStepHasAccount: 'Already have an account with this address? The code signs you in to it.',
  authNotReady: 'Authentication service is not ready',
  picksCountOutOfRange: 'Number of picks must be between 1 and 32',
  picksLocked: 'The draft has started: picks can no longer be changed',
  groupsLocked: 'The draft has started: groups can no longer be created',
  joinLinksLocked: 'The draft has started: invite links can no longer be created',
  publicGroupsLocked: 'The draft has started: public groups can no longer be joined',
  /** What the pages say of the same lock: true while round one runs and once it is over. */
  publicGroupsClosed: 'Picks are locked: public groups can no longer be joined',
  groupsClosed: 'Picks are locked: groups can no longer be created',
  groupExists: 'Group already exists, please pick a different name',
  groupNameRequired: 'Group name is required',
  groupIdRequired: 'Group ID is required',
  /** No such group, and equally a private group the caller is not in (nothing tells the two apart). */
  groupNotFound: 'Group not found',
  /** Too many 'Group not found' answers to one address (GROUP_PROBE_LIMIT): ids are being tried. */
  tooManyGroupProbes: (seconds: number) => `Too many requests for groups that could not be found. Please wait ${plural(seconds, 'second')} and try again.`,
  notGroupMember: 'You are not a member of this group',
  notGroupOwner: 'Only the group owner can do this',
  /**
   * A wrong password on a join by id, with the tries left before a join limit is reached (the tighter of
   * the group's and the player's, join-limits.ts); at none left, when the next try is allowed.
   */
  wrongGroupPassword: (triesLeft: number, retry?: RetryWhen) =>
    triesLeft > 0
      ? `Wrong password for this group. ${plural(triesLeft, 'try', 'tries')} left.`
      : `Wrong password for this group. No tries left: ${retry ? `try again ${tryAgain(retry)}, ` : ''}${ASK_FOR_A_LINK}`,
  groupPasswordBlank: 'Enter a password, or remove it',
  groupPasswordTooShort: `A group password must be at least ${GROUP_PASSWORD_MIN} characters`,
  groupPasswordSet: 'Group password updated',
  groupPasswordRemoved: 'Group password removed',
  /** A join by id past a limit: this group's wrong passwords, or the player's failed joins anywhere. */
  joinLockedOut: (lockout: 'group' | 'player', retry: RetryWhen) =>
    `${lockout === 'group' ? 'Too many wrong passwords for this group.' : 'Too many failed attempts to join groups.'} Try again ${tryAgain(retry)}, ${ASK_FOR_A_LINK}`,
  joinLinkInvalid: 'This invite link is invalid or has expired',
  /** The owner has turned off invites from members: a member asking for a link, and a link a member made. */
  membersCannotInvite: "Only the group's owner can invite to this group: they have turned off invites from members",
  joinLinkTurnedOff: "This invite link no longer works: the group's owner has turned off invites from members",
  shareLinkInvalid: 'This share link does not exist',
  /** A join that added the member, and one that found them already in (by id, by link, public groups). */
  joined: 'You have joined the group',
  alreadyMember: 'You are already a member of this group',
  /** Joining once picks are locked adds a member but no entry: what they will and will not see. */
  joinedAfterStart: "The draft has started: you'll see this group's standings and draft board, but you can't make picks here.",
  joinedAfterRoundOne: "Round one is complete: you'll see this group's final standings and draft board, but you can't make picks here.",
  joinFailedById: 'Failed to join group. Please check the group ID and password.',
  noPlayersSelectedTitle: 'No players selected',
  noPlayersSelected: 'Please select at least one player',
  tooManyPicksTitle: 'Too Many Picks',
  tooManyPicks: 'Cannot pick more than 32 players',
  savePicksFailed: 'An error occurred while saving your picks',
  leaderboardBeforeStart: 'The leaderboard will be available once the NFL Draft begins.',
  publicStandingsOff: 'The standings are for players: sign in or sign up to follow them.',
  /** The spectators' live stream past its caps (429): the page keeps itself current by asking instead. */
  publicStreamsPerIp: (max: number) => `Too many live connections from this address (${max}). Close some tabs and try again.`,
  publicStreamsFull: (max: number) => `The live stream is full on this server (${max} spectators). Try again in a minute.`,
  fieldBeforeStart: 'The field is shown once the draft starts',
  leaderboardEmpty: 'No participants have made picks yet.',
  leaderboardLoadFailed: 'Unable to load the leaderboard. Please try again later.',
  /** groups.draftBoard before the start (409): nobody's picks are shown until they lock. */
  draftBoardBeforeStart: 'The draft board opens once the NFL Draft begins.',
  usernameUpdated: 'Username updated successfully',
  usernameUpdateFailed: 'Failed to update username',
  remindersOn: 'You will get an e-mail before picks lock',
  remindersOff: 'No more e-mails before picks lock',
  remindersSaveFailed: 'Could not save the reminder setting',
  /**
   * push.subscribe: an endpoint outside the server's push services (an http address, an address on a private
   * network, a host not on the list: modules/push/endpoint-policy.ts); keys that Web Push cannot encrypt to;
   * a device another player's notifications go to.
   */
  pushEndpointRefused: "Notifications can't go to this address: this server sends them only to the push services browsers use, over https",
  pushKeysInvalid: "This device's push keys are not valid: p256dh must be a P-256 public key (65 bytes) and auth 16 bytes, base64url",
  pushEndpointTaken: 'This device already gets notifications for another player',
  /** The opt-in switch failed for another reason (client/src/components/push-setting.tsx). */
  pushSwitchFailed: 'Notifications could not be switched on this device. Try again.',
  /** The player's settings for each kind of notification (client/src/components/push-kinds-setting.tsx). */
  pushKindsSaved: 'Notification settings saved',
  pushKindsSaveFailed: 'Could not save the notification settings',
  /** Switching on, the browser's push service (PushManager.subscribe) or the server did not answer within 10 s. */
  pushServiceSilent: 'Notifications are not on: the push service did not answer within 10 seconds. Try again in a moment.',
  /** Taken by another player or an operator, in any spelling that reads the same (names.ts, `nameKey`). */
  usernameTaken: 'That username is already taken',
  /** More combining marks on one letter than a name may carry (names.ts, MAX_STACKED_MARKS): 'Username', 'Group name'. */
  nameMarksStacked: (field: string, max: number) => `${field} must not stack more than ${max} accents or marks on one letter`,
  /** The name of a reference entry shown beside every leaderboard, in any spelling. */
  usernameReserved: 'That name belongs to a reference entry on the leaderboards: please pick another',
  accountFixMissing: 'Missing Information: Please provide both the temporary ID and Clerk ID',
  accountFixFailed: 'Error Fixing Account',
  /** The account fix moves only a temporary account made with the caller's own e-mail address. */
  accountFixNotYours: 'This temporary account is not yours: it was not made with the e-mail address you signed in with',
  /** Past seasons (seasons.*): an unknown year, the current one (its standings are the live ones), a group that was not there. */
  seasonNotFound: (year: number) => `There is no ${year} season`,
  seasonNotClosed: (year: number) => `The ${year} season is still being played: its standings are the current leaderboard`,
  groupNotInSeason: (year: number) => `This group has no final standings for ${year}: it did not exist when that season closed`,
  noPastSeasons: 'No past seasons yet',
} as const;

export const usernameRuleMessage = {
  tooShort: 'Username must be at least 2 characters',
  tooLong: 'Username must be at most 32 characters',
} as const;

/**
 * The tie-break, in the one wording every screen uses (the rules, the standings' tip, the docs): an entry's
 * boldest hit is its drafted pick ranked lowest on the big board (the largest rank number).
 */
export const TIEBREAK_RULE =
  'A tie goes to the bolder entry: the one whose boldest hit (its drafted pick ranked lowest on the big board) has the bigger number. A hit on #35 beats a hit on #20.';
