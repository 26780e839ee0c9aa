import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Orm } from '../../db/orm.js';
import type { TopicBus } from '../../events/topic-bus.js';
import type { Book } from './book.js';
import { groupSetFacts, joinSnapshot, loadBook, participantFacts, readDraftFacts, type ReadBeside } from './book.repository.js';

/** A whole read running beside the book in use: what was heard since it began, whether another is wanted after it, and its end. */
interface Reloading {
  participants: Set<string>;
  groups: Set<number>;
  again: boolean;
  done: Promise<void>;
}

/** How a whole read went (tests, the log and the benchmark look). */
export interface BookLoad {
  ms: number;
  participants: number;
  globalSets: number;
  ownSets: number;
  picks: number;
}

/**
 * This instance's entry book: every pick set in memory with its counts (book.ts), what every standings,
 * the field and the pushes are ranked and counted from. PostgreSQL holds the facts; the book follows them:
 *
 * - **Read whole** at the first use (start-up: the server ranks the global standings at once), in one
 *   repeatable-read transaction (book.repository.ts `loadBook`), and again after a resync (the topic bus
 *   reconnected: announcements may have been lost) or a board import (kind `board`; a new season empties
 *   the picks and says it so). A whole read after the first runs beside the book in use, which keeps
 *   answering meanwhile (draft changes included, below); the new book replaces it between two syncs, and
 *   what was heard during the read is read again into it.
 * - **Brought up to date by `sync()`**, which every ranking awaits first: in one repeatable-read
 *   transaction it reads the board and the draft state (a few hundred rows: a recorded pick, an undo, a
 *   reset or a completion made anywhere, the operator's command line included, shows at the next ranking
 *   without waiting for its notification) and re-counts only the sets holding a player whose result
 *   changed; it reads again the pick sets of every participant and group announced since the last sync
 *   (`picks` topic: saved picks; `cache` kind `participant`: renames, merged accounts; kind `group`: joins,
 *   leaves, an entry forked or linked), trusting no payload beyond the names in it. A change heard twice
 *   (the writer hears its own echo) is read twice, to the same result.
 * - One sync at a time; callers arriving while one waits to start share it. Rankings read the book
 *   between syncs, never during one.
 *
 * Pick sets changed behind the app's back (psql) are not seen until announced or until a resync; draft
 * and board changes are (see above).
 */
export class EntryBook {
  private book: Book | undefined;
  private firstLoad: Promise<Book> | undefined;
  /** Heard since the last sync began: read again by the next. */
  private readonly participantsHeard = new Set<string>();
  private readonly groupsHeard = new Set<number>();
  /** While a whole read runs beside the book: what was heard since it began, and whether another is wanted after it. */
  private reloading: Reloading | undefined;
  /** A whole read asked for while the first one ran (it may have begun before the change it was asked for). */
  private reloadAfterFirst = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** A sync queued and not yet begun: later callers share it. */
  private waiting: Promise<Book> | undefined;
  private readonly reloadedListeners: (() => void)[] = [];
  /** Whole reads done, the last one's figures (tests and the benchmark look). */
  loads = 0;
  lastLoad: BookLoad | undefined;

  constructor(
    private readonly orm: Orm,
    private readonly roundOnePicks: number,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  ) {}

  /** Follows what instances tell each other (call once, with the instance's topic bus). */
  follow(events: Pick<TopicBus, 'on' | 'onInvalidate' | 'onResync'>): void {
    events.on('picks', (change) => this.participantChanged(change.participant_id));
    events.onInvalidate((message) => {
      if (message.kind === 'participant') this.participantChanged(message.participant_id);
      else if (message.kind === 'group') this.groupChanged(message.group_id);
      else if (message.kind === 'board') void this.reload();
    });
    events.onResync(() => void this.reload());
  }

  /** Called after a whole read replaced the book (rankings made from the old one may miss what it missed). */
  onReloaded(listener: () => void): void {
    this.reloadedListeners.push(listener);
  }

  /** A participant's pick sets or name changed: the next sync reads them again. */
  participantChanged(participantId: string): void {
    this.participantsHeard.add(participantId);
    this.reloading?.participants.add(participantId);
  }

  /** A group's own pick sets changed (a fork, a leave, a deleted group): the next sync reads them again. */
  groupChanged(groupId: number): void {
    this.groupsHeard.add(groupId);
    this.reloading?.groups.add(groupId);
  }

  /** The book brought up to date: the draft as PostgreSQL has it now, and every change heard before this call. */
  sync(): Promise<Book> {
    if (this.waiting) return this.waiting;
    const run = this.queue.then(() => {
      this.waiting = undefined;
      return this.syncNow();
    });
    this.waiting = run;
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * Reads every fact again, beside the book in use, which it then replaces (a resync, a board import).
   * Resolves once the new book is in use (or the read failed: the book in use stays, and it is logged).
   */
  reload(): Promise<void> {
    if (this.reloading) {
      // The read running may have begun before what this is for: another follows it.
      this.reloading.again = true;
      return this.reloading.done.then(() => this.reloading?.done);
    }
    if (!this.book) {
      // Not read yet: the first read, when it runs, is whole anyway; one already running may predate this.
      if (this.firstLoad) this.reloadAfterFirst = true;
      return Promise.resolve();
    }
    const heard: Reloading = { participants: new Set(), groups: new Set(), again: false, done: Promise.resolve() };
    this.reloading = heard;
    heard.done = this.loadWhole().then(
      (fresh) => {
        // Between two syncs: a sync already waiting still runs on the old book, later ones on the new.
        this.waiting = undefined;
        const swapped = this.queue.then(() => this.swap(fresh, heard));
        this.queue = swapped;
        return swapped;
      },
      (error: unknown) => {
        this.reloading = undefined;
        this.log.warn({ err: error }, 'entry book: a whole read failed; the book in use stays');
      },
    );
    return heard.done;
  }

  private swap(fresh: Book, heard: Reloading): void {
    this.book = fresh;
    this.reloading = undefined;
    for (const id of heard.participants) this.participantsHeard.add(id);
    for (const id of heard.groups) this.groupsHeard.add(id);
    for (const listener of this.reloadedListeners) listener();
    if (heard.again) void this.reload();
  }

  private loadFirst(): Promise<Book> {
    this.firstLoad ??= this.loadWhole().then(
      (book) => {
        this.book = book;
        if (this.reloadAfterFirst) {
          this.reloadAfterFirst = false;
          void this.reload();
        }
        return book;
      },
      (error: unknown) => {
        this.firstLoad = undefined;
        throw error;
      },
    );
    return this.firstLoad;
  }

  private async loadWhole(): Promise<Book> {
    const t0 = performance.now();
    const snapshotRead = { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true };
    // The sets are read on two connections at once, the second in the first's snapshot.
    const beside: ReadBeside = (snapshot, read) =>
      this.orm.em.fork().transactional(async (tx) => {
        await joinSnapshot(tx, snapshot);
        await read(tx);
      }, snapshotRead);
    const book = await this.orm.em.fork().transactional((tx) => loadBook(tx, this.roundOnePicks, beside), snapshotRead);
    this.loads++;
    this.lastLoad = {
      ms: Math.round(performance.now() - t0),
      participants: book.participants.count,
      globalSets: countSets(book.global.counts.picks, book.global.count),
      ownSets: countSets(book.own.counts.picks, book.own.count),
      picks: book.global.pickCount + book.own.pickCount,
    };
    this.log.info(this.lastLoad, 'entry book read whole');
    return book;
  }

  private async syncNow(): Promise<Book> {
    const book = this.book ?? (await this.loadFirst());
    const participants = [...this.participantsHeard];
    const groups = [...this.groupsHeard];
    this.participantsHeard.clear();
    this.groupsHeard.clear();
    try {
      await this.orm.em.fork().transactional((tx) => applyFacts(tx, book, participants, groups), { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
    } catch (error) {
      // Not read: the next sync asks again.
      for (const id of participants) this.participantsHeard.add(id);
      for (const id of groups) this.groupsHeard.add(id);
      throw error;
    }
    return book;
  }
}

/** Reads the draft and the named participants' and groups' sets in one snapshot, then applies them all. */
async function applyFacts(tx: EntityManager, book: Book, participants: readonly string[], groups: readonly number[]): Promise<void> {
  const draft = await readDraftFacts(tx);
  const facts = participants.length > 0 ? await participantFacts(tx, participants) : undefined;
  const groupSets = new Map<number, Awaited<ReturnType<typeof groupSetFacts>>>();
  for (const groupId of groups) groupSets.set(groupId, await groupSetFacts(tx, groupId));
  // Applied once everything is read, in one go: a ranking never sees half of it.
  book.applyDraft(draft.players, draft.roundOneCompleteMarked);
  if (facts) {
    const setsOf = new Map<string, Map<number, number[]>>();
    for (const [id, groupId, playerIds] of facts.sets) {
      let sets = setsOf.get(id);
      if (!sets) setsOf.set(id, (sets = new Map()));
      sets.set(groupId, playerIds);
    }
    const read = new Map(facts.participants.map((fact) => [fact[1], fact]));
    for (const id of participants) {
      const fact = read.get(id);
      const sets = setsOf.get(id);
      // Gone (deleted, merged away): no entry left. Without picks and unknown to the book: nothing to hold.
      if (!fact) book.forgetSets(id);
      else if (sets || book.participants.index.has(id)) book.replaceSets(book.takeParticipant(fact), sets ?? new Map());
    }
  }
  for (const [groupId, rows] of groupSets) {
    const sets = new Map<number, number[]>();
    for (const [num, id, name, playerIds] of rows) sets.set(book.takeParticipant([num, id, name]), playerIds);
    book.replaceGroup(groupId, sets);
  }
}

function countSets(picks: Int32Array, count: number): number {
  let n = 0;
  for (let s = 0; s < count; s++) if (picks[s]! > 0) n++;
  return n;
}
