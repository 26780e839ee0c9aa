import { snapshotOf } from '@first-round/shared/draft-snapshot';
import type { DraftSnapshot } from '@first-round/shared/scoring';
import type { DraftStatus, PlayerDto } from '@first-round/shared/schemas';

export { outcomeOf } from '@first-round/shared/draft-snapshot';

/** The scoring rules' view of the draft, once both draft.status and the board have arrived. */
export function draftSnapshot(status: DraftStatus | undefined, players: readonly PlayerDto[] | undefined): DraftSnapshot | null {
  return status && players ? snapshotOf(status, players) : null;
}
