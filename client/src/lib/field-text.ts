/** A share of the field (0..1) in whole percent, for people: '12 %'; above 0 but under 0.5 %: '<1 %'. */
export function percentOfField(share: number): string {
  if (share > 0 && share < 0.005) return '<1 %';
  return `${Math.round(share * 100)} %`;
}

/** Under a pick on My Picks: who else holds him. 'you and 12 % of the field' (the share counts you too). */
export function pickedWithYou(share: number): string {
  return `you and ${percentOfField(share)} of the field`;
}

/**
 * A global share, labelled as global wherever it stands (the draft strip, a group's board): '41 % of
 * everyone'. Beside a group's own figures it must never read as the group's.
 */
export function ofEveryone(share: number): string {
  return `${percentOfField(share)} of everyone`;
}

/** A group's own share of a player: '2 of 3 here' (entries of the group holding him, of its entries). */
export function hereCount(holders: number, entries: number): string {
  return `${holders} of ${entries} here`;
}
