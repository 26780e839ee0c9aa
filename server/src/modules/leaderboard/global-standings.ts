import type { RankedOrder } from '@first-round/shared/scoring';
import type { Book } from '../standings/book.js';
import type { EntryBook } from '../standings/entry-book.js';
import { rankGlobal, type Ranking } from './ranking.js';

/**
 * The global standings (every participant's My Picks: 100,000 entries and more on draft night), ranked
 * from the entry book's counts (modules/standings/) by the rules' own `rankCounts` (shared/src/scoring.ts),
 * each ranking built on the previous one: every entry is scored again (arithmetic over typed arrays) and
 * only those whose score changed are placed again. A row object is made only when someone reads it
 * (ranking.ts). server/test/in-memory-standings.test.ts and global-standings.test.ts hold it to
 * `rankEntries` on random data and operator sequences.
 */
export class GlobalStandings {
  private queue: Promise<unknown> = Promise.resolve();
  /** The last ranking's order and the book it was made of: the next one builds on it while the book is the same. */
  private previous: { book: Book; order: RankedOrder } | undefined;
  /** How many entries the last ranking placed again, of how many (tests and the benchmark look). */
  lastRanked: { moved: number; size: number } | undefined;
  /** How many rankings were made (tests look: a burst of changes is ranked together). */
  rankings = 0;

  constructor(private readonly book: EntryBook) {}

  /** A ranking asked for but not begun: later calls join it (it syncs the book when it begins, so it has their changes). */
  private waiting: Promise<Ranking> | undefined;

  /**
   * Ranks the global entries now (the book synced first). Calls run one at a time, each building on the
   * previous; calls made while one waits to begin share it, so a burst of changes costs one ranking, not
   * one each (a ranking of 100,000 entries is milliseconds of the event loop).
   */
  compute(): Promise<Ranking> {
    if (this.waiting) return this.waiting;
    const run = this.queue.then(() => {
      this.waiting = undefined;
      return this.rankNow();
    });
    this.waiting = run;
    this.queue = run.catch(() => {});
    return run;
  }

  private async rankNow(): Promise<Ranking> {
    const book = await this.book.sync();
    // A book read whole since numbers its entries anew: then every entry is placed again.
    const previous = this.previous?.book === book ? this.previous.order : undefined;
    const ranking = rankGlobal(book, previous);
    this.previous = { book, order: ranking.order };
    this.lastRanked = { moved: ranking.order.moved, size: ranking.order.size };
    this.rankings++;
    return ranking;
  }
}
