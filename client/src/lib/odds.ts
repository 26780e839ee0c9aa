import { useMemo } from 'react';
import { DEFAULT_ROUND_ONE_PICKS } from '@first-round/shared/constants';
import { entryOdds, oddsBoard, type BoardPlayer, type EntryOdds, type OddsBoard } from '@first-round/shared/odds';
import type { DraftSnapshot } from '@first-round/shared/scoring';

/** The draft state the board shows: its round-one picks fill the slots (before the start: none). */
export function draftOfBoard(players: readonly BoardPlayer[], roundOnePicks = DEFAULT_ROUND_ONE_PICKS, completeMarked = false): DraftSnapshot {
  return { roundOnePicks, filledSlots: players.filter((p) => p.draft_round === 1).length, roundOneCompleteMarked: completeMarked };
}

/**
 * The simulations of the rest of round one for the board as shown (shared/src/odds.ts), drawn once per
 * board and draft state; the server draws the same batch, so the browser's numbers are the answers'.
 */
export function useOddsBoard(players: readonly BoardPlayer[], roundOnePicks = DEFAULT_ROUND_ONE_PICKS, completeMarked = false): OddsBoard | null {
  return useMemo(() => (players.length ? oddsBoard(players, draftOfBoard(players, roundOnePicks, completeMarked)) : null), [players, roundOnePicks, completeMarked]);
}

/** The odds of a selection on that board, again only when the selection changes (a few word ANDs). */
export function useEntryOdds(odds: OddsBoard | null, picks: ReadonlySet<number> | readonly number[]): EntryOdds | null {
  return useMemo(() => (odds ? entryOdds(odds, [...picks]) : null), [odds, picks]);
}
