import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { compareCodePoints, type BoardColumns, type CountColumns, type DraftSnapshot } from '@first-round/shared/scoring';
import { SetTable } from './set-table.js';

/** A player as read: id, big-board rank, draft round (0: not drafted). */
export type PlayerFact = [id: number, rank: number, round: number];
/** A participant as read: their number (`participant.num`), id, and the name the standings show. */
export type ParticipantFact = [num: number, id: string, name: string];

/** The board as the rules read it: each player's rank and draft round, by board index. */
export class Board {
  /** Board index by player id. */
  readonly index = new Map<number, number>();
  readonly columns: BoardColumns = { rank: new Int32Array(256), round: new Int32Array(256) };
  ids = new Int32Array(256);
  count = 0;
  /** Players taken in round one (the draft's filled slots). */
  filled = 0;

  /** The board index of player `id` (a player not read yet gets one, rank and round 0 until read). */
  indexOf(id: number): number {
    let i = this.index.get(id);
    if (i === undefined) {
      i = this.count++;
      if (i >= this.ids.length) {
        const more = (a: Int32Array) => {
          const b = new Int32Array(a.length * 2);
          b.set(a);
          return b;
        };
        this.ids = more(this.ids);
        this.columns.rank = more(this.columns.rank);
        this.columns.round = more(this.columns.round);
      }
      this.ids[i] = id;
      this.index.set(id, i);
    }
    return i;
  }

  /** Takes the players as read; answers the board indexes whose rank or round changed. */
  apply(players: readonly PlayerFact[]): number[] {
    const changed: number[] = [];
    let filled = 0;
    for (const [id, rank, round] of players) {
      const i = this.indexOf(id);
      if (this.columns.rank[i] !== rank || this.columns.round[i] !== round) {
        this.columns.rank[i] = rank;
        this.columns.round[i] = round;
        changed.push(i);
      }
      if (round === 1) filled++;
    }
    this.filled = filled;
    return changed;
  }
}

/**
 * The participants the book knows (every one with a pick set), by index: ids, names, and the order of
 * their ids (code point order, COLLATE "C": how the standings list entries that share a rank). An index
 * never changes while the book lives; the arrays only grow.
 */
export class Participants {
  readonly ids: string[] = [];
  readonly nameAt: string[] = [];
  readonly index = new Map<string, number>();
  /** Index + 1 by participant number (0: none). */
  private byNum = new Int32Array(1024);
  /** Indexes in id order. */
  private order = new Int32Array(1024);
  /** By index: its place in id order (0..count-1). */
  private rank = new Int32Array(1024);
  private lower: string[] | undefined;

  get count(): number {
    return this.ids.length;
  }

  /** Each participant's place in id order, by index (`rankCounts`'s `idRank`). */
  get idRank(): Int32Array {
    return this.rank.subarray(0, this.count);
  }

  /** Lower-cased names by index, made at the first search and kept in step with renames. */
  lowerNames(): readonly string[] {
    return (this.lower ??= this.nameAt.map((name) => name.toLowerCase()));
  }

  byNumber(num: number): number {
    return num < this.byNum.length ? this.byNum[num]! - 1 : -1;
  }

  /** The participant's index, added (in id order) or renamed as read. */
  take([num, id, name]: ParticipantFact): number {
    let p = this.index.get(id);
    if (p === undefined) p = this.add(id, name);
    else if (this.nameAt[p] !== name) {
      this.nameAt[p] = name;
      if (this.lower) this.lower[p] = name.toLowerCase();
    }
    if (num >= this.byNum.length) this.byNum = grown(this.byNum, num + 1);
    this.byNum[num] = p + 1;
    return p;
  }

  private add(id: string, name: string): number {
    const p = this.ids.length;
    this.ids.push(id);
    this.nameAt.push(name);
    this.lower?.push(name.toLowerCase());
    this.index.set(id, p);
    if (p >= this.order.length) {
      this.order = grown(this.order, p + 1);
      this.rank = grown(this.rank, p + 1);
    }
    // Its place in id order: at the end when it comes after every id (a load reads them in order), else found.
    let at = p;
    if (p > 0 && compareCodePoints(id, this.ids[this.order[p - 1]!]!) < 0) {
      let lo = 0;
      let hi = p;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareCodePoints(this.ids[this.order[mid]!]!, id) < 0) lo = mid + 1;
        else hi = mid;
      }
      at = lo;
      this.order.copyWithin(at + 1, at, p);
      for (let i = at + 1; i <= p; i++) this.rank[this.order[i]!] = i;
    }
    this.order[at] = p;
    this.rank[p] = at;
    return p;
  }
}

/**
 * What the standings are made of, in memory: the board, the participants, and every pick set with its
 * counts (global sets by participant index: `global`; group sets: `own`). Facts only, read from PostgreSQL
 * (book.repository.ts); the counts are the rules' (`countSetInto`). Kept by the instance's EntryBook
 * (entry-book.ts), which changes it only between rankings.
 */
export class Book {
  readonly board = new Board();
  readonly participants = new Participants();
  /** Global pick sets: set `p` is participant `p`'s My Picks (no picks: no entry). */
  readonly global: SetTable;
  /** Pick sets of other groups (a member's own picks there). */
  readonly own: SetTable;
  /** By own set: its group. */
  private ownGroup: number[] = [];
  /** Reused for each set written (board indexes): sets are written one at a time, copied into their table. */
  private scratch = new Int32Array(64);
  /** Own set by group, then participant index. */
  private readonly ownByGroup = new Map<number, Map<number, number>>();
  /** Own sets by participant index. */
  private readonly ownByOwner = new Map<number, number[]>();
  draft: DraftSnapshot;

  constructor(roundOnePicks: number, expectedParticipants = 1024) {
    this.global = new SetTable(expectedParticipants);
    this.own = new SetTable();
    this.draft = { roundOnePicks, filledSlots: 0, roundOneCompleteMarked: false };
  }

  /** The global sets' counts by participant index: the global standings' columns. */
  get globalCounts(): CountColumns {
    return this.global.counts;
  }

  /** Takes the board and draft state as read; the sets holding a changed player are counted again. */
  applyDraft(players: readonly PlayerFact[], roundOneCompleteMarked: boolean): void {
    const changed = this.board.apply(players);
    if (changed.length > 0) {
      this.global.recount(changed, this.board.columns);
      this.own.recount(changed, this.board.columns);
    }
    this.draft = { roundOnePicks: this.draft.roundOnePicks, filledSlots: this.board.filled, roundOneCompleteMarked };
  }

  /** A participant as read (added, or renamed): their index. Every participant has a global set (maybe empty). */
  takeParticipant(fact: ParticipantFact): number {
    const p = this.participants.take(fact);
    this.global.grow(this.participants.count);
    return p;
  }

  /**
   * Writes one of participant `p`'s sets (group 1: My Picks) from its player ids: `playerIds[from..from+n)`
   * (a load passes the ids as they came, without an array per set). `tracked` false while loading.
   */
  writeSet(p: number, groupId: number, playerIds: ArrayLike<number>, tracked = true, from = 0, n = playerIds.length - from): void {
    if (this.scratch.length < n) this.scratch = new Int32Array(Math.max(n, this.scratch.length * 2));
    const players = this.scratch;
    for (let i = 0; i < n; i++) players[i] = this.board.indexOf(playerIds[from + i]!);
    if (groupId === GLOBAL_GROUP_ID) this.global.write(p, players, n, this.board.columns, tracked);
    else this.own.write(this.ownSet(p, groupId), players, n, this.board.columns, tracked);
  }

  /** Participant `p`'s sets as they are now, replacing the book's (sets not named have no picks any more). */
  replaceSets(p: number, sets: ReadonlyMap<number, ArrayLike<number>>): void {
    const mine = sets.get(GLOBAL_GROUP_ID);
    if (mine && mine.length > 0) this.writeSet(p, GLOBAL_GROUP_ID, mine);
    else this.global.clear(p);
    for (const s of this.ownByOwner.get(p) ?? []) if (!sets.has(this.ownGroup[s]!)) this.own.clear(s);
    for (const [groupId, playerIds] of sets) if (groupId !== GLOBAL_GROUP_ID) this.writeSet(p, groupId, playerIds);
  }

  /** A participant no longer there (deleted, merged away): none of their sets are entries. */
  forgetSets(id: string): void {
    const p = this.participants.index.get(id);
    if (p === undefined) return;
    this.global.clear(p);
    for (const s of this.ownByOwner.get(p) ?? []) this.own.clear(s);
  }

  /** Group `groupId`'s own sets as they are now (participant index → player ids), replacing the book's. */
  replaceGroup(groupId: number, sets: ReadonlyMap<number, ArrayLike<number>>): void {
    for (const [p, s] of this.ownByGroup.get(groupId) ?? []) if (!sets.has(p)) this.own.clear(s);
    for (const [p, playerIds] of sets) this.writeSet(p, groupId, playerIds);
  }

  /** Indexes who holds which player, once a load has written every set (`writeSet(…, false)`): in steps (SetTable.indexSteps). */
  *indexHolders(): Generator<void> {
    this.global.trim();
    this.own.trim();
    yield* this.global.indexSteps();
    yield* this.own.indexSteps();
  }

  /**
   * Where a member's entry in a group is: the one entry rule (shared/src/entries.ts), applied by the caller:
   * `setGroup` is `entrySetGroup(group, linked)`. Undefined when the book has no such set.
   */
  entrySet(participantId: string, setGroup: number): { table: SetTable; set: number; participant: number } | undefined {
    const p = this.participants.index.get(participantId);
    if (p === undefined) return undefined;
    if (setGroup === GLOBAL_GROUP_ID) return { table: this.global, set: p, participant: p };
    const s = this.ownByGroup.get(setGroup)?.get(p);
    return s === undefined ? undefined : { table: this.own, set: s, participant: p };
  }

  /** Participant `p`'s sets with picks: group 1 (My Picks) and each group of their own picks. */
  setsOf(p: number): { groupId: number; table: SetTable; set: number }[] {
    const sets: { groupId: number; table: SetTable; set: number }[] = [];
    if (this.global.counts.picks[p]! > 0) sets.push({ groupId: GLOBAL_GROUP_ID, table: this.global, set: p });
    for (const s of this.ownByOwner.get(p) ?? []) if (this.own.counts.picks[s]! > 0) sets.push({ groupId: this.ownGroup[s]!, table: this.own, set: s });
    return sets;
  }

  /** The own set of participant `p` in group `groupId`, made (empty) when it has none. */
  private ownSet(p: number, groupId: number): number {
    let byParticipant = this.ownByGroup.get(groupId);
    if (!byParticipant) this.ownByGroup.set(groupId, (byParticipant = new Map()));
    let s = byParticipant.get(p);
    if (s === undefined) {
      s = this.own.grow(this.own.count + 1);
      byParticipant.set(p, s);
      this.ownGroup[s] = groupId;
      let mine = this.ownByOwner.get(p);
      if (!mine) this.ownByOwner.set(p, (mine = []));
      mine.push(s);
    }
    return s;
  }
}

function grown(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(size, a.length * 2));
  b.set(a);
  return b;
}
