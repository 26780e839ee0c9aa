import { GROUP_PASSWORD_MIN } from './constants.js';
import { DRAFT_TIME_ZONE, formatClock } from './deadline.js';
import { MESSAGES } from './messages.js';

/** Joining words the server and the web app share: when a locked-out player may try again, what a late joiner sees. */

/** When a join by id may be tried again, as a message says it: minutes from now, and a clock time. */
export interface RetryWhen {
  minutes: number;
  clock: string;
}

/**
 * `retryAt` in words: the minutes until then (rounded up, at least 1) and the clock time, rounded up to
 * the minute so that trying at the time shown always works, written by `clock` (the server writes Eastern
 * time, named, not knowing the reader's zone; the web app writes the reader's own, named).
 */
export function retryWhen(retryAt: Date | string, now: Date, clock: (at: Date) => string): RetryWhen {
  const at = new Date(retryAt).getTime();
  return { minutes: Math.max(1, Math.ceil((at - now.getTime()) / 60_000)), clock: clock(new Date(Math.ceil(at / 60_000) * 60_000)) };
}

/** The server's clock for it, not knowing the reader's zone: Eastern, named ('3:16 PM EST'). */
export const draftClock = (at: Date): string => formatClock(at, DRAFT_TIME_ZONE);

/** A group password set or changed now is long enough (GROUP_PASSWORD_MIN, spaces at either end not counted). */
export const isLongEnoughGroupPassword = (password: string): boolean => password.trim().length >= GROUP_PASSWORD_MIN;

/**
 * What is wrong with a group password being set (blank, too short), or undefined: the shared schema's
 * rule (`groupPasswordSchema`), for the web app's forms, which do not load zod.
 */
export function groupPasswordProblem(password: string): string | undefined {
  if (!password.trim()) return MESSAGES.groupPasswordBlank;
  if (!isLongEnoughGroupPassword(password)) return MESSAGES.groupPasswordTooShort;
  return undefined;
}

/** Where the draft is, as a join answer and an invitation card tell it. */
export interface JoinDraftState {
  draft_started: boolean;
  round_one_complete: boolean;
}

/** The draft status's words for it (round one counts as complete only once the draft has started). */
export function joinDraftState(status: { draftHasStarted: boolean; round_one_complete: boolean }): JoinDraftState {
  return { draft_started: status.draftHasStarted, round_one_complete: status.draftHasStarted && status.round_one_complete };
}

/** What someone joining now will and will not see: null before the start (they can make picks). */
export function lateJoinNotice(state: JoinDraftState): string | null {
  if (!state.draft_started) return null;
  return state.round_one_complete ? MESSAGES.joinedAfterRoundOne : MESSAGES.joinedAfterStart;
}
