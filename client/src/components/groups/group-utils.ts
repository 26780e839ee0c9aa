import { STALE_TIMES } from '@first-round/shared/constants';
import { errorMessage, httpStatusOf, trpc } from '../../lib/trpc';

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

/** SPEC §8: a refused link (draft started, not the owner) shows the server's reason; anything else the generic text. */
export function inviteErrorMessage(error: unknown): string {
  const status = httpStatusOf(error);
  if (status === 403 || status === 409) return errorMessage(error, 'Failed to generate join link');
  return 'Failed to generate join link';
}

/** Whether the draft has started (create, invite and edit controls hide from then on). */
export function useDraftStarted() {
  const draft = trpc.draft.status.useQuery(undefined, { staleTime: STALE_TIMES.draftStatus });
  return { started: draft.data?.draftHasStarted ?? false, loaded: draft.isSuccess || draft.isError };
}

/** Everything cached about groups and picks, after joining, creating or changing how picks are reused. */
export function useRefreshGroups() {
  const utils = trpc.useUtils();
  return () => Promise.all([utils.groups.invalidate(), utils.picks.invalidate(), utils.leaderboard.invalidate()]);
}
