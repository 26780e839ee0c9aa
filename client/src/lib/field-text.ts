/** A share of the field (0..1) in whole percent, for people: '12 %'; above 0 but under 0.5 %: '<1 %'. */
export function percentOfField(share: number): string {
  if (share > 0 && share < 0.005) return '<1 %';
  return `${Math.round(share * 100)} %`;
}

/** Under a pick on My Picks: who else holds him. 'you and 12 % of the field' (the share counts you too). */
export function pickedWithYou(share: number): string {
  return `you and ${percentOfField(share)} of the field`;
}

/** Under the latest pick on the draft strip: 'in 41 % of entries', or 'in no entry' (nobody had him). */
export function inEntries(share: number): string {
  return share === 0 ? 'in no entry' : `in ${percentOfField(share)} of entries`;
}
