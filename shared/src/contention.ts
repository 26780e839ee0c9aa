/**
 * Who can still win (pure, no I/O), part of the game's rules (scoring.ts): for each entry on the standings
 * its best possible final score and whether it can still finish first, from the counts every standings row
 * already has (correct picks, busted, tie-break, picks). Reasoning in docs/decisions.md, "Who can still win".
 *
 * - `max_possible`: every pending pick hits. An alive entry has no miss, so that is all of its picks;
 *   a busted entry's is 0 (one miss zeroes it for good).
 * - The bar: the best score that is already certain. Only a "settled" entry (alive, nothing pending:
 *   every pick hit) keeps its score whatever happens next; a leader with pending picks can still bust to
 *   0, so its current hits are not a bar anyone must reach. The bar is the best settled entry's score
 *   and tie-break (none settled: no bar): the settled entry that ranks first, found by scoring.ts
 *   (`winningBar`, every ranking's `bar`), since the order is the rules module's to say.
 * - `can_win`: alive, and its best case reaches the bar: above it, or equal to it while the tie-break
 *   can still go its way (it has pending picks, whose big-board ranks decide its final tie-break, or it
 *   is settled with a tie-break at least the bar's: equal shares first place).
 *
 * "Can't finish 1st" (`can_win` false) is therefore never premature. The counts do not say which
 * players two entries share, so `can_win` true means "not ruled out by anything certain", not a proof.
 */

/** What the rules read of a standings row. */
export interface ContentionCounts {
  correct_picks: number;
  busted: boolean;
  tiebreak_rank: number | null;
  picks: number;
}

/** The best score already certain in a scope, with its tie-break; `NO_BAR` when no entry is settled. */
export interface WinningBar {
  score: number;
  /** 0 when none (busted entries and entries without hits have no tie-break). */
  tiebreakRank: number;
}

export const NO_BAR: WinningBar = Object.freeze({ score: 0, tiebreakRank: 0 });

/** Best possible final score: all pending picks hit; 0 once busted. */
export function maxPossible(row: ContentionCounts): number {
  return row.busted ? 0 : row.picks;
}

/** Alive with nothing pending: its score and tie-break are final. */
export function isSettled(row: ContentionCounts): boolean {
  return !row.busted && row.correct_picks === row.picks;
}

/** Whether an entry can still finish first (alone or sharing first) against the scope's bar. */
export function canWin(row: ContentionCounts, bar: WinningBar): boolean {
  return canWinWith(row.correct_picks, row.busted, row.tiebreak_rank, row.picks, bar);
}

/** `canWin` on the counts as they are (the global standings score 100,000 entries without an object each). */
export function canWinWith(correctPicks: number, busted: boolean, tiebreakRank: number | null, picks: number, bar: WinningBar): boolean {
  if (busted) return false;
  // Alive: no miss, so its best case is every pick a hit.
  if (picks !== bar.score) return picks > bar.score;
  // Reaches the bar exactly: with picks pending its final tie-break is still open (its boldest pick's
  // rank, which the counts do not know); settled, it is final and must at least equal the bar's.
  return picks > correctPicks || (tiebreakRank ?? 0) >= bar.tiebreakRank;
}

export interface Contention {
  max_possible: number;
  can_win: boolean;
}

export function contentionOf(row: ContentionCounts, bar: WinningBar): Contention {
  return { max_possible: maxPossible(row), can_win: canWin(row, bar) };
}

/** Before the draft starts every entry is fresh: all of its picks may hit, and anybody can win. */
export function contentionBeforeStart(picks: number): Contention {
  return { max_possible: picks, can_win: true };
}

/**
 * Whether an entry has clinched first place while round one runs: it is settled (nothing pending, so it
 * cannot bust) and no other entry of its scope can still finish first, even sharing it: every other is
 * busted (it is the only one alive) or can no longer reach it. `others`: every other entry of the scope,
 * or null when they are not all known (a page of a big board), where only "the only one alive" can tell.
 */
export function hasClinched(row: ContentionCounts, alive: number, others: readonly { busted: boolean; can_win: boolean }[] | null): boolean {
  if (!isSettled(row) || row.correct_picks === 0) return false;
  if (alive === 1) return true;
  return others !== null && others.every((o) => o.busted || !o.can_win);
}
