import type { DraftChange } from '@first-round/shared/schemas';

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
