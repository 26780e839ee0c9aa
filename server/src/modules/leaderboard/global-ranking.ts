import { canWin, maxPossible } from '@first-round/shared/contention';
import type { EntryStatus, LeaderboardRow } from '@first-round/shared/schemas';
import { bustedIn, fieldsAt, type RankedOrder } from '@first-round/shared/scoring';
import { RowsAt, type RankedRows, type RowLookup, type Standings } from './standings.js';

/** What a global ranking reads of the copy beside its order: ids and names by entry index (they only grow). */
export interface EntryNames {
  ids: readonly string[];
  index: ReadonlyMap<string, number>;
  nameAt: readonly string[];
  /** Lower-cased names by entry index, made at the first search and kept in step with renames. */
  lowerNames(): readonly string[];
}

/**
 * One ranking of the global standings: its order in typed arrays (scoring.ts, `rankCounts`) and no row object
 * until a row is read. A row is made at its first read (a page, a reader's own row, a search's match) and
 * kept with this ranking, so every reader of it shares the same object. The order never changes; names
 * are the copy's, so a row first read after a rename shows the new name.
 */
export class GlobalRanking implements Standings, RankedRows, RowLookup {
  private readonly made = new Map<number, LeaderboardRow>();
  private byStatus: Partial<Record<EntryStatus, RowsAt>> = {};

  constructor(
    private readonly order: RankedOrder,
    private readonly names: EntryNames,
  ) {}

  get rankings(): RankedRows {
    return this;
  }

  get byParticipant(): RowLookup {
    return this;
  }

  get alive(): number {
    return this.order.alive;
  }

  /** Entries ranked (`rankings.length` and `byParticipant.size` alike). */
  get length(): number {
    return this.order.size;
  }

  get size(): number {
    return this.order.size;
  }

  at(index: number): LeaderboardRow | undefined {
    const p = index < 0 ? index + this.order.size : index;
    if (!(p >= 0 && p < this.order.size)) return undefined;
    let row = this.made.get(p);
    if (!row) {
      // One object literal of one shape, its contention filled in place: the live fan-out makes 5,000 of
      // these per pick (each reader's own row), and rest and spread copies cost three objects more each.
      const f = fieldsAt(this.order, p);
      row = {
        rank: f.rank,
        participant_id: this.names.ids[f.entry]!,
        participant_name: this.names.nameAt[f.entry]!,
        correct_picks: f.correct_picks,
        busted: f.busted,
        tiebreak_rank: f.tiebreak_rank,
        picks: f.picks,
        max_possible: 0,
        can_win: false,
      };
      row.max_possible = maxPossible(row);
      row.can_win = canWin(row, this.order.bar);
      this.made.set(p, row);
    }
    return row;
  }

  slice(start = 0, end = this.order.size): LeaderboardRow[] {
    const rows: LeaderboardRow[] = [];
    for (let p = Math.max(0, start); p < Math.min(end, this.order.size); p++) rows.push(this.at(p)!);
    return rows;
  }

  *[Symbol.iterator](): Iterator<LeaderboardRow> {
    for (let p = 0; p < this.order.size; p++) yield this.at(p)!;
  }

  /** The position of a participant's entry in this ranking, -1 if it has none (or it came later). */
  positionOf(participantId: string): number {
    const e = this.names.index.get(participantId);
    return e === undefined || e >= this.order.count ? -1 : this.order.positionOf[e]!;
  }

  get(participantId: string): LeaderboardRow | undefined {
    const p = this.positionOf(participantId);
    return p < 0 ? undefined : this.at(p);
  }

  has(participantId: string): boolean {
    return this.positionOf(participantId) >= 0;
  }

  withStatus(status: EntryStatus): RankedRows {
    let rows = this.byStatus[status];
    if (!rows) {
      const busted = status === 'busted';
      const positions = new Int32Array(busted ? this.order.size - this.order.alive : this.order.alive);
      let i = 0;
      for (let p = 0; p < this.order.size; p++) if (bustedIn(this.order, this.order.entries[p]!) === busted) positions[i++] = p;
      this.byStatus[status] = rows = new RowsAt(this, positions);
    }
    return rows;
  }

  matching(search: string, status: EntryStatus | undefined): RankedRows {
    const lower = this.names.lowerNames();
    const positions: number[] = [];
    for (let p = 0; p < this.order.size; p++) {
      const e = this.order.entries[p]!;
      if (lower[e]!.includes(search) && (status === undefined || bustedIn(this.order, e) === (status === 'busted'))) positions.push(p);
    }
    return new RowsAt(this, Int32Array.from(positions));
  }
}
