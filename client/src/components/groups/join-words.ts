import { formatClock } from '@first-round/shared/deadline';
import { MESSAGES } from '@first-round/shared/messages';
import { joinDraftState, lateJoinNotice, retryWhen, type JoinDraftState } from '@first-round/shared/join-words';
import { notify } from '../../lib/toaster';
import { useDraftStatus } from '../../lib/queries';
import { errorData, errorKind } from '../../lib/trpc';

/** A clock time in the reader's own time zone, named ('8:16 PM EDT'). */
export const localClock = (at: Date) => formatClock(at);

/**
 * What the join-by-id screen says about a failed join. A wrong password says how many tries are left, a
 * lock when it lifts (from the answer's numbers, in the reader's clock) and to ask for an invite link;
 * anything else (an unknown id, a refused public group) the one generic message, which gives nothing away.
 */
export function joinFailureText(error: unknown, now = new Date()): string {
  const kind = errorKind(error);
  const data = errorData(error);
  const retry = data?.retry_at ? retryWhen(data.retry_at, now, localClock) : undefined;
  if (kind === 'FORBIDDEN' && data) return MESSAGES.wrongGroupPassword(data.tries_left, retry);
  if (kind === 'TOO_MANY_REQUESTS' && data?.lockout && retry) return MESSAGES.joinLockedOut(data.lockout, retry);
  return MESSAGES.joinFailedById;
}

/** What joining now would mean once the draft has started (null before it, or while the status loads). */
export function useLateJoinNotice(): string | null {
  const status = useDraftStatus().data;
  return status ? lateJoinNotice(joinDraftState(status)) : null;
}

/** The toast after a join: joined (or already in), and after the start what the newcomer will and won't see. */
export function notifyJoined(result: { already_member: boolean } & JoinDraftState) {
  if (result.already_member) notify('success', MESSAGES.alreadyMember);
  else notify('success', MESSAGES.joined, lateJoinNotice(result) ?? undefined);
}
