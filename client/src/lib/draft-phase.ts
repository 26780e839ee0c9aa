import type { DraftStatus } from '@first-round/shared/schemas';

/** Where the draft is: picks still open, round one under way, or round one over (final). */
export type DraftPhase = 'before' | 'live' | 'final';

export function draftPhase(status: Pick<DraftStatus, 'draftHasStarted' | 'round_one_complete'>): DraftPhase {
  if (!status.draftHasStarted) return 'before';
  return status.round_one_complete ? 'final' : 'live';
}
