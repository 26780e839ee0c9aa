import type { Knex } from '@mikro-orm/postgresql';
import { codePointOrder, idRanks, rankCounts, type CountColumns, type DraftSnapshot, type RankedOrder } from '@first-round/shared/scoring';
import type { Orm } from '../../db/orm.js';
import type { DraftSettings } from '../draft/draft.service.js';
import { GlobalRanking, type EntryNames } from './global-ranking.js';

/** A copy read longer ago than this is read again whole (also keeps transaction ids far from wrapping). */
const MAX_DELTA_AGE_MS = 10 * 60_000;

/** The snapshot something was read in: what it could not see is what was written since. */
interface Since {
  /** `pg_current_snapshot()` as text: `xmin:xmax:xip,…` (64-bit transaction ids). */
  snapshot: string;
  readAt: number;
}

/**
 * The global entries as last read: `entry_stat` rows of pick group 1, by entry index. Kept in place from
 * one ranking to the next: counts in typed arrays (no object per entry for the young generation to copy),
 * ids and names in arrays that only grow; a whole read makes a new copy.
 */
interface Entries extends Since, EntryNames {
  ids: string[];
  index: Map<string, number>;
  /**
   * Entry index + 1 by participant number (`participant.num`; 0: not in the copy), with room to grow: how a
   * changed entry read as numbers finds its place (a map of a million ids cost ~0.2 s a pick in lookups).
   */
  byNum: Int32Array;
  /** The counts, one Int32Array each, with room to grow (`count` entries used). 0 = no hit. */
  counts: CountColumns;
  /** Each entry's place in participant-id order (COLLATE "C"); recomputed when entries are added. */
  idRank: Int32Array;
  /** Display names by entry index (a Map lookup per entry and ranking would cost ~20 ms). */
  nameAt: string[];
  /** `lowerNames()`'s names once made (the first search), else undefined. */
  lower: string[] | undefined;
}


type Row = unknown[];

/** A participant as the reads select them (SELECT_PARTICIPANTS). */
type Participant = [num: number, id: string, name: string];
const SELECT_PARTICIPANTS = 'select num, id, coalesce(screen_name, id) from participant';

interface Read extends Since {
  /** Only the entries written since the previous read. */
  partial: boolean;
  /** The entries read, as `countsRecord` makes them: RECORD_BYTES each, one buffer for all. */
  counts: Buffer;
  /** `[num, id, name]` of the entries read that the copy does not hold (all of them on a whole read). */
  newEntries: Participant[];
  /** Every entry's name was read: on a whole read (with its entries), or all names again (`forgetNames()`, an old copy). */
  allNames: boolean;
  /** `[num, id, name]` of participants for a partial read: all, or those written since and those `renamed()` named. */
  names: Participant[];
  /** Entries in the snapshot. */
  total: number;
  draft: DraftSnapshot;
}

/**
 * The global standings (every participant's global pick set: 100,000 entries and more on draft night)
 * ranked in Node from a copy of their `entry_stat` counts, reading only what changed since the last ranking.
 *
 * Where the time went before (~560 ms at 100,000 entries): the leaderboard SQL ranked every entry inside
 * PostgreSQL (a join with every participant and two sorts spilling to disk), then all rows crossed to Node
 * as objects. Now a ranking is one repeatable-read, read-only transaction that reads the draft state, the
 * entry count and only the `entry_stat` and `participant` rows written since the previous ranking's
 * snapshot (a recorded pick rewrites the sets holding that player, about one in four), the entries as one
 * buffer of integers keyed by participant number (countsRecord), applied in place to the copy's typed
 * arrays; then every entry is scored again with the
 * rules of shared/src/scoring.ts and only those whose score changed are placed again in the previous order
 * (`rankCounts`, shared/src/scoring.ts); a row object is made only when someone reads it (global-ranking.ts).
 * server/test/leaderboard-sql.test.ts and global-standings.test.ts hold it equal to the SQL and the rules.
 *
 * "Written since" is PostgreSQL's own bookkeeping, so nothing slips past it: every row version carries the
 * id of the transaction that wrote it (`xmin`), and the previous snapshot says which transactions it saw
 * (`unseenFrom`).
 * Removed entries leave no row: the entry count, read in the same snapshot, tells, and then that ranking
 * reads every entry; so does a participant whose id changed (their number did not, and the copy keys on it).
 * So pick edits, account moves, deletions, board changes and renames made anywhere
 * (another instance, the operator's command line, psql) show in the next ranking without a notification;
 * `renamed(id)`, `forgetNames()` and `reload()` exist for callers that want to be explicit.
 */
export class GlobalStandings {
  private entries: Entries | undefined;
  /** When names were last read: the next partial read asks for those written since. */
  private names: Since | undefined;
  /** Set by `reload()`, `forgetNames()` and `renamed()`, taken by the next read (the copy itself only changes in `compute`). */
  private reloadWanted = false;
  private namesStale = false;
  private readonly renamedIds = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  /** The last ranking's order, which the next one builds on (undefined after a whole read). */
  private previous: RankedOrder | undefined;
  /** How many entries the last ranking placed again, of how many (tests and the benchmark look). */
  lastRanked: { moved: number; size: number } | undefined;
  /** What the last ranking read (tests and the benchmark look): only changes, or everything; and in which snapshot. */
  lastRead: { partial: boolean; entryRows: number; allNames: boolean; nameRows: number; snapshot: string } | undefined;

  constructor(
    private readonly orm: Orm,
    private readonly draft: DraftSettings,
  ) {}

  /** Ranks the global entries now. Calls run one at a time: each builds on what the previous one read. */
  compute(): Promise<GlobalRanking> {
    const run = this.queue.then(() => this.rankNow());
    this.queue = run.catch(() => {});
    return run;
  }

  /** The next ranking reads every entry again (after a lost notification connection, say). */
  reload() {
    this.reloadWanted = true;
  }

  /** The next ranking reads every participant's name again. */
  forgetNames() {
    this.namesStale = true;
  }

  /** The next ranking reads this participant's name again (it already would: this only makes sure). */
  renamed(participantId: string) {
    this.renamedIds.add(participantId);
  }

  private async rankNow(): Promise<GlobalRanking> {
    const reload = this.reloadWanted;
    this.reloadWanted = false;
    let read = await this.read(reload ? undefined : recent(this.entries)).catch((error: unknown) => {
      this.reloadWanted ||= reload;
      throw error;
    });
    // Entries were removed since the copy was read (it would hold more than there are), or a participant's
    // id changed: only a whole read can tell which, and it replaces the copy the partial one was applied to.
    if (!this.apply(read)) {
      read = await this.read(undefined);
      this.apply(read);
    }
    this.lastRead = { partial: read.partial, entryRows: read.counts.length / RECORD_BYTES, allNames: read.allNames, nameRows: read.names.length, snapshot: read.snapshot };
    return this.rank(read.draft);
  }

  /** One snapshot: the draft state, the entry count, the entries (all, or those written since `since`) and names. */
  private async read(since: Since | undefined): Promise<Read> {
    const namesSince = this.namesStale ? undefined : recent(this.names);
    const renamed = [...this.renamedIds];
    this.namesStale = false;
    this.renamedIds.clear();
    try {
      return await this.orm.em.getKnex().transaction(
        async (trx) => {
          const q = async <R extends Row = Row>(text: string, bindings: Knex.RawBinding[] = []): Promise<R[]> =>
            ((await trx.raw(text, bindings).options({ rowMode: 'array' })) as { rows: R[] }).rows;
          const [state] = await q(
            `select pg_current_snapshot()::text,
                    (select count(*)::int from player where draft_round = 1),
                    coalesce((select round_one_complete from draft_state where id = 1), false)`,
          );
          const [snapshot, filled, marked] = state as [string, number, boolean];
          const writtenSince = (before: Since): [string, Knex.RawBinding[]] => ['age(xmin) <= age(?::xid)', [unseenFrom(before.snapshot, snapshot)]];
          const [changed, changedBindings] = since ? writtenSince(since) : ['true', []];
          // The counts come as one buffer of integers: no row object, no string, no id to look up per entry
          // (at a million entries a pick changes ~250,000 of them; docs/decisions.md, "Entry numbers").
          // The entry count comes from the same scan (a removed entry leaves no row to read).
          const [[total, base64]] = (await q(`select count(*)::int, ${countsRecord(changed)} from entry_stat where pick_group_id = 1`, changedBindings)) as [
            [number, string],
          ];
          const counts = Buffer.from(base64, 'base64');
          // The entries the copy does not hold yet, with their ids and names: every one on a whole read,
          // else those numbers read that the copy has no place for (new entries: none at all on most picks).
          const entries = since ? this.entries : undefined;
          let newEntries: Participant[];
          if (!entries) {
            newEntries = await q<Participant>(
              `select s.participant_num, s.participant_id, coalesce(p.screen_name, p.id) from entry_stat s join participant p on p.id = s.participant_id where s.pick_group_id = 1`,
            );
          } else {
            const unknown = unknownNumbers(counts, entries.byNum);
            newEntries = unknown.length === 0 ? [] : await q<Participant>(`${SELECT_PARTICIPANTS} where num = any(?::int[])`, [unknown]);
          }
          // Names of the entries already held (a whole read has them all): all of them again when asked or
          // when the last were read long ago; else those of participants written since (renames) and of
          // participants `renamed()` named.
          let names: Participant[] = [];
          if (entries && !namesSince) names = await q<Participant>(SELECT_PARTICIPANTS);
          else if (entries && namesSince) {
            const [renamedSince, renamedBindings] = writtenSince(namesSince);
            names = await q<Participant>(`${SELECT_PARTICIPANTS} where ${renamedSince}`, renamedBindings);
            if (renamed.length > 0) names = names.concat(await q<Participant>(`${SELECT_PARTICIPANTS} where id = any(?::text[])`, [renamed]));
          }
          const draft: DraftSnapshot = { roundOnePicks: this.draft.roundOnePicks, filledSlots: filled, roundOneCompleteMarked: marked };
          return { partial: since !== undefined, counts, newEntries, allNames: !entries || !namesSince, names, total, snapshot, readAt: Date.now(), draft };
        },
        { isolationLevel: 'repeatable read', readOnly: true },
      );
    } catch (error) {
      // Not read: the next ranking asks again.
      if (!namesSince) this.namesStale = true;
      for (const id of renamed) this.renamedIds.add(id);
      throw error;
    }
  }

  /** Applies a read to the copy; false when the copy must be read whole. */
  private apply(read: Read): boolean {
    const idsKept = this.applyNames(read);
    return this.applyEntries(read) && idsKept;
  }

  /** Takes the names a partial read brought; false when one of them says an entry's participant has another id than the copy's. */
  private applyNames(read: Read): boolean {
    this.names = { snapshot: read.snapshot, readAt: read.readAt };
    const entries = read.partial ? this.entries : undefined;
    if (!entries) return true;
    let idsKept = true;
    for (const [num, id, name] of read.names) {
      const at = entryAt(entries.byNum, num);
      if (at < 0) continue;
      if (entries.ids[at] !== id) idsKept = false;
      entries.nameAt[at] = name;
      if (entries.lower) entries.lower[at] = name.toLowerCase();
    }
    return idsKept;
  }

  /**
   * Applies the entries read to the copy (a whole read makes a new copy). False when a partial read leaves the
   * copy holding other than the `total` entries there are: some were removed, and the copy must be read again whole.
   */
  private applyEntries(read: Read): boolean {
    let entries = this.entries;
    if (!read.partial || !entries) {
      entries = emptyCopy(read);
      // A new copy numbers its entries anew: the next ranking places every entry.
      this.previous = undefined;
    }
    const { counts } = entries;
    for (const [num, id, name] of read.newEntries) {
      if (entryAt(entries.byNum, num) >= 0) continue;
      const e = entries.ids.length;
      if (e >= counts.picks.length) grow(counts);
      if (num >= entries.byNum.length) entries.byNum = grown(entries.byNum, num + 1);
      entries.byNum[num] = e + 1;
      entries.index.set(id, e);
      entries.ids.push(id);
      entries.nameAt.push(name);
      entries.lower?.push(name.toLowerCase());
    }
    // The counts, in place: RECORD_BYTES per entry (countsRecord).
    const data = new DataView(read.counts.buffer, read.counts.byteOffset, read.counts.length);
    const { byNum } = entries;
    for (let o = 0; o < data.byteLength; o += RECORD_BYTES) {
      const e = entryAt(byNum, data.getInt32(o));
      // Its id was read in the same snapshot; a number without one would be a copy gone wrong: read it whole.
      if (e < 0) return false;
      counts.picks[e] = data.getInt32(o + 4);
      counts.hits[e] = data.getInt32(o + 8);
      counts.laterRound[e] = data.getInt32(o + 12);
      counts.maxHitRank[e] = data.getInt32(o + 16);
    }
    const added = entries.ids.length > counts.count;
    counts.count = entries.ids.length;
    // Adding entries keeps the existing ones' relative id order, so a previous ranking stays usable.
    if (added) entries.idRank = idRanks(codePointOrder(entries.ids));
    entries.snapshot = read.snapshot;
    entries.readAt = read.readAt;
    this.entries = entries;
    return !read.partial || entries.ids.length === read.total;
  }

  /** Ranks the copy: only the entries whose score changed since the previous ranking move (`rankCounts`). */
  private rank(draft: DraftSnapshot): GlobalRanking {
    const entries = this.entries!;
    const order = rankCounts(entries.counts, draft, entries.idRank, this.previous);
    this.previous = order;
    this.lastRanked = { moved: order.moved, size: order.size };
    return new GlobalRanking(order, entries);
  }
}

/** An empty copy, to fill from a whole read. */
function emptyCopy(read: Read): Entries {
  const capacity = Math.max(1024, read.newEntries.length);
  const entries: Entries = {
    ids: [],
    index: new Map(),
    byNum: new Int32Array(capacity),
    counts: { count: 0, picks: new Int32Array(capacity), hits: new Int32Array(capacity), laterRound: new Int32Array(capacity), maxHitRank: new Int32Array(capacity) },
    idRank: new Int32Array(0),
    nameAt: [],
    lower: undefined,
    lowerNames: () => (entries.lower ??= entries.nameAt.map((name) => name.toLowerCase())),
    snapshot: read.snapshot,
    readAt: read.readAt,
  };
  return entries;
}

/** Doubles the columns' room (entries added after the whole read). */
function grow(counts: CountColumns) {
  const more = (column: Int32Array) => {
    const bigger = new Int32Array(column.length * 2);
    bigger.set(column);
    return bigger;
  };
  counts.picks = more(counts.picks);
  counts.hits = more(counts.hits);
  counts.laterRound = more(counts.laterRound);
  counts.maxHitRank = more(counts.maxHitRank);
}

/**
 * Each entry read, in one value for all of them: participant number, picks, hits, later-round picks and the
 * largest hit's big-board rank (0: none), each a big-endian int32 (RECORD_BYTES in all). One value to
 * receive instead of a row per entry: no object, string or number per entry for the garbage collector.
 * As base64 text: the driver hands binary results over as text, and Node decodes base64 two to three times
 * faster than the `bytea` hex output, which is also half as long again (10 MB at 250,000 entries).
 */
const countsRecord = (filter: string) =>
  `encode(coalesce(string_agg(int4send(participant_num) || int4send(picks) || int4send(hits) || int4send(later_round) || int4send(coalesce(max_hit_rank, 0)), ''::bytea) filter (where ${filter}), ''::bytea), 'base64')`;
const RECORD_BYTES = 20;

/** The entry index of participant number `num` in the copy, -1 if it has none. */
function entryAt(byNum: Int32Array, num: number): number {
  return num < byNum.length ? byNum[num]! - 1 : -1;
}

/** `byNum` with room for `size` numbers (doubled, at least). */
function grown(byNum: Int32Array, size: number): Int32Array {
  const bigger = new Int32Array(Math.max(size, byNum.length * 2));
  bigger.set(byNum);
  return bigger;
}

/** The participant numbers in `counts` (countsRecord) that the copy holds no entry for. */
function unknownNumbers(counts: Buffer, byNum: Int32Array): number[] {
  const data = new DataView(counts.buffer, counts.byteOffset, counts.length);
  const unknown: number[] = [];
  for (let o = 0; o < data.byteLength; o += RECORD_BYTES) {
    const num = data.getInt32(o);
    if (entryAt(byNum, num) < 0) unknown.push(num);
  }
  return unknown;
}

/**
 * The lowest transaction id whose writes the `before` snapshot may not have seen, as the 32-bit id
 * `age(xid)` takes; rows with `age(xmin) <= age(it)` are then a superset of those written since.
 *
 * Rows `now` sees and `before` did not were written by transactions that started after `before` (ids
 * from its xmax up) or that were running then (its xip list) and have finished since (not in `now`'s
 * list). Writes in a savepoint carry the savepoint's own id, which is above its transaction's, so the
 * bound covers them too (a finer test such as pg_visible_in_snapshot would miss them: snapshots list
 * top-level ids only). A transaction still running at `now` does not hold the bound back: nothing it
 * wrote is visible yet, and the next read's `before` still lists it.
 */
export function unseenFrom(before: string, now: string): string {
  const [, xmax, xip = ''] = before.split(':');
  const running = new Set((now.split(':')[2] ?? '').split(','));
  let lowest = BigInt(xmax!);
  for (const id of xip.split(',')) if (id && !running.has(id) && BigInt(id) < lowest) lowest = BigInt(id);
  return (lowest % 2n ** 32n).toString();
}

/** A read recent enough to build on (older ones are read again whole, far from any transaction id wrap). */
function recent<T extends Since>(since: T | undefined): T | undefined {
  return since && Date.now() - since.readAt < MAX_DELTA_AGE_MS ? since : undefined;
}
