import type { DraftChange, DraftStatus } from '@first-round/shared/schemas';

/** How long push may be down (never connected, or dropped) before the app polls instead. */
export const PUSH_GRACE_MS = 10_000;
/** Polling period while push is unavailable. */
export const POLL_INTERVAL_MS = 15_000;
/** Consecutive subscription failures after which polling starts at once. */
export const PUSH_MAX_FAILURES = 3;

/** The toast for a draft change: 'Pick 7: Armand Membou, OT, Missouri', 'The draft has started', … */
export function describeChange(change: DraftChange): { title: string; description?: string } {
  const p = change.player;
  switch (change.kind) {
    case 'pick':
      return { title: p ? `Pick ${change.slot}: ${p.player_name}, ${p.position}, ${p.school}` : `Pick ${change.slot} is in` };
    case 'undo':
      return { title: `Pick ${change.slot} undone`, description: p ? `${p.player_name} is back on the board.` : undefined };
    case 'start':
    case 'auto_start':
      return { title: 'The draft has started', description: 'Picks are locked. Follow your picks live.' };
    case 'complete_round':
      return { title: 'Round one is complete', description: 'Every undrafted pick is now a miss.' };
    case 'reopen_round':
      return { title: 'Round one is open again' };
    case 'reset':
      return { title: 'The draft was reset', description: 'All results were cleared.' };
  }
}

/** What polling compares: any difference means the draft moved and cached answers are stale. */
export function statusSignature(
  s: Pick<DraftStatus, 'draftHasStarted' | 'started_at' | 'picks_made' | 'round_one_complete' | 'last_event_id'> | undefined,
): string | null {
  if (!s) return null;
  // last_event_id moves on every change, so an undo followed by a new pick (same count) is seen too.
  return [s.draftHasStarted, s.started_at ?? '', s.picks_made, s.round_one_complete, s.last_event_id].join('|');
}

/**
 * Whether cached answers must be refreshed after a status read. Without a baseline (the page never read
 * draft.status, e.g. the leaderboard) the draft may have moved since its answers were fetched: refresh.
 */
export function statusMoved(before: string | null, now: string | null): boolean {
  return before === null || before !== now;
}

/** Wait before re-subscribing after the n-th consecutive failure: 1 s, 2 s, 4 s, 8 s, then 15 s. */
export function retryDelay(failures: number): number {
  return Math.min(15_000, 1000 * 2 ** Math.max(0, failures - 1));
}
