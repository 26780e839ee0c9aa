import type { Leaderboard, LeaderboardRow } from '@first-round/shared/schemas';

export { ordinal, plural } from '@first-round/shared/words';

/** The tie-break in words: an entry's boldest hit is its drafted pick ranked lowest on the big board. */
export function tiebreakText(tiebreakRank: number): string {
  return `Tie-break: boldest hit, #${tiebreakRank} on the board`;
}

/** What the tie-break means, for the explanation on hover or tap: the rules' own wording. */
export { TIEBREAK_RULE as TIEBREAK_EXPLAINED } from '@first-round/shared/messages';

/** Picks not decided yet: an alive entry has no miss, so every pick that is not a hit is pending. Null when busted. */
export function pendingOf(row: Pick<LeaderboardRow, 'busted' | 'picks' | 'correct_picks'>): number | null {
  return row.busted ? null : row.picks - row.correct_picks;
}

/**
 * Who can still win, in words, for an alive entry during the draft ('Can still win' / "Can't finish 1st":
 * never 'Eliminated' beside a green 'Alive'; shared/src/contention.ts decides); null for a busted entry (its badge says it all).
 */
export function contentionText(row: Pick<LeaderboardRow, 'busted' | 'can_win'>, clinched = false): string | null {
  if (row.busted) return null;
  if (clinched) return 'Clinched 1st';
  return row.can_win ? 'Can still win' : "Can't finish 1st";
}

/**
 * The entry of these standings that has clinched first place, or null: the server decides it over every
 * entry (shared/src/scoring.ts, clinchedIn), so any page of a big board, a search or the caller's own row
 * can say it.
 */
export function clinchedEntry(lb: Pick<Leaderboard, 'draft_started' | 'clinched_by'> | undefined): string | null {
  return lb?.draft_started ? lb.clinched_by : null;
}

/** Whether the standings speak of who can still win: from the start until round one is complete. */
export const contentionShown = (status: { draftHasStarted: boolean; round_one_complete: boolean } | undefined) =>
  Boolean(status?.draftHasStarted && !status.round_one_complete);

/** 'Alive' or 'Busted'. */
export const statusText = (busted: boolean) => (busted ? 'Busted' : 'Alive');
