import { canWin, maxPossible } from '@first-round/shared/contention';
import { entrySetGroup } from '@first-round/shared/entries';
import { fieldBest, fieldOdds, oddsSeed, simulateRoundOne, survivalChance, winChances, type FieldEntries, type Simulations } from '@first-round/shared/odds';
import { standingOddsText } from '@first-round/shared/odds-words';
import type { EntryStatus, LeaderboardRow, StandingOdds } from '@first-round/shared/schemas';
import { bustedIn, clinchedIn, countColumns, countSetInto, fieldsAt, idRanks, isRoundOneComplete, rankCounts, type BoardColumns, type DraftSnapshot, type RankedOrder } from '@first-round/shared/scoring';
import type { Book } from '../standings/book.js';
import type { SetTable } from '../standings/set-table.js';
import { RowsAt, type RankedRows, type RowLookup, type Standings } from './standings.js';

/** What a ranking reads beside its order: ids and names by entry index (the global ones only grow). */
export interface EntryNames {
  ids: readonly string[];
  index: ReadonlyMap<string, number>;
  nameAt: readonly string[];
  /** Lower-cased names by entry index, made at the first search and kept in step with renames. */
  lowerNames(): readonly string[];
}

/**
 * One ranking of a group's standings (the global ones, or any group's): its order in typed arrays
 * (shared/src/scoring.ts, `rankCounts`) and no row object until a row is read. A row is made at its first
 * read (a page, a reader's own row, a search's match) and kept with this ranking, so every reader of it
 * shares the same object. The order never changes; the global standings' names are the book's, so a row
 * first read after a rename shows the new name.
 */
export class Ranking implements Standings, RankedRows, RowLookup {
  private readonly made = new Map<number, LeaderboardRow>();
  private byStatus: Partial<Record<EntryStatus, RowsAt>> = {};

  constructor(
    readonly order: RankedOrder,
    private readonly names: EntryNames,
    /** An entry's odds by entry index, while round one is open (made when its row is); none: no row has odds. */
    private readonly odds?: OddsOf,
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

  private clinchedBy: string | null | undefined;

  get clinched(): string | null {
    if (this.clinchedBy === undefined) {
      const e = clinchedIn(this.order);
      this.clinchedBy = e < 0 ? null : this.names.ids[e]!;
    }
    return this.clinchedBy;
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
    if (!row) this.made.set(p, (row = this.rowAt(p)));
    return row;
  }

  /** Rows `start … end`, made for this reader and not kept (the season archive reads every row once). */
  rowsOnce(start: number, end: number): LeaderboardRow[] {
    const rows: LeaderboardRow[] = [];
    for (let p = Math.max(0, start); p < Math.min(end, this.order.size); p++) rows.push(this.made.get(p) ?? this.rowAt(p));
    return rows;
  }

  private rowAt(p: number): LeaderboardRow {
    // One object literal of one shape, its contention filled in place: the live fan-out makes 5,000 of
    // these per pick (each reader's own row), and rest and spread copies cost three objects more each.
    const f = fieldsAt(this.order, p);
    const row: LeaderboardRow = {
      rank: f.rank,
      participant_id: this.names.ids[f.entry]!,
      participant_name: this.names.nameAt[f.entry]!,
      correct_picks: f.correct_picks,
      busted: f.busted,
      tiebreak_rank: f.tiebreak_rank,
      picks: f.picks,
      hits: f.hits,
      misses: f.misses,
      max_possible: 0,
      can_win: false,
      odds: this.odds?.(f.entry),
    };
    row.max_possible = maxPossible(row);
    row.can_win = canWin(row, this.order.bar);
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

/**
 * The global standings from the book: every participant's My Picks, ranked by `rankCounts`; with `previous`
 * (the last ranking of the same book) only the entries whose score changed are placed again.
 */
export function rankGlobal(book: Book, previous?: RankedOrder): Ranking {
  const order = rankCounts(book.globalCounts, book.draft, book.participants.idRank, previous);
  return new Ranking(order, book.participants, globalOdds(book, order));
}

/**
 * The draft as it was at an earlier change (modules/draft/as-of.ts): the board's columns with round one's
 * results of then, and its snapshot. A ranking on it counts every entry on that board with the rules' own
 * `countSetInto` and ranks them with the same `rankCounts`; its rows have no odds.
 */
export interface BoardThen {
  board: BoardColumns;
  draft: DraftSnapshot;
}

/** The book's board with round one as it was (`roundOne`: player id → slot then; later rounds as now). */
export function boardThen(book: Book, roundOne: ReadonlyMap<number, number>, roundOneCompleteMarked: boolean): BoardThen {
  const { count, ids, columns } = book.board;
  const round = columns.round.slice(0, count);
  for (let i = 0; i < count; i++) {
    if (roundOne.has(ids[i]!)) round[i] = 1;
    else if (round[i] === 1) round[i] = 0;
  }
  return { board: { rank: columns.rank.slice(0, count), round }, draft: { roundOnePicks: book.draft.roundOnePicks, filledSlots: roundOne.size, roundOneCompleteMarked } };
}

/** The global standings as they were (`then`): every My Picks counted on that board and ranked, from scratch. */
export function rankGlobalThen(book: Book, then: BoardThen): Ranking {
  const counts = countColumns(book.global.count);
  book.global.countInto(then.board, counts);
  const order = rankCounts(counts, then.draft, book.participants.idRank.subarray(0, counts.count));
  return new Ranking(order, book.participants);
}

/**
 * A group's standings, ranked from the book like the global ones (the same counts, the same `rankCounts`):
 * each member's entry is the set the one entry rule names (shared/src/entries.ts: My Picks when linked,
 * else their own picks in the group); members whose entry has no picks are not ranked. With `then`, as
 * they were at that earlier moment of the draft (each entry counted on that board), without odds.
 */
export function rankGroup(book: Book, groupId: number, members: readonly (readonly [participantId: string, useGlobalPicks: boolean])[], then?: BoardThen): Ranking {
  const entries: NonNullable<ReturnType<Book['entrySet']>>[] = [];
  for (const [participantId, useGlobalPicks] of members) {
    const entry = book.entrySet(participantId, entrySetGroup(groupId, useGlobalPicks));
    if (entry && entry.table.counts.picks[entry.set]! > 0) entries.push(entry);
  }
  const n = entries.length;
  const counts = countColumns(n);
  entries.forEach(({ table, set }, e) => {
    if (then) {
      const picks = table.playersOf(set);
      return countSetInto(picks, 0, picks.length, then.board, counts, e);
    }
    counts.picks[e] = table.counts.picks[set]!;
    counts.hits[e] = table.counts.hits[set]!;
    counts.laterRound[e] = table.counts.laterRound[set]!;
    counts.maxHitRank[e] = table.counts.maxHitRank[set]!;
  });
  // The members' order by id: the book's, among them.
  const byId = book.participants.idRank;
  const idOrder = entries.map((_, e) => e).sort((a, b) => byId[entries[a]!.participant]! - byId[entries[b]!.participant]!);
  const order = rankCounts(counts, then?.draft ?? book.draft, idRanks(idOrder));
  const ids = entries.map((e) => book.participants.ids[e.participant]!);
  const nameAt = entries.map((e) => book.participants.nameAt[e.participant]!);
  let lower: string[] | undefined;
  const names = { ids, nameAt, index: new Map(ids.map((id, e) => [id, e])), lowerNames: () => (lower ??= nameAt.map((name) => name.toLowerCase())) };
  const odds = then ? undefined : groupOdds(book, entries.map(({ table, set }) => table.playersOf(set)));
  return new Ranking(order, names, odds && ((e) => odds[e]));
}

/** An entry's odds in a ranking, by entry index. */
export type OddsOf = (entry: number) => StandingOdds | undefined;

/**
 * Each entry's odds in a group (by entry index): survival and the chance to finish first among the group's
 * entries, from the draft moment's one batch (`bookSimulations`); undefined once round one is complete.
 * Made with the group's ranking, so once per draft moment and group, at its first read, never by a pick.
 */
export function groupOdds(book: Book, entries: readonly ArrayLike<number>[]): StandingOdds[] | undefined {
  if (isRoundOneComplete(book.draft) || entries.length === 0) return undefined;
  const sims = bookSimulations(book);
  const wins = winChances(sims, entries);
  return entries.map((picks, e) => {
    const survive = survivalChance(sims, picks)!;
    const win = wins[e]!;
    return { survive, win, text: standingOddsText(survive, win) };
  });
}

/**
 * Each global entry's odds (by participant index), made when its row is (a page's rows, a reader's own):
 * survival, and the chance to finish first among every global entry. The latter is measured against each
 * simulation's best surviving key over the whole field (`fieldBest`), made once per ranking at the first
 * row read and shared by every row after it; the entries are scanned in the order of their keys at the
 * end where every pending pick goes (`allWentOrder`). Undefined once round one is complete. The batch and
 * the draft are this ranking's; the sets do not change once picks lock (the standings show from then on).
 */
export function globalOdds(book: Book, order: RankedOrder): OddsOf | undefined {
  if (isRoundOneComplete(book.draft) || order.size === 0) return undefined;
  const sims = bookSimulations(book);
  const table = book.global;
  const idRank = book.participants.idRank;
  let made: { field: FieldEntries; best: Float64Array } | undefined;
  return (e) => {
    if (!made) {
      const went = allWentOrder(sims, table, idRank, order.count);
      const field: FieldEntries = { order: went.entries, keys: went.keys, ...table.columns, busted: (s) => bustedIn(order, s) };
      made = { field, best: fieldBest(sims, field) };
    }
    const odds = fieldOdds(sims, made.best, made.field, e)!;
    return { survive: odds.survive, win: odds.win, text: standingOddsText(odds.survive, odds.win) };
  };
}

/** The last `allWentOrder`: what it ranked (the sets as of `writes`, on `board`, the first `count`) and its order. */
let lastWent: { table: SetTable; writes: number; board: BoardColumns; end: DraftSnapshot; count: number; order: RankedOrder } | undefined;
/** Count columns reused by `allWentOrder` (a million entries' are 16 MB). */
let wentCounts = countColumns(0);

/**
 * The global standings at the end of round one where every undrafted player went in it: each set counted
 * on that board and ranked under the completed draft by the rules' own `rankCounts`. An entry that survives
 * a simulation ends with all of its pending picks gone, so its key here is its key in every simulation it
 * survives, and this order is the best first order `fieldBest` scans (equal keys in any order, so the
 * id order's ties do not matter). That board changes only when a player goes in a later round (a
 * round-one pick leaves it as it was), and the sets not at all once picks lock: then the last order is
 * this one, unchanged; else each ranking builds on the last and places almost nobody again.
 */
function allWentOrder(sims: Simulations, table: SetTable, idRank: Int32Array, count: number): RankedOrder {
  const board: BoardColumns = { rank: sims.board.rank, round: sims.board.round.map((round) => round || 1) };
  const end: DraftSnapshot = { roundOnePicks: sims.draft.roundOnePicks, filledSlots: sims.draft.roundOnePicks, roundOneCompleteMarked: sims.draft.roundOneCompleteMarked };
  const last = lastWent?.table === table ? lastWent : undefined;
  const same = last && last.writes === table.writes && last.count === count && last.end.roundOnePicks === end.roundOnePicks && last.end.roundOneCompleteMarked === end.roundOneCompleteMarked && sameColumns(last.board, board);
  if (same) return last.order;
  if (wentCounts.picks.length < count) wentCounts = countColumns(Math.max(count, wentCounts.picks.length * 2));
  const counts = { count, picks: wentCounts.picks.subarray(0, count), hits: wentCounts.hits.subarray(0, count), laterRound: wentCounts.laterRound.subarray(0, count), maxHitRank: wentCounts.maxHitRank.subarray(0, count) };
  table.countInto(board, counts);
  const order = rankCounts(counts, end, idRank.subarray(0, count), last?.order);
  lastWent = { table, writes: table.writes, board, end, count, order };
  return order;
}

let lastBatch: { seed: number; sims: Simulations } | null = null;

/**
 * The draft moment's batch of simulations over the book's board: the batch the web app draws from the same
 * board and draft (`oddsBoard`, the same seed), kept while the seed holds and the board lists its players in
 * the same order (the batch's bits are by board index: a book read whole again may number them anew), so
 * every ranking of one draft moment shares it. The board is copied: the book's columns change with the next
 * draft change.
 */
export function bookSimulations(book: Book): Simulations {
  const { count, columns } = book.board;
  const board: BoardColumns = { rank: columns.rank.slice(0, count), round: columns.round.slice(0, count) };
  const seed = oddsSeed(board, book.draft);
  if (lastBatch && lastBatch.seed === seed && sameColumns(lastBatch.sims.board, board)) return lastBatch.sims;
  const sims = simulateRoundOne(board, book.draft, { seed });
  lastBatch = { seed, sims };
  return sims;
}

function sameColumns(a: BoardColumns, b: BoardColumns): boolean {
  if (a.rank.length !== b.rank.length) return false;
  for (let i = 0; i < a.rank.length; i++) if (a.rank[i] !== b.rank[i] || a.round[i] !== b.round[i]) return false;
  return true;
}
