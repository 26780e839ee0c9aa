/** Business constants (limits, stale times, the global group), named once for server and client alike. */

export const MIN_PICKS = 1;
export const MAX_PICKS = 32;
export const DEFAULT_ROUND_ONE_PICKS = 32;
export const GLOBAL_GROUP_ID = 1;

/**
 * Invite links last until picks lock unless asked for fewer hours: the invite panel offers these (7 days,
 * 24 hours) where they end before the lock. A REST client may ask for 1 to MAX_INVITE_HOURS.
 */
export const INVITE_SHORTER_HOURS = [168, 24] as const;
export const MAX_INVITE_HOURS = 720;
/** Member names an invitation card shows (the signed-out view of a link reveals no more). */
export const INVITE_CARD_NAMES = 6;
/** How long the landing page's public counts are reused before they are counted again. */
export const PUBLIC_COUNTS_TTL_MS = 60_000;

/**
 * The default deadline when none is configured: the next NFL draft night (the last Thursday of April,
 * 20:00 Eastern, which is EDT, UTC−4). The original game's date has passed, and a fresh install whose
 * deadline lies in the past would open with picks already locked.
 */
export function nextDraftNight(now: Date): Date {
  for (let year = now.getUTCFullYear(); ; year++) {
    const lastOfApril = new Date(Date.UTC(year, 3, 30));
    const back = (lastOfApril.getUTCDay() - 4 + 7) % 7; // 4 = Thursday
    const day = 30 - back;
    const deadline = new Date(Date.UTC(year, 3, day, 24, 0, 0)); // 20:00 at UTC−4 is 00:00 UTC next day
    if (deadline.getTime() > now.getTime()) return deadline;
  }
}

const MINUTE = 60_000;
/** How long the web app trusts what it read (docs/rules.md, "Constants"); live changes refresh sooner. */
export const STALE_TIMES = {
  players: 5 * MINUTE,
  draftStatus: 5 * MINUTE,
  leaderboard: 60_000,
  groupPage: 1 * MINUTE,
  groupLists: 5 * MINUTE,
  profile: 5 * MINUTE,
  userStatus: Infinity,
} as const;

/**
 * Draft night: after a live change every open page refetches what it shows that depends on the draft,
 * each after a random delay in [0, this): thousands of pages spread over a second instead of one instant.
 */
export const LIVE_REFRESH_JITTER_MS = 1000;
/**
 * The standings page on screen is brought by the live stream after each change; a page reads it itself
 * (after its jitter) only when it has not come within this long (a lost frame, a server without it).
 */
export const STANDINGS_PUSH_WAIT_MS = 3000;

/**
 * The spectators' live stream (`draft.publicChanges`, no sign-in, /live): signed-out visitors have no
 * account to count their streams against, so they are counted per address and per instance. An address
 * is often a whole watch party (a home's or a bar's network, a carrier's NAT): as many as one player may
 * hold. The instance's total keeps room for the players' own streams (docs/decisions.md, "Spectators").
 */
export const MAX_PUBLIC_STREAMS_PER_IP = 20;
export const MAX_PUBLIC_STREAMS = 2_000;

export const LEADERBOARD_RETRIES = 2;
export const CALLBACK_AUTH_POLL_MS = 500;
export const CALLBACK_AUTH_POLL_ATTEMPTS = 10;
export const CALLBACK_JOIN_DELAY_MS = 1000;
export const CALLBACK_ERROR_REDIRECT_MS = 2000;
export const COPY_CONFIRMATION_MS = 2000;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 3000;

/** Username rules (docs/rules.md, "Input rules": trimmed, 2–32 characters, unique ignoring case). */
export const USERNAME_MIN = 2;
export const USERNAME_MAX = 32;
export const GROUP_NAME_MAX = 64;
/**
 * A group password set or changed now has at least this many characters (spaces at either end not
 * counted): a four-digit PIN falls to guessing within days even under the join limits. Passwords set
 * before the rule keep working (joining checks a password, never its length).
 */
export const GROUP_PASSWORD_MIN = 8;

/** Local identity provider code rules. */
export const CODE_TTL_MS = 10 * MINUTE;
export const CODE_MAX_ATTEMPTS = 5;
export const SESSION_TOKEN_TTL_S = 60;
/**
 * How long the code step waits before offering 'Resend code': the built-in provider's default wait
 * between two codes for one address (IDP_CODE_RESEND_SECONDS); a provider that wants longer answers
 * 'Please wait N seconds', which the form shows.
 */
export const CODE_RESEND_WAIT_S = 60;

export const STORAGE_KEYS = {
  pendingJoinToken: 'pendingJoinToken',
  redirectAfterAuth: 'redirectAfterAuth',
} as const;

/** The longest viewing delay a device may choose ("No spoilers"): its pages and its notifications wait this long at most. */
export const MAX_VIEWING_DELAY_SECONDS = 600;
/** Push devices one player may have; subscribing one more replaces the one subscribed longest ago. */
export const MAX_PUSH_DEVICES = 10;
