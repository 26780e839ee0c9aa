import { countSetInto, type BoardColumns, type CountColumns } from '@first-round/shared/scoring';

/**
 * Pick sets in typed arrays, no object per set: a million sets of ~15 picks each are ~60 MB here, where
 * arrays of numbers per set would be several times that for the garbage collector to walk.
 *
 * - Each set's players (indexes into the board's columns) sit in one pool: `pool[start[s] .. start[s] +
 *   picks[s])`, with `room[s]` places there. A set written again with as many players or fewer stays in
 *   place; a bigger one moves to the pool's end (what it leaves behind is not reused: sets change rarely,
 *   and never once picks lock).
 * - Its counts (`counts`, shared/src/scoring.ts's `CountColumns`) are made by the rules' own `countSetInto`
 *   whenever the set or a player in it changes.
 * - Who holds each player, so a draft change re-counts only the sets holding the players it changed: the
 *   sets by player as counted at the last `index()` (one Int32Array, by player `holderStart[p] ..
 *   holderStart[p + 1]`), plus the sets written since (`written`, by player). A set listed for a player it
 *   no longer holds is only counted again for nothing: counting is from the set's players as they are.
 */
export class SetTable {
  /** Sets: 0..count-1 (a set with no picks is no entry). */
  readonly counts: CountColumns;
  private start: Int32Array;
  private room: Int32Array;
  private pool: Int32Array;
  private poolUsed = 0;
  private holderStart = new Int32Array(1);
  private holders = new Int32Array(0);
  private written = new Map<number, number[]>();
  private writtenTotal = 0;
  /** A set counted in the current `recount` (its stamp), so a set holding several changed players is counted once. */
  private stamp = new Int32Array(0);
  private stampNow = 0;
  /** Moves with every change to a set's players or to which sets there are (not with a recount: the players stay). */
  private generation = 0;

  constructor(capacity = 1024, poolCapacity = capacity * 16) {
    const size = Math.max(16, capacity);
    this.counts = { count: 0, picks: new Int32Array(size), hits: new Int32Array(size), laterRound: new Int32Array(size), maxHitRank: new Int32Array(size) };
    this.start = new Int32Array(size);
    this.room = new Int32Array(size);
    this.pool = new Int32Array(Math.max(256, poolCapacity));
  }

  get count(): number {
    return this.counts.count;
  }

  /** What moves when a set's players change or sets are added: equal, the sets are as they were. */
  get writes(): number {
    return this.generation;
  }

  /** Picks in the sets (what the pool holds of them). */
  get pickCount(): number {
    let n = 0;
    for (let s = 0; s < this.counts.count; s++) n += this.counts.picks[s]!;
    return n;
  }

  /** Adds empty sets up to `count` in all; answers the first new one. */
  grow(count: number): number {
    const first = this.counts.count;
    if (count <= first) return first;
    this.generation++;
    if (count > this.start.length) {
      const size = Math.max(count, this.start.length * 2);
      const more = (a: Int32Array) => {
        const b = new Int32Array(size);
        b.set(a);
        return b;
      };
      const c = this.counts;
      c.picks = more(c.picks);
      c.hits = more(c.hits);
      c.laterRound = more(c.laterRound);
      c.maxHitRank = more(c.maxHitRank);
      this.start = more(this.start);
      this.room = more(this.room);
    }
    this.counts.count = count;
    return first;
  }

  /** Every set counted on another board (the odds' end of round one, ranking.ts) into `out`, sets 0..out.count-1. */
  countInto(board: BoardColumns, out: CountColumns): void {
    for (let s = 0; s < out.count; s++) countSetInto(this.pool, this.start[s]!, this.start[s]! + this.counts.picks[s]!, board, out, s);
  }

  /** Every set's players as columns, read only: set s's are `players[start[s] .. start[s] + picks[s])` (valid until the next write). */
  get columns(): { players: Int32Array; start: Int32Array; picks: Int32Array } {
    return { players: this.pool, start: this.start, picks: this.counts.picks };
  }

  /** Set `s`'s players (read only: a view of the pool). */
  playersOf(s: number): Int32Array {
    return this.pool.subarray(this.start[s]!, this.start[s]! + this.counts.picks[s]!);
  }

  /** Adds one to `tally[p]` for each player `p` of set `s` (the field: how many entries hold each player). */
  tallyPlayers(s: number, tally: Int32Array): void {
    const from = this.start[s]!;
    const to = from + this.counts.picks[s]!;
    for (let i = from; i < to; i++) tally[this.pool[i]!]!++;
  }

  /** Whether set `s` holds player `player`. */
  holds(s: number, player: number): boolean {
    const from = this.start[s]!;
    const to = from + this.counts.picks[s]!;
    for (let i = from; i < to; i++) if (this.pool[i] === player) return true;
    return false;
  }

  /**
   * Writes set `s` (its `n` players, board indexes, the first `n` of `players`) and counts it. `tracked` false while loading: the holders are
   * indexed once, by `index()`, when the load is done.
   */
  write(s: number, players: ArrayLike<number>, n: number, board: BoardColumns, tracked = true): void {
    if (n > this.room[s]!) {
      this.reservePool(this.poolUsed + n);
      this.start[s] = this.poolUsed;
      this.room[s] = n;
      this.poolUsed += n;
    }
    this.generation++;
    const at = this.start[s]!;
    for (let i = 0; i < n; i++) this.pool[at + i] = players[i]!;
    countSetInto(this.pool, at, at + n, board, this.counts, s);
    if (!tracked) return;
    for (let i = 0; i < n; i++) {
      const p = players[i]!;
      let list = this.written.get(p);
      if (!list) this.written.set(p, (list = []));
      list.push(s);
    }
    this.writtenTotal += n;
    // Written lists grow with every save; past the index's own size they are folded into it.
    if (this.writtenTotal > 1024 && this.writtenTotal * 2 > this.holders.length) this.index();
  }

  /** Set `s` has no picks any more (no entry). */
  clear(s: number): void {
    this.generation++;
    const c = this.counts;
    c.picks[s] = 0;
    c.hits[s] = 0;
    c.laterRound[s] = 0;
    c.maxHitRank[s] = 0;
  }

  /** Gives back the pool's room beyond its picks and an eighth more (a load doubles it as it goes: up to half unused). */
  trim(): void {
    const room = this.poolUsed + (this.poolUsed >> 3);
    if (this.pool.length > room + 1024) this.pool = this.pool.slice(0, room);
  }

  /** Indexes the holders of every player from the sets as they are (then `written` starts empty). */
  index(): void {
    for (const step of this.indexSteps()) void step;
  }

  /**
   * `index()` in steps of about a million picks each (a load yields to the event loop between them: at
   * twenty million picks the whole takes ~0.5 s). Nothing may write sets until the last step is taken.
   */
  *indexSteps(): Generator<void> {
    const n = this.counts.count;
    const { start, pool } = this;
    const picks = this.counts.picks;
    const STEP = 50_000;
    let players = 0;
    for (let s = 0; s < n; s++) {
      for (let i = start[s]!; i < start[s]! + picks[s]!; i++) if (pool[i]! >= players) players = pool[i]! + 1;
      if (s % STEP === STEP - 1) yield;
    }
    const starts = new Int32Array(players + 1);
    for (let s = 0; s < n; s++) {
      for (let i = start[s]!; i < start[s]! + picks[s]!; i++) starts[pool[i]! + 1]!++;
      if (s % STEP === STEP - 1) yield;
    }
    for (let p = 0; p < players; p++) starts[p + 1]! += starts[p]!;
    const holders = new Int32Array(starts[players]!);
    const next = starts.slice(0, players);
    for (let s = 0; s < n; s++) {
      for (let i = start[s]!; i < start[s]! + picks[s]!; i++) holders[next[pool[i]!]!++] = s;
      if (s % STEP === STEP - 1) yield;
    }
    this.holderStart = starts;
    this.holders = holders;
    this.written = new Map();
    this.writtenTotal = 0;
  }

  /** Counts again every set holding one of `changed` (board indexes), with the board as it is now. */
  recount(changed: Iterable<number>, board: BoardColumns): void {
    if (this.stamp.length < this.counts.count) this.stamp = new Int32Array(Math.max(this.counts.count, this.stamp.length * 2));
    const stamp = ++this.stampNow;
    const countOnce = (s: number) => {
      if (this.stamp[s] === stamp) return;
      this.stamp[s] = stamp;
      const at = this.start[s]!;
      countSetInto(this.pool, at, at + this.counts.picks[s]!, board, this.counts, s);
    };
    const indexed = this.holderStart.length - 1;
    for (const p of changed) {
      if (p < indexed) for (let i = this.holderStart[p]!; i < this.holderStart[p + 1]!; i++) countOnce(this.holders[i]!);
      for (const s of this.written.get(p) ?? []) countOnce(s);
    }
  }

  private reservePool(size: number) {
    if (size <= this.pool.length) return;
    const bigger = new Int32Array(Math.max(size, this.pool.length * 2));
    bigger.set(this.pool.subarray(0, this.poolUsed));
    this.pool = bigger;
  }
}
