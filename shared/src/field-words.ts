/**
 * How many entries picked a player, in one wording for every screen: a share of all entries ('41 % of all
 * entries'), a group's own count ('2 of 3 in this group'), and on My Picks whether anyone else holds the
 * pick ('Only you picked him', 'Picked by 12 % of all entries, you included').
 */

/** A share (0..1) in whole percent: '12 %'; above 0 but under 0.5 %: '<1 %' (never 0 % for a picked player). */
export function percentOfField(share: number): string {
  if (share > 0 && share < 0.005) return '<1 %';
  return `${Math.round(share * 100)} %`;
}

/** A global share, said to be global wherever it stands (the draft strip, a group's board). */
export function ofAllEntries(share: number): string {
  return `${percentOfField(share)} of all entries`;
}

/** A group's own count of a player's holders: '2 of 3 in this group'; none: 'Nobody in this group had him'. */
export function inThisGroup(holders: number, entries: number): string {
  return holders === 0 ? 'Nobody in this group had him' : `${holders} of ${entries} in this group`;
}

/** Under a pick of one's own: `pickedBy` entries hold him, the reader's included. */
export function pickedByYou(pickedBy: number, share: number): string {
  return pickedBy <= 1 ? 'Only you picked him' : `Picked by ${ofAllEntries(share)}, you included`;
}
