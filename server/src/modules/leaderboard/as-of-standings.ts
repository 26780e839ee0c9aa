import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { benchmarkRows } from '@first-round/shared/benchmark-entries';
import { snapshotOf } from '@first-round/shared/draft-snapshot';
import { benchmarkRowsOutput, type BenchmarkRowDto } from '@first-round/shared/schemas';
import { CappedCache } from '../../cache/capped.js';
import type { Orm } from '../../db/orm.js';
import { prepareJson } from '../../responses/json-body.js';
import type { DraftAsOfCache, DraftMoment } from '../draft/as-of.js';
import type { Book } from '../standings/book.js';
import type { EntryBook } from '../standings/entry-book.js';
import { groupMembers } from '../standings/book.repository.js';
import { boardThen, rankGlobalThen, rankGroup, type BoardThen } from './ranking.js';
import type { Standings } from './standings.js';

/** Rankings as of an earlier change kept (a group's or the global one's, per change), least recently read evicted first. */
const MAX_RANKINGS_THEN = 64;

/**
 * Standings as they were at an earlier change of the draft (a moment, modules/draft/as-of.ts): what a
 * page loaded with a viewing delay shows while the changes within the delay are held back. Ranked by the
 * same code as the standings now (ranking.ts, on the rules' `countSetInto` and `rankCounts`), fed the
 * board of that moment, only when asked, and kept per moment and group: many first visitors within a
 * delay cost one ranking, and the live path (every page's re-ranking after a change) never makes one.
 * Entries and names are the book's as they are now (picks are locked from the start).
 */
export class AsOfStandings {
  private readonly rankings = new CappedCache<string, { book: Book; value: Promise<Standings> }>(MAX_RANKINGS_THEN);
  private readonly boards = new WeakMap<Book, WeakMap<DraftMoment, BoardThen>>();
  private readonly benchmarks = new WeakMap<DraftMoment, BenchmarkRowDto[]>();

  constructor(
    private readonly orm: Orm,
    private readonly book: EntryBook,
    private readonly draft: DraftAsOfCache,
    private readonly benchmarksOn: boolean,
  ) {}

  /** Group `groupId`'s standings (1: the global ones) as of `moment`. */
  async get(moment: DraftMoment, groupId: number): Promise<Standings> {
    const book = await this.book.sync();
    const key = `${moment.eventId}:${groupId}`;
    const kept = this.rankings.get(key);
    if (kept && kept.book === book) return kept.value;
    const value = this.rank(book, moment, groupId);
    this.rankings.set(key, { book, value });
    void value.catch(() => this.rankings.get(key)?.value === value && this.rankings.delete(key));
    return value;
  }

  private async rank(book: Book, moment: DraftMoment, groupId: number): Promise<Standings> {
    if (groupId === GLOBAL_GROUP_ID) return rankGlobalThen(book, this.boardOf(book, moment));
    const members = await groupMembers(this.orm.em.fork(), groupId);
    return rankGroup(book, groupId, members, this.boardOf(book, moment));
  }

  private boardOf(book: Book, moment: DraftMoment): BoardThen {
    let byMoment = this.boards.get(book);
    if (!byMoment) this.boards.set(book, (byMoment = new WeakMap()));
    let then = byMoment.get(moment);
    if (!then) byMoment.set(moment, (then = boardThen(book, moment.roundOne, moment.state.roundOneComplete)));
    return then;
  }

  /** The benchmark entries as of `moment` (benchmarks.cache.ts's rows, on that moment's board and status). */
  async benchmarkRows(moment: DraftMoment): Promise<BenchmarkRowDto[]> {
    if (!this.benchmarksOn) return prepareJson([]);
    const made = this.benchmarks.get(moment);
    if (made) return made;
    const board = await this.draft.board(moment);
    const status = this.draft.status(moment);
    const picked = board.map((p) => ({ rank: p.rank, draftRound: p.draft_round }));
    const rows = prepareJson(benchmarkRowsOutput.parse(benchmarkRows(picked, snapshotOf(status, board))));
    this.benchmarks.set(moment, rows);
    return rows;
  }
}
