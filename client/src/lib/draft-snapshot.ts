import { pickOutcome, type DraftSnapshot, type PickOutcome } from '@first-round/shared/scoring';
import type { DraftStatus, PlayerDto } from '@first-round/shared/schemas';

/** The scoring rules' view of the draft, from draft.status and the board (filled slots = round-one players). */
export function draftSnapshot(status: DraftStatus | undefined, players: readonly PlayerDto[] | undefined): DraftSnapshot | null {
  if (!status || !players) return null;
  return {
    roundOnePicks: status.round_one_picks,
    filledSlots: players.filter((p) => p.draft_round === 1).length,
    roundOneCompleteMarked: status.round_one_complete,
  };
}

/** hit / miss / pending for one picked player (shared/src/scoring.ts decides). */
export function outcomeOf(player: PlayerDto, snapshot: DraftSnapshot): PickOutcome {
  return pickOutcome({ rank: player.rank, draftRound: player.draft_round }, snapshot);
}
