import type { LeaderboardRow } from '@first-round/shared/schemas';

export { ordinal, plural } from '@first-round/shared/words';

/** The tie-break in words: an entry's boldest hit is its drafted pick ranked lowest on the big board. */
export function tiebreakText(tiebreakRank: number): string {
  return `Tie-break: boldest hit, #${tiebreakRank} on the board`;
}

/** What the tie-break means, for the explanation on hover or tap. */
export const TIEBREAK_EXPLAINED =
  'Same number of hits? The bolder entry ranks higher: the one whose boldest hit (its drafted pick ranked lowest on the big board) has the bigger number. A hit on #35 beats a hit on #20.';

/** Picks not decided yet: an alive entry has no miss, so every pick that is not a hit is pending. Null when busted. */
export function pendingOf(row: Pick<LeaderboardRow, 'busted' | 'picks' | 'correct_picks'>): number | null {
  return row.busted ? null : row.picks - row.correct_picks;
}

/**
 * Who can still win, in words, for an alive entry during the draft ('Can still win' / 'Eliminated from
 * 1st'; shared/src/contention.ts decides); null for a busted entry (its badge says it all).
 */
export function contentionText(row: Pick<LeaderboardRow, 'busted' | 'can_win'>): string | null {
  if (row.busted) return null;
  return row.can_win ? 'Can still win' : 'Eliminated from 1st';
}

/** Whether the standings speak of who can still win: from the start until round one is complete. */
export const contentionShown = (status: { draftHasStarted: boolean; round_one_complete: boolean } | undefined) =>
  Boolean(status?.draftHasStarted && !status.round_one_complete);

/** 'Alive' or 'Busted'. */
export const statusText = (busted: boolean) => (busted ? 'Busted' : 'Alive');

const ET = 'America/New_York';

/**
 * When picks lock, in Eastern time as the draft is announced: 'Thu 8 PM ET' within the coming week,
 * 'Thu Apr 29, 8 PM ET' further out (a weekday alone would be ambiguous), minutes only when not on the hour.
 */
export function lockTimeText(deadline: Date, now: Date = new Date()): string {
  const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: ET }).format(deadline).replace(':00', '').replace(/\s/g, ' ');
  const soon = deadline.getTime() - now.getTime() < 6 * 24 * 3600 * 1000;
  const day = new Intl.DateTimeFormat('en-US', soon ? { weekday: 'short', timeZone: ET } : { weekday: 'short', month: 'short', day: 'numeric', timeZone: ET })
    .format(deadline)
    .replace(/,/g, '');
  return `${day}${soon ? '' : ','} ${time} ET`;
}
