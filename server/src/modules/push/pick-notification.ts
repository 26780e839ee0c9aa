import type { DraftChange, PushPayload } from '@first-round/shared/schemas';

/** Every pick notification shares one tag: a phone replaces the previous one, so it shows the latest. */
export const PICK_TAG = 'first-round-picks';

/** "✓ Cam Ward — #1 to TEN", "1 hit in your picks so far". */
export function pickNotification(change: DraftChange, recipient: { hits: number; groupId: number | null }): PushPayload | null {
  if (change.kind !== 'pick' || !change.player || change.slot == null) return null;
  const team = change.team ? ` to ${change.team}` : '';
  const hits = `${recipient.hits} hit${recipient.hits === 1 ? '' : 's'} in your picks so far`;
  return {
    title: `✓ ${change.player.player_name} — #${change.slot}${team}`,
    body: hits,
    tag: PICK_TAG,
    url: recipient.groupId === null ? '/my-picks' : `/groups/${recipient.groupId}/picks`,
  };
}
