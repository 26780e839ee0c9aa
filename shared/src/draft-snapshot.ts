import { pickOutcome, type DraftSnapshot, type PickOutcome } from './scoring.js';
import type { DraftStatus, PlayerDto } from './schemas.js';

/**
 * The scoring rules' view of the draft from draft.status and the board (filled slots = the board's
 * round-one players): what the web app, the share card, the draft board and the benchmarks all score with.
 */
export function snapshotOf(status: Pick<DraftStatus, 'round_one_picks' | 'round_one_complete'>, board: readonly Pick<PlayerDto, 'draft_round'>[]): DraftSnapshot {
  return {
    roundOnePicks: status.round_one_picks,
    filledSlots: board.filter((p) => p.draft_round === 1).length,
    roundOneCompleteMarked: status.round_one_complete,
  };
}

/** hit / miss / pending for one board player (shared/src/scoring.ts decides). */
export function outcomeOf(player: Pick<PlayerDto, 'rank' | 'draft_round'>, snapshot: DraftSnapshot): PickOutcome {
  return pickOutcome({ rank: player.rank, draftRound: player.draft_round }, snapshot);
}
