import { STALE_TIMES } from '@first-round/shared/constants';
import { errorKind, errorMessage, trpc } from '../../lib/trpc';
import { useDraftStatus } from '../../lib/queries';

export const membersLabel = (count: number) => (count === 1 ? '1 member' : `${count} members`);

/** The invite URL a friend opens (the join-link landing page of this same site). */
export const inviteUrl = (token: string) => `${window.location.origin}/groups/join/${token}`;

/** Copies text; the async Clipboard API first, the old selection trick where it is missing (plain http). */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

/** A refused link (draft started, not the owner) shows the server's reason; anything else the generic text. */
export function inviteErrorMessage(error: unknown): string {
  const kind = errorKind(error);
  if (kind === 'FORBIDDEN' || kind === 'DRAFT_LOCKED' || kind === 'CONFLICT') return errorMessage(error, 'Failed to generate join link');
  return 'Failed to generate join link';
}

/**
 * The group is not one the caller may see: the server answers a private group they are not in exactly as
 * an id that names no group (404 'Group not found'), so the page cannot tell the two apart, and says both.
 * (403: a group that tells non-members so.)
 */
export const isHiddenGroup = (error: unknown) => errorKind(error) === 'NOT_FOUND' || errorKind(error) === 'FORBIDDEN';

/** Whether the draft has started (create, invite and edit controls hide from then on). */
export function useDraftStarted() {
  const draft = useDraftStatus();
  return { started: draft.data?.draftHasStarted ?? false, loaded: draft.isSuccess || draft.isError };
}

/** Everything cached about groups and picks, after joining, creating or changing how picks are reused. */
export function useRefreshGroups() {
  const utils = trpc.useUtils();
  return () => Promise.all([utils.groups.invalidate(), utils.picks.invalidate(), utils.leaderboard.invalidate()]);
}

/**
 * After joining a group. Every answer cached before the join about it ('not a member', a 403, picks it
 * refused) is wrong now, and marking it stale is not enough: a screen shows stale data until the refetch
 * lands. So the group's own answers are dropped (data and errors) and fetched afresh, and the caller
 * navigates only then: the group page opens as a member at once. Lists with member counts refetch too.
 */
export function useAfterJoin() {
  const utils = trpc.useUtils();
  return async (groupId: number) => {
    const input = { group_id: groupId };
    // Reset refetches the ones on screen; the others are fetched below, before the group page needs them.
    await Promise.all([
      utils.groups.get.reset(input),
      utils.groups.membership.reset(input),
      utils.groups.members.reset(input),
      utils.groups.memberCount.reset(input),
      utils.picks.mine.reset(input),
    ]);
    // prefetch never throws: on a failure the page loads (and reports) the answer itself.
    const fresh = { staleTime: STALE_TIMES.groupPage };
    await Promise.all([
      utils.groups.get.prefetch(input, fresh),
      utils.groups.membership.prefetch(input, fresh),
      utils.groups.members.prefetch(input, fresh),
      utils.picks.mine.prefetch(input, fresh),
      utils.groups.mine.invalidate(),
      utils.groups.publicGroups.invalidate(),
      utils.leaderboard.invalidate(),
    ]);
  };
}

/** When the clipboard refuses an invite link (shared/src/messages.ts). */
export const COPY_FAILED = 'Failed to copy link to clipboard';
