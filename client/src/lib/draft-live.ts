import type { DraftChange, DraftStatus } from '@first-round/shared/schemas';

/** How long push may be down (never connected, or dropped) before the app polls instead. */
export const PUSH_GRACE_MS = 10_000;
/** Polling period while push is unavailable. */
export const POLL_INTERVAL_MS = 15_000;
/** Consecutive subscription failures after which polling starts at once. */
export const PUSH_MAX_FAILURES = 3;

/**
 * Whether a change still gets a toast. Where the draft-night strip is on screen it shows the picks, the
 * start (a live strip) and the end of round one (the Final card), so those are not toasted: the toasts
 * covered the titles on a phone. What the strip cannot tell is still toasted: a pick taken back (the strip
 * just shows the pick before it), round one reopened, the draft reset, a slot given to another team (a
 * traded pick) or given back. Where there is no strip (Settings, How to play, the operator console) every
 * change is toasted as before.
 */
export function toastsChange(change: Pick<DraftChange, 'kind'>, stripOnScreen: boolean): boolean {
  if (!stripOnScreen) return true;
  return ['undo', 'reopen_round', 'reset', 'team', 'undo_team'].includes(change.kind);
}

let stripsOnScreen = 0;

/** The strip says it is on screen (components/draft-strip.tsx); the returned function says it left. */
export function showStrip(): () => void {
  stripsOnScreen += 1;
  let shown = true;
  return () => {
    if (shown) stripsOnScreen -= 1;
    shown = false;
  };
}

export function stripOnScreen(): boolean {
  return stripsOnScreen > 0;
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
