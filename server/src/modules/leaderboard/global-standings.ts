import type { Knex } from '@mikro-orm/postgresql';
import { codePointOrder, type DraftSnapshot } from '@first-round/shared/scoring';
import { idRanks, rankCounts, type CountColumns, type RankedOrder } from '@first-round/shared/standings-order';
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
  /** The counts, one Int32Array each, with room to grow (`count` entries used). 0 = no hit. */
  counts: CountColumns;
  /** Each entry's place in participant-id order (COLLATE "C"); recomputed when entries are added. */
  idRank: Int32Array;
  /** Display names by entry index (a Map lookup per entry and ranking would cost ~20 ms). */
  nameAt: string[];
  /** `lowerNames()`'s names once made (the first search), else undefined. */
  lower: string[] | undefined;
}

interface Names extends Since {
  byId: Map<string, string>;
}

type Row = unknown[];

interface Read extends Since {
  /** Only the entries written since the previous read. */
  partial: boolean;
  /** Entry rows: `[participant_id, packed counts]` (see PACKED_COUNTS), else `[participant_id, picks, hits, later_round, max_hit_rank]`. */
  rows: Row[];
  packed: boolean;
  /** Every participant's name, not only changed ones. */
  allNames: boolean;
  names: Row[];
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
 * snapshot (a recorded pick rewrites the sets holding that player, about one in four), in the driver's
 * array row mode, applied in place to the copy's typed arrays; then every entry is scored again with the
 * rules of shared/src/scoring.ts and only those whose score changed are placed again in the previous order
 * (shared/src/standings-order.ts); a row object is made only when someone reads it (global-ranking.ts).
 * server/test/leaderboard-sql.test.ts and global-standings.test.ts hold it equal to the SQL and the rules.
 *
 * "Written since" is PostgreSQL's own bookkeeping, so nothing slips past it: every row version carries the
 * id of the transaction that wrote it (`xmin`), and the previous snapshot says which transactions it saw
 * (`unseenFrom`).
 * Removed entries leave no row: the entry count, read in the same snapshot, tells, and then that ranking
 * reads every entry. So pick edits, account moves, deletions, board changes and renames made anywhere
 * (another instance, the operator's command line, psql) show in the next ranking without a notification;
 * `renamed(id)`, `forgetNames()` and `reload()` exist for callers that want to be explicit.
 */
export class GlobalStandings {
  private entries: Entries | undefined;
  private names: Names | undefined;
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
    this.applyNames(read);
    // Entries were removed since the copy was read (it would hold more than there are): only a whole read
    // can tell which, and it replaces the copy the partial one was applied to.
    if (!this.applyEntries(read)) {
      read = await this.read(undefined);
      this.applyNames(read);
      this.applyEntries(read);
    }
    this.lastRead = { partial: read.partial, entryRows: read.rows.length, allNames: read.allNames, nameRows: read.names.length, snapshot: read.snapshot };
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
          const q = async (text: string, bindings: Knex.RawBinding[] = []): Promise<Row[]> =>
            ((await trx.raw(text, bindings).options({ rowMode: 'array' })) as { rows: Row[] }).rows;
          const [state] = await q(
            `select pg_current_snapshot()::text,
                    (select count(*)::int from player where draft_round = 1),
                    coalesce((select round_one_complete from draft_state where id = 1), false),
                    (select count(*)::int from entry_stat where pick_group_id = 1)`,
          );
          const [snapshot, filled, marked, total] = state as [string, number, boolean, number];
          const writtenSince = (before: Since): [string, Knex.RawBinding[]] => ['age(xmin) <= age(?::xid)', [unseenFrom(before.snapshot, snapshot)]];
          const [changed, changedBindings] = since ? writtenSince(since) : ['true', []];
          // The four counts travel packed in one number (one field to parse instead of four: ~25 % less
          // time for the 22,000 rows a pick changes); a set too large to pack comes as separate columns.
          let rows = await q(`select participant_id, ${PACKED_COUNTS} from entry_stat where pick_group_id = 1 and ${changed}`, changedBindings);
          const packed = !rows.some((r) => r[1] === null);
          if (!packed) {
            rows = await q(`select participant_id, picks, hits, later_round, max_hit_rank from entry_stat where pick_group_id = 1 and ${changed}`, changedBindings);
          }
          // Names: all of them once; then those of participants written since (renames), of entries not
          // named yet and of participants `renamed()` named.
          let names: Row[];
          if (!namesSince) names = await q(`select id, coalesce(screen_name, id) from participant`);
          else {
            const [renamedSince, renamedBindings] = writtenSince(namesSince);
            names = await q(`select id, coalesce(screen_name, id) from participant where ${renamedSince}`, renamedBindings);
            const known = this.names!.byId;
            const wanted = new Set(renamed);
            // Rows of entries not named yet: only new entries are, and with as many entries as the copy
            // holds there are none (or some were removed too, and the whole read that follows names them).
            // Not looked up row by row at every pick: at a million entries a pick changes ~250,000.
            const entries = this.entries;
            if (!since || !entries || total !== entries.ids.length) for (const r of rows) if (!known.has(r[0] as string)) wanted.add(r[0] as string);
            if (wanted.size > 0) names = names.concat(await q(`select id, coalesce(screen_name, id) from participant where id = any(?::text[])`, [[...wanted]]));
          }
          const draft: DraftSnapshot = { roundOnePicks: this.draft.roundOnePicks, filledSlots: filled, roundOneCompleteMarked: marked };
          return { partial: since !== undefined, rows, packed, allNames: !namesSince, names, total, snapshot, readAt: Date.now(), draft };
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

  private applyNames(read: Read) {
    const byId = read.allNames ? new Map<string, string>() : this.names!.byId;
    const entries = this.entries;
    for (const [id, name] of read.names) {
      byId.set(id as string, name as string);
      const at = entries?.index.get(id as string);
      if (at === undefined) continue;
      entries!.nameAt[at] = name as string;
      if (entries!.lower) entries!.lower[at] = (name as string).toLowerCase();
    }
    if (entries && read.allNames) {
      entries.nameAt = entries.ids.map((id) => byId.get(id) ?? id);
      entries.lower = undefined;
    }
    this.names = { byId, snapshot: read.snapshot, readAt: read.readAt };
  }

  /**
   * Applies the rows read to the copy (a whole read makes a new copy). False when a partial read leaves the
   * copy holding other than the `total` entries there are: some were removed, and the copy must be read again whole.
   */
  private applyEntries(read: Read): boolean {
    let entries = this.entries;
    if (!read.partial || !entries) {
      entries = newEntries(read);
      // A new copy numbers its entries anew: the next ranking places every entry.
      this.previous = undefined;
    }
    const { counts } = entries;
    let added = false;
    for (const r of read.rows) {
      const id = r[0] as string;
      const at = entries.index.get(id);
      const [picks, hits, laterRound, maxHitRank] = read.packed
        ? unpackCounts(r[1] as number)
        : [r[1] as number, r[2] as number, r[3] as number, (r[4] as number | null) ?? 0];
      const e = at ?? entries.ids.length;
      if (e >= counts.picks.length) grow(counts);
      counts.picks[e] = picks;
      counts.hits[e] = hits;
      counts.laterRound[e] = laterRound;
      counts.maxHitRank[e] = maxHitRank;
      if (at === undefined) {
        entries.index.set(id, e);
        entries.ids.push(id);
        // Names were applied first: a new entry's name is known.
        const name = this.names!.byId.get(id) ?? id;
        entries.nameAt.push(name);
        entries.lower?.push(name.toLowerCase());
        added = true;
      }
    }
    counts.count = entries.ids.length;
    // Adding entries keeps the existing ones' relative id order, so a previous ranking stays usable.
    if (added) entries.idRank = idRanks(codePointOrder(entries.ids));
    entries.snapshot = read.snapshot;
    entries.readAt = read.readAt;
    this.entries = entries;
    return !read.partial || entries.ids.length === read.total;
  }

  /** Ranks the copy: only the entries whose score changed since the previous ranking move (standings-order.ts). */
  private rank(draft: DraftSnapshot): GlobalRanking {
    const entries = this.entries!;
    const order = rankCounts(entries.counts, draft, entries.idRank, this.previous);
    this.previous = order;
    this.lastRanked = { moved: order.moved, size: order.size };
    return new GlobalRanking(order, entries);
  }
}

/** An empty copy, to fill from a whole read. */
function newEntries(read: Read): Entries {
  const capacity = Math.max(1024, read.rows.length);
  const entries: Entries = {
    ids: [],
    index: new Map(),
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

/** An entry's counts as one float8 (exact below 2^53): picks · 2^40 + hits · 2^32 + later · 2^24 + max hit rank; null if they do not fit. */
const PACKED_COUNTS = `case when picks < 8192 and hits < 256 and later_round < 256 and coalesce(max_hit_rank, 0) between 0 and 16777215
  then picks * 1099511627776::float8 + hits * 4294967296::float8 + later_round * 16777216::float8 + coalesce(max_hit_rank, 0) end`;

/** Picks, hits, later-round picks, max hit rank (0: none; big-board ranks start at 1), as small integers. */
function unpackCounts(packed: number): [number, number, number, number] {
  const picks = Math.floor(packed / 2 ** 40);
  const rest = packed - picks * 2 ** 40;
  const hits = Math.floor(rest / 2 ** 32);
  const low = rest - hits * 2 ** 32;
  const laterRound = Math.floor(low / 2 ** 24);
  return [picks | 0, hits | 0, laterRound | 0, (low - laterRound * 2 ** 24) | 0];
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
