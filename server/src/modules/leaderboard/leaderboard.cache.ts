import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { compareCodePoints } from '@first-round/shared/scoring';
import { leaderboardRowOutput, type EntryStatus, type LeaderboardInput, type LeaderboardRow } from '@first-round/shared/schemas';
import { prepareJson } from '../../cache/json-body.js';
import type { MaybePromise } from '../../cache/maybe-promise.js';
import type { Orm } from '../../db/orm.js';
import { sql } from '../../db/sql.js';
import type { DraftSettings } from '../draft/draft.service.js';
import type { DraftEventHub } from '../draft/draft.events.js';
import { GlobalStandings } from './global-standings.js';
import { groupLeaderboardSql } from './leaderboard.sql.js';

export interface Standings {
  rankings: LeaderboardRow[];
  alive: number;
  byParticipant: Map<string, LeaderboardRow>;
}

const MAX_AGE_MS = 60_000;
/** Distinct pages (limit, offset) of one ranking kept serialised; other pages are sliced per request. */
const MAX_PAGES = 64;
/** Distinct searches of one ranking kept; others are searched per request. */
const MAX_SEARCHES = 256;

/**
 * Ranked standings per group, computed by the leaderboard SQL inside PostgreSQL and kept at most 60 s.
 * Any draft change (heard through LISTEN/NOTIFY, so also from the CLI or another instance) makes every
 * entry stale at once; membership changes drop their group, renames and board imports every ranking (all
 * announced on the invalidation channel). Concurrent readers share one computation.
 *
 * The global standings (every entry) are never ranked by a request: they are re-ranked in the
 * background after each draft change or announcement (and once a minute while announcements cannot be
 * heard), and requests read the latest ranked copy. Each re-rank reads only what changed since the
 * previous one (global-standings.ts).
 */
export class LeaderboardCache {
  private readonly cache = new Map<number, { version: number; at: number; value: Standings }>();
  private readonly inFlight = new Map<number, { version: number; promise: Promise<Standings> }>();
  /** Pages of a ranking, validated and serialised once: every reader of that page shares the bytes. */
  private readonly pages = new WeakMap<Standings, Map<string, LeaderboardRow[]>>();
  /** Callers' own rows, validated and serialised (`ownRow`). */
  private readonly ownRows = new WeakMap<LeaderboardRow, LeaderboardRow>();
  /** A ranking's alive and busted rows apart (for boards that fold the busted ones away), made once. */
  private readonly byStatus = new WeakMap<Standings, Record<EntryStatus, LeaderboardRow[]>>();
  /**
   * A ranking's names in lower case, row by row, made at its first search (measured at 100,000 entries:
   * up to ~40 ms, once per ranking and only if someone searches; each search then takes ~1–1.5 ms).
   */
  private readonly lowerNames = new WeakMap<Standings, string[]>();
  /**
   * A ranking's search results by search and status: the live stream sends a watched search again after
   * every pick, to each of its watchers, and one pass over 100,000 names takes a few milliseconds.
   */
  private readonly searches = new WeakMap<Standings, Map<string, LeaderboardRow[]>>();
  /** The global group, ranked in Node from what changed since its last ranking (global-standings.ts). */
  private readonly global: GlobalStandings;
  /** Moves when rankings go stale without a draft change (a rename, a join): older results are not kept. */
  private generation = 0;

  constructor(
    private readonly orm: Orm,
    private readonly draft: DraftSettings,
    private readonly events: DraftEventHub,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {
    this.global = new GlobalStandings(orm, draft);
    // After every draft change the global standings are ranked once, here, in the background: requests
    // only ever read a ranked copy. Other groups are small and ranked on their first read.
    events.onChange(() => this.refresh());
    events.onResync(() => {
      this.global.reload();
      this.refresh();
    });
    events.onInvalidate((message) => {
      // Names (a rename, a merged account) and the board (tie-break ranks) show in every ranking.
      if (message.kind === 'participant') this.renamed(message.participant_id);
      if (message.kind === 'board') this.refresh();
      if (message.kind === 'group') this.invalidate(message.group_id);
    });
  }

  /**
   * A caller's own row as the answer shows it, validated and serialised at its first read in this ranking
   * (rankings are new rows each time, so a row never changes under its copy).
   */
  ownRow(row: LeaderboardRow): LeaderboardRow {
    let own = this.ownRows.get(row);
    if (!own) this.ownRows.set(row, (own = prepareJson(leaderboardRowOutput.parse(row))));
    return own;
  }

  /** Rows `offset … offset + limit` of a ranking, the same (prepared) array for every reader of it. */
  page(standings: Standings, limit: number, offset: number, status?: EntryStatus): LeaderboardRow[] {
    let pages = this.pages.get(standings);
    if (!pages) this.pages.set(standings, (pages = new Map()));
    const key = `${status ?? 'all'}:${limit}:${offset}`;
    const hit = pages.get(key);
    if (hit) return hit;
    const rows = leaderboardRowOutput.array().parse(this.withStatus(standings, status).slice(offset, offset + limit));
    if (pages.size >= MAX_PAGES) return rows;
    const page = prepareJson(rows);
    pages.set(key, page);
    return page;
  }

  /**
   * What a standings read pages through (every row, one status, or the names matching a search: each in
   * ranking order) and the page it asked for. Without a search the page is shared (see `page`); a search
   * is answered from the ranked copy in memory, never by the database, each time it is asked.
   */
  select(standings: Standings, input: LeaderboardInput): { rows: readonly LeaderboardRow[]; page: LeaderboardRow[] } {
    const search = input.search?.trim().toLowerCase();
    if (!search) {
      return { rows: this.withStatus(standings, input.status), page: this.page(standings, input.limit, input.offset, input.status) };
    }
    let searches = this.searches.get(standings);
    if (!searches) this.searches.set(standings, (searches = new Map()));
    const key = `${input.status ?? 'all'}:${search}`;
    let rows = searches.get(key);
    if (!rows) {
      rows = this.matching(standings, search, input.status);
      if (searches.size < MAX_SEARCHES) searches.set(key, rows);
    }
    return { rows, page: leaderboardRowOutput.array().parse(rows.slice(input.offset, input.offset + input.limit)) };
  }

  /** The rows whose lower-cased name contains `search` (and of that status), in ranking order. */
  private matching(standings: Standings, search: string, status: EntryStatus | undefined): LeaderboardRow[] {
    let names = this.lowerNames.get(standings);
    if (!names) this.lowerNames.set(standings, (names = standings.rankings.map((r) => r.participant_name.toLowerCase())));
    const rows: LeaderboardRow[] = [];
    const { rankings } = standings;
    for (let i = 0; i < rankings.length; i++) {
      const row = rankings[i]!;
      if (names[i]!.includes(search) && (status === undefined || row.busted === (status === 'busted'))) rows.push(row);
    }
    return rows;
  }

  private withStatus(standings: Standings, status: EntryStatus | undefined): readonly LeaderboardRow[] {
    if (!status) return standings.rankings;
    let split = this.byStatus.get(standings);
    if (!split) {
      split = { alive: [], busted: [] };
      for (const row of standings.rankings) split[row.busted ? 'busted' : 'alive'].push(row);
      this.byStatus.set(standings, split);
    }
    return split[status];
  }

  private refresh() {
    this.cache.clear();
    this.rankInBackground();
  }

  private rankInBackground() {
    Promise.resolve(this.get(GLOBAL_GROUP_ID)).catch(this.backgroundFailed);
  }

  /**
   * A background ranking failed (the database went away, most likely): readers are not affected (the
   * next read ranks again and answers its own error), but the operator should see it.
   */
  private readonly backgroundFailed = (error: unknown) => {
    this.log.warn({ err: error }, 'global standings could not be ranked in the background');
  };

  /**
   * A group's ranking, as it is when current (cache/maybe-promise.ts), else once computed; `em` is used
   * only when it must be computed (else a fork of its own).
   */
  get(groupId: number, em?: EntityManager): MaybePromise<Standings> {
    const version = this.events.version;
    const hit = this.cache.get(groupId);
    const fresh = groupId === GLOBAL_GROUP_ID || Date.now() - (hit?.at ?? 0) < MAX_AGE_MS;
    if (hit && hit.version === version && fresh) return hit.value;
    const running = this.inFlight.get(groupId);
    if (running && running.version === version) return running.promise;
    const promise = this.rank(em, groupId, version).finally(() => {
      if (this.inFlight.get(groupId)?.promise === promise) this.inFlight.delete(groupId);
    });
    this.inFlight.set(groupId, { version, promise });
    return promise;
  }

  /** Ranks the global standings now and re-ranks them every minute in the background; returns the stopper. */
  startBackgroundRefresh(): () => void {
    this.rankInBackground();
    const timer = setInterval(() => {
      // Renames and joins are announced: while they can be heard, re-ranking on a timer would only stall
      // readers (a big ranking holds the event loop). Without the listener, it bounds what may be missed.
      if (this.events.isConnected) return;
      this.rank(this.orm.em.fork(), GLOBAL_GROUP_ID, this.events.version).catch(this.backgroundFailed);
    }, MAX_AGE_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  invalidate(groupId: number) {
    this.generation++;
    this.cache.delete(groupId);
    this.inFlight.delete(groupId);
  }

  /**
   * A participant's name changed (here, or heard from another instance): every group's next ranking shows
   * it, the global one included. Each global ranking already reads the participants changed since the
   * previous one; this re-ranks at once instead of at the next draft change or minute.
   */
  renamed(participantId: string) {
    this.generation++;
    this.global.renamed(participantId);
    this.cache.clear();
    this.inFlight.clear();
    this.refresh();
  }

  /** Every name is read again at the next global ranking (a safety net: renames are read as they happen). */
  forgetNames() {
    this.global.forgetNames();
  }

  /** Ranks a group and keeps the result unless the draft moved meanwhile (then it is already stale). */
  private async rank(em: EntityManager | undefined, groupId: number, version: number): Promise<Standings> {
    const generation = this.generation;
    const value = await this.compute(em ?? this.orm.em.fork(), groupId);
    if (this.events.version === version && this.generation === generation) this.cache.set(groupId, { version, at: Date.now(), value });
    return value;
  }

  private async compute(em: EntityManager, groupId: number): Promise<Standings> {
    if (groupId === GLOBAL_GROUP_ID) return this.global.compute();
    const rankings = await sql<LeaderboardRow>(em, groupLeaderboardSql, [groupId, this.draft.roundOnePicks]);
    return {
      rankings,
      alive: rankings.filter((r) => !r.busted).length,
      byParticipant: new Map(rankings.map((r) => [r.participant_id, r])),
    };
  }
}

/**
 * Where `row` sits in `rows` (rows in ranking order: rank, then participant id in code point order, as
 * every ranking and every subset of one is), by binary search; -1 when it is not there.
 */
export function positionIn(rows: readonly LeaderboardRow[], row: LeaderboardRow): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const r = rows[mid]!;
    const before = r.rank < row.rank || (r.rank === row.rank && compareCodePoints(r.participant_id, row.participant_id) < 0);
    if (before) lo = mid + 1;
    else hi = mid;
  }
  return rows[lo]?.participant_id === row.participant_id ? lo : -1;
}
