import type { Knex } from '@mikro-orm/postgresql';
import { canWinWith, NO_BAR } from '@first-round/shared/contention';
import { codePointOrder, orderByScore, scoreCounts, type DraftSnapshot, type EntryScore } from '@first-round/shared/scoring';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import type { Orm } from '../../db/orm.js';
import type { DraftSettings } from '../draft/draft.service.js';
import type { Standings } from './leaderboard.cache.js';

/** A copy read longer ago than this is read again whole (also keeps transaction ids far from wrapping). */
const MAX_DELTA_AGE_MS = 10 * 60_000;

/** The snapshot something was read in: what it could not see is what was written since. */
interface Since {
  /** `pg_current_snapshot()` as text: `xmin:xmax:xip,…` (64-bit transaction ids). */
  snapshot: string;
  readAt: number;
}

/** The global entries as last read: `entry_stat` rows of pick group 1, by entry index. */
interface Entries extends Since {
  ids: string[];
  index: Map<string, number>;
  /**
   * The counts by entry index, one array each (small integers: V8 keeps them unboxed; objects whose
   * fields changed representation, null to number, cost ~40 ms per 22,000 updates). 0 = no hit.
   */
  picks: number[];
  hits: number[];
  laterRound: number[];
  maxHitRank: number[];
  /** Entry indexes in participant-id order (COLLATE "C"); recomputed when entries are added. */
  idOrder: number[];
  /** Display names by entry index (a Map lookup per entry and ranking would cost ~20 ms). */
  nameAt: string[];
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
 * array row mode; then every entry is scored and ordered in memory with the rules of
 * shared/src/scoring.ts (`scoreCounts`, `orderByScore`), which server/test/leaderboard-sql.test.ts and
 * global-standings.test.ts hold equal to the SQL.
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
  /** What the last ranking read (tests and the benchmark look): only changes, or everything; and in which snapshot. */
  lastRead: { partial: boolean; entryRows: number; allNames: boolean; nameRows: number; snapshot: string } | undefined;

  constructor(
    private readonly orm: Orm,
    private readonly draft: DraftSettings,
  ) {}

  /** Ranks the global entries now. Calls run one at a time: each builds on what the previous one read. */
  compute(): Promise<Standings> {
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

  private async rankNow(): Promise<Standings> {
    const reload = this.reloadWanted;
    this.reloadWanted = false;
    let read = await this.read(reload ? undefined : recent(this.entries)).catch((error: unknown) => {
      this.reloadWanted ||= reload;
      throw error;
    });
    this.applyNames(read);
    // Entries were removed since the copy was read: only a whole read can tell which.
    if (read.partial && read.total !== this.entryCountAfter(read.rows)) {
      read = await this.read(undefined);
      this.applyNames(read);
    }
    this.applyEntries(read);
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
            for (const r of rows) if (!known.has(r[0] as string)) wanted.add(r[0] as string);
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

  /** How many entries the copy would hold with these rows applied. */
  private entryCountAfter(rows: Row[]): number {
    const entries = this.entries!;
    let added = 0;
    for (const r of rows) if (!entries.index.has(r[0] as string)) added++;
    return entries.ids.length + added;
  }

  private applyNames(read: Read) {
    const byId = read.allNames ? new Map<string, string>() : this.names!.byId;
    const entries = this.entries;
    for (const [id, name] of read.names) {
      byId.set(id as string, name as string);
      const at = entries?.index.get(id as string);
      if (at !== undefined) entries!.nameAt[at] = name as string;
    }
    if (entries && read.allNames) entries.nameAt = entries.ids.map((id) => byId.get(id) ?? id);
    this.names = { byId, snapshot: read.snapshot, readAt: read.readAt };
  }

  private applyEntries(read: Read) {
    const entries: Entries = read.partial
      ? this.entries!
      : { ids: [], index: new Map(), picks: [], hits: [], laterRound: [], maxHitRank: [], idOrder: [], nameAt: [], snapshot: read.snapshot, readAt: read.readAt };
    let added = false;
    for (const r of read.rows) {
      const id = r[0] as string;
      const at = entries.index.get(id);
      const [picks, hits, laterRound, maxHitRank] = read.packed
        ? unpackCounts(r[1] as number)
        : [r[1] as number, r[2] as number, r[3] as number, (r[4] as number | null) ?? 0];
      const e = at ?? entries.ids.length;
      entries.picks[e] = picks;
      entries.hits[e] = hits;
      entries.laterRound[e] = laterRound;
      entries.maxHitRank[e] = maxHitRank;
      if (at === undefined) {
        entries.index.set(id, e);
        entries.ids.push(id);
        // Names were applied first: a new entry's name is known.
        entries.nameAt.push(this.names!.byId.get(id) ?? id);
        added = true;
      }
    }
    if (added) entries.idOrder = codePointOrder(entries.ids);
    entries.snapshot = read.snapshot;
    entries.readAt = read.readAt;
    this.entries = entries;
  }

  private rank(draft: DraftSnapshot): Standings {
    const { ids, index, picks, hits, laterRound, maxHitRank, idOrder, nameAt } = this.entries!;
    // Entries share few distinct counts: one score per distinct counts. Besides the work, that saves
    // allocating 100,000 objects that the next scavenges would copy (measured: 60-100 ms less per ranking).
    const memo = new Map<number, EntryScore>();
    const scores = ids.map((_, e) => {
      const key = countsKey(picks[e]!, hits[e]!, laterRound[e]!, maxHitRank[e]!);
      let score = key === undefined ? undefined : memo.get(key);
      if (!score) {
        score = scoreCounts({ picks: picks[e]!, hits: hits[e]!, laterRound: laterRound[e]!, maxHitRank: maxHitRank[e] || null }, draft);
        if (key !== undefined) memo.set(key, score);
      }
      return score;
    });
    const { entries, ranks } = orderByScore(scores, idOrder);
    // Who can still win: against the best settled entry (contention.ts), the first one in ranking order.
    let bar = NO_BAR;
    for (let p = 0; p < entries.length; p++) {
      const e = entries[p]!;
      const score = scores[e]!;
      if (!score.busted && score.pending === 0) {
        bar = { score: score.correctPicks, tiebreakRank: score.tiebreakRank ?? 0 };
        break;
      }
    }
    // Arrays filled in order (push, typed arrays): V8 keeps them dense and fast at any size.
    const rankings: LeaderboardRow[] = [];
    const positionOf = new Int32Array(ids.length).fill(-1);
    let alive = 0;
    for (let p = 0; p < entries.length; p++) {
      const e = entries[p]!;
      const score = scores[e]!;
      rankings.push({
        rank: ranks[p]!,
        participant_id: ids[e]!,
        participant_name: nameAt[e]!,
        correct_picks: score.correctPicks,
        busted: score.busted,
        tiebreak_rank: score.tiebreakRank,
        picks: picks[e]!,
        max_possible: score.busted ? 0 : picks[e]!,
        can_win: canWinWith(score.correctPicks, score.busted, score.tiebreakRank, picks[e]!, bar),
      });
      positionOf[e] = p;
      if (!score.busted) alive++;
    }
    return { rankings, alive, byParticipant: new RowsByParticipant(index, positionOf, rankings) };
  }
}

/**
 * `byParticipant` of the global standings: a read-only Map over the copy's id → entry index (which only
 * grows) and this ranking's positions by entry index, instead of a new 100,000-key Map per ranking (~50 ms).
 * Ids added to the copy after this ranking are not in it; iteration follows the ranking.
 */
class RowsByParticipant extends Map<string, LeaderboardRow> {
  constructor(
    private readonly index: ReadonlyMap<string, number>,
    /** Entry index → position in `rankings` (-1: not ranked). */
    private readonly positionOf: Int32Array,
    private readonly rankings: readonly LeaderboardRow[],
  ) {
    super();
  }

  override get(participantId: string): LeaderboardRow | undefined {
    const at = this.index.get(participantId);
    const position = at === undefined || at >= this.positionOf.length ? -1 : this.positionOf[at]!;
    return position < 0 ? undefined : this.rankings[position];
  }

  override has(participantId: string): boolean {
    return this.get(participantId) !== undefined;
  }

  override get size(): number {
    return this.rankings.length;
  }

  override *entries(): MapIterator<[string, LeaderboardRow]> {
    for (const row of this.rankings) yield [row.participant_id, row];
  }

  override *keys(): MapIterator<string> {
    for (const row of this.rankings) yield row.participant_id;
  }

  override *values(): MapIterator<LeaderboardRow> {
    yield* this.rankings;
  }

  override [Symbol.iterator](): MapIterator<[string, LeaderboardRow]> {
    return this.entries();
  }

  override forEach(callback: (value: LeaderboardRow, key: string, map: Map<string, LeaderboardRow>) => void, thisArg?: unknown): void {
    for (const row of this.rankings) callback.call(thisArg, row, row.participant_id, this);
  }

  override set(): this {
    throw new Error('standings are read-only');
  }

  override delete(): boolean {
    throw new Error('standings are read-only');
  }

  override clear(): void {
    throw new Error('standings are read-only');
  }
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

/** One number per distinct counts, when they are in the usual ranges (else undefined: scored alone). */
function countsKey(picks: number, hits: number, laterRound: number, maxHitRank: number): number | undefined {
  if (!(picks >= 0 && picks < 128 && hits >= 0 && hits < 128 && laterRound >= 0 && laterRound < 128 && maxHitRank >= 0 && maxHitRank < 2_097_152)) return undefined;
  const key = ((picks * 128 + hits) * 128 + laterRound) * 2_097_152 + maxHitRank;
  return Number.isInteger(key) ? key : undefined;
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
