import type { LeaderboardRow } from '@first-round/shared/schemas';

/*
 * Rank arrows on draft night (▲3 / ▼2): how far each row of a standings page moved since the previous
 * pick. The page on screen is replaced in the query cache after each change (the live stream pushes it
 * re-ranked), so the movement is the difference between the page as it stood under the previous draft
 * version and the page now, row by row (by participant_id). No React here: the hook is in
 * components/rank-moves.tsx.
 */

type Ranked = Pick<LeaderboardRow, 'participant_id' | 'rank'>;

/**
 * Places moved per participant, positive for up (rank 5 → 2 is +3), for the rows of `current` that were
 * on `previous` and changed rank. A row that was not on the previous page (it came up from further
 * down a long board) has no arrow: where it was is not known.
 */
export function rankDeltas(previous: readonly Ranked[], current: readonly Ranked[]): Map<string, number> {
  const before = new Map(previous.map((r) => [r.participant_id, r.rank]));
  const moves = new Map<string, number>();
  for (const row of current) {
    const was = before.get(row.participant_id);
    if (was !== undefined && was !== row.rank) moves.set(row.participant_id, was - row.rank);
  }
  return moves;
}

/** '▲3' or '▼2'; '' for no move. */
export function moveLabel(delta: number): string {
  if (delta > 0) return `▲${delta}`;
  if (delta < 0) return `▼${-delta}`;
  return '';
}

/** The same for a screen reader: 'Up 3 since the last pick'. */
export function moveDescription(delta: number): string {
  const places = Math.abs(delta) === 1 ? 'place' : 'places';
  return `${delta > 0 ? 'Up' : 'Down'} ${Math.abs(delta)} ${places} since the last pick`;
}

export interface RankMoves {
  /** The draft version (draft.status.last_event_id) the moves are counted up to. */
  version: number;
  /** Places moved per participant; only rows that moved. */
  moves: Map<string, number>;
}

/**
 * Follows one standings page across draft versions. A change first moves the version (draft.status is
 * patched at once) while the page still shows the old ranks, then the re-ranked page arrives under that
 * version: the page as it stood when the version moved is the baseline the new page is compared with.
 * A page that arrives again under the same version (a read, another page of the same standings) is compared with the same
 * baseline, so the arrows stay until the next pick; a first page has nothing to compare with.
 */
export class RankMoveTracker {
  private version: number | undefined;
  private baseline: readonly Ranked[] = [];
  private current: readonly Ranked[] = [];
  private result: RankMoves = { version: 0, moves: new Map() };

  update(rows: readonly Ranked[], version: number | undefined): RankMoves {
    if (version === undefined) {
      // No draft version yet (its read is under way): nothing to count from.
      this.current = rows;
      return this.result;
    }
    if (this.version === undefined) {
      this.version = version;
      this.baseline = rows;
    } else if (version !== this.version) {
      this.version = version;
      this.baseline = this.current;
    }
    if (rows !== this.current || this.result.version !== version) {
      this.current = rows;
      this.result = { version, moves: rankDeltas(this.baseline, rows) };
    }
    return this.result;
  }
}
