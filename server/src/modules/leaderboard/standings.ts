import { compareCodePoints } from '@first-round/shared/scoring';
import type { EntryStatus, LeaderboardRow } from '@first-round/shared/schemas';

/**
 * Rows in ranking order: an array, or a list whose rows are made when read (the global standings make a
 * row object only for the rows someone reads: the top pages, a reader's own row). Arrays satisfy it.
 */
export interface RankedRows extends Iterable<LeaderboardRow> {
  readonly length: number;
  at(index: number): LeaderboardRow | undefined;
  slice(start?: number, end?: number): LeaderboardRow[];
  /**
   * Where a participant's row sits, -1 if it is not here, for lists that know it without reading rows (the
   * global ranking keeps each entry's position): the live stream asks it for each of 5,000 readers per pick,
   * and a binary search over rows made on demand cost ~0.4 s of that pick's CPU at 100,000 entries.
   */
  positionOf?(participantId: string): number;
}

/** A ranking's rows by participant id. Maps satisfy it. */
export interface RowLookup {
  readonly size: number;
  get(participantId: string): LeaderboardRow | undefined;
  has(participantId: string): boolean;
}

/** One ranking of a group: what every standings read, the live stream's pages and share cards read. */
export interface Standings {
  rankings: RankedRows;
  alive: number;
  /** The participant whose entry has clinched first place (shared/src/scoring.ts, clinchedIn), or null. */
  clinched: string | null;
  byParticipant: RowLookup;
  /** The rows of one status, in ranking order (made once per ranking, at its first read). */
  withStatus(status: EntryStatus): RankedRows;
  /** The rows whose lower-cased name contains `search` (already lower-cased), of one status if given. */
  matching(search: string, status: EntryStatus | undefined): RankedRows;
}

/** Some rows of a ranking, by their positions in it (ranking order), made only when read. */
export class RowsAt implements RankedRows {
  constructor(
    private readonly all: RankedRows & Required<Pick<RankedRows, 'positionOf'>>,
    private readonly positions: Int32Array,
  ) {}

  get length(): number {
    return this.positions.length;
  }

  at(index: number): LeaderboardRow | undefined {
    const i = index < 0 ? index + this.positions.length : index;
    return i >= 0 && i < this.positions.length ? this.all.at(this.positions[i]!) : undefined;
  }

  slice(start = 0, end = this.positions.length): LeaderboardRow[] {
    return [...this.positions.subarray(start, end)].map((p) => this.all.at(p)!);
  }

  *[Symbol.iterator](): Iterator<LeaderboardRow> {
    for (const p of this.positions) yield this.all.at(p)!;
  }

  /** The participant's position in the whole ranking, searched for among these positions (ascending). */
  positionOf(participantId: string): number {
    const p = this.all.positionOf(participantId);
    if (p < 0) return -1;
    let lo = 0;
    let hi = this.positions.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.positions[mid]! < p) lo = mid + 1;
      else hi = mid;
    }
    return this.positions[lo] === p ? lo : -1;
  }
}

/**
 * Where `row` sits in `rows` (rows in ranking order: rank, then participant id in code point order, as
 * every ranking and every subset of one is), by binary search; -1 when it is not there.
 */
export function positionIn(rows: RankedRows, row: LeaderboardRow): number {
  if (rows.positionOf) return rows.positionOf(row.participant_id);
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const r = rows.at(mid)!;
    const before = r.rank < row.rank || (r.rank === row.rank && compareCodePoints(r.participant_id, row.participant_id) < 0);
    if (before) lo = mid + 1;
    else hi = mid;
  }
  return rows.at(lo)?.participant_id === row.participant_id ? lo : -1;
}
