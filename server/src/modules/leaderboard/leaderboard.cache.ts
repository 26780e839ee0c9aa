import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { leaderboardRowOutput, type EntryStatus, type LeaderboardInput, type LeaderboardRow } from '@first-round/shared/schemas';
import { CappedCache } from '../../cache/capped.js';
import { SingleFlight } from '../../cache/single-flight.js';
import { prepareJson } from '../../responses/json-body.js';
import type { MaybePromise } from '../../cache/maybe-promise.js';
import type { Orm } from '../../db/orm.js';
import type { TopicBus } from '../../events/topic-bus.js';
import type { EntryBook } from '../standings/entry-book.js';
import { groupMembers } from '../standings/book.repository.js';
import { GlobalStandings } from './global-standings.js';
import { rankGroup } from './ranking.js';
import type { RankedRows, Standings } from './standings.js';

export type { Standings } from './standings.js';

const MAX_AGE_MS = 60_000;
/**
 * Rankings kept (the global one and groups'), least recently read evicted first. The global ranking is
 * read by every leaderboard page and re-ranked after every change, so it is never the least recent for
 * long; an evicted group's is ranked again by its next read.
 */
export const MAX_RANKINGS = 2_000;
/** Distinct pages (status, limit, offset) of one ranking kept serialised, least recently read evicted first. */
const MAX_PAGES = 64;
/** Distinct searches of one ranking kept, least recently read evicted first. */
const MAX_SEARCHES = 256;

/** What a ranking is made from, besides the book's entries and the group's members (announced on their own topics). */
const RANKED_FROM = ['draft', 'board'] as const;

/** A ranking as kept: the version of RANKED_FROM it was ranked at, and when. */
interface Ranked {
  version: number;
  at: number;
  value: Standings;
}

/** A ranking being computed: at the version `version` of RANKED_FROM, begun at the rankings' mark `mark`. */
interface Ranking {
  version: number;
  mark: number;
}

/**
 * Ranked standings per group, ranked in memory from the entry book (modules/standings/) by the rules'
 * own code, and kept at most 60 s (at most MAX_RANKINGS of them, cache/capped.ts): the global ones by
 * GlobalStandings (each ranking built on the previous), a group's by `rankGroup` over its members as
 * PostgreSQL lists them at that ranking. Any draft change (heard through LISTEN/NOTIFY, so also from the
 * CLI or another instance) makes every ranking stale at once; membership changes drop their group and only
 * it (a ranking of another group, or the global one, being computed meanwhile is still kept), renames and
 * board imports every ranking (all announced on the invalidation channel). Concurrent readers share one
 * computation. Every ranking syncs the book first (entry-book.ts): the draft as it is now, and every change
 * heard before it.
 *
 * The global standings are never ranked by a request: they are re-ranked in the background after each
 * draft change or announcement (and once a minute while announcements cannot be heard), and requests read
 * the latest ranked copy.
 */
export class LeaderboardCache {
  /**
   * Kept rankings by group. Its per-group guard replaces one generation for all groups: a join in one
   * group made every ranking computed meanwhile (the global one's ~200 ms at 100,000 entries included) be
   * thrown away and computed again, and joins arriving faster than a global ranking takes kept it from
   * ever being kept.
   */
  private readonly rankings = new CappedCache<number, Ranked>(MAX_RANKINGS);
  /** Rankings being computed, so concurrent readers share one; each removes itself when done. */
  private readonly inFlight = new SingleFlight<number, Standings, Ranking>(
    // Shared only if nothing made this group stale since it began (then its result would not be kept).
    (groupId, { version, mark }) => version === this.version() && this.rankings.isCurrent(groupId, mark),
  );
  /**
   * Pages of a ranking, validated and serialised once: every reader of that page shares the bytes. Kept
   * beside the ranking (a WeakMap: they go with it).
   */
  private readonly pages = new WeakMap<Standings, CappedCache<string, LeaderboardRow[]>>();
  /** Callers' own rows, validated and serialised (`ownRow`). */
  private readonly ownRows = new WeakMap<LeaderboardRow, LeaderboardRow>();
  /**
   * A ranking's search results by search and status: the live stream sends a watched search again after
   * every pick, to each of its watchers, and one pass over 100,000 names takes a few milliseconds.
   */
  private readonly searches = new WeakMap<Standings, CappedCache<string, RankedRows>>();
  /** The global group, each ranking built on the previous one (global-standings.ts). */
  private readonly global: GlobalStandings;

  constructor(
    private readonly orm: Orm,
    private readonly book: EntryBook,
    private readonly events: Pick<TopicBus, 'versionOf' | 'isConnected' | 'on' | 'onChange' | 'onResync' | 'onInvalidate'>,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {
    this.global = new GlobalStandings(book);
    // After every draft change the global standings are ranked once, here, in the background: requests
    // only ever read a ranked copy. Other groups are ranked on their first read.
    events.onChange(() => this.refresh());
    // The book reads everything again after a resync; meanwhile it answers from what it has.
    events.onResync(() => this.refresh());
    book.onReloaded(() => this.refresh());
    // Saved picks: the groups they show in, whichever instance saved them.
    events.on('picks', (change) => change.group_ids.forEach((groupId) => this.invalidateGroup(groupId)));
    events.onInvalidate((message) => {
      // Names (a rename, a merged account) and the board (tie-break ranks) show in every ranking.
      if (message.kind === 'participant') this.renamed(message.participant_id);
      if (message.kind === 'board') this.refresh();
      if (message.kind === 'group') this.invalidateGroup(message.group_id);
    });
  }

  /**
   * A caller's own row as the answer shows it, validated and serialised at its first read in this ranking
   * (a ranking makes each row once and never changes it, so a row never changes under its copy).
   */
  ownRow(row: LeaderboardRow): LeaderboardRow {
    let own = this.ownRows.get(row);
    if (!own) this.ownRows.set(row, (own = prepareJson(leaderboardRowOutput.parse(row))));
    return own;
  }

  /** Rows `offset … offset + limit` of a ranking, the same (prepared) array for every reader of it. */
  page(standings: Standings, limit: number, offset: number, status?: EntryStatus): LeaderboardRow[] {
    let pages = this.pages.get(standings);
    if (!pages) this.pages.set(standings, (pages = new CappedCache(MAX_PAGES)));
    const key = `${status ?? 'all'}:${limit}:${offset}`;
    const hit = pages.get(key);
    if (hit) return hit;
    const page = prepareJson(leaderboardRowOutput.array().parse(rowsOf(standings, status).slice(offset, offset + limit)));
    pages.set(key, page);
    return page;
  }

  /**
   * What a standings read pages through (every row, one status, or the names matching a search: each in
   * ranking order) and the page it asked for. Without a search the page is shared (see `page`); a search
   * is answered from the ranked copy in memory, never by the database, each time it is asked.
   */
  select(standings: Standings, input: LeaderboardInput): { rows: RankedRows; page: LeaderboardRow[] } {
    const search = input.search?.trim().toLowerCase();
    if (!search) {
      return { rows: rowsOf(standings, input.status), page: this.page(standings, input.limit, input.offset, input.status) };
    }
    let searches = this.searches.get(standings);
    if (!searches) this.searches.set(standings, (searches = new CappedCache(MAX_SEARCHES)));
    const key = `${input.status ?? 'all'}:${search}`;
    let rows = searches.get(key);
    if (!rows) searches.set(key, (rows = standings.matching(search, input.status)));
    return { rows, page: leaderboardRowOutput.array().parse(rows.slice(input.offset, input.offset + input.limit)) };
  }

  private refresh() {
    this.rankings.clear();
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
    const version = this.version();
    const hit = this.rankings.get(groupId);
    if (hit && hit.version === version && (groupId === GLOBAL_GROUP_ID || Date.now() - hit.at < MAX_AGE_MS)) return hit.value;
    const mark = this.rankings.mark();
    return this.inFlight.run(groupId, { version, mark }, () => this.rank(em, groupId, version, mark));
  }

  private version() {
    return this.events.versionOf(RANKED_FROM);
  }

  /** Ranks the global standings now and re-ranks them every minute in the background; returns the stopper. */
  startBackgroundRefresh(): () => void {
    this.rankInBackground();
    const timer = setInterval(() => {
      // Renames and joins are announced: while they can be heard, re-ranking on a timer would only stall
      // readers (a big ranking holds the event loop). Without the listener, it bounds what may be missed.
      if (this.events.isConnected) return;
      this.rank(this.orm.em.fork(), GLOBAL_GROUP_ID, this.version(), this.rankings.mark()).catch(this.backgroundFailed);
    }, MAX_AGE_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * The one way to make a group's ranking stale: its entries changed (a join, a leave, a switch to My
   * Picks, saved picks), here or on another instance. Only that group is ranked again, at its next read;
   * a ranking of it that began before is not kept. Every other group's ranking, kept or being computed,
   * the global one included, stays.
   */
  invalidateGroup(groupId: number) {
    this.rankings.invalidate(groupId);
    this.inFlight.forget(groupId);
  }

  /**
   * A participant's name or picks changed (here, or heard from another instance): the book reads them again
   * at its next sync, and every group's next ranking shows it, the global one included, re-ranked at once.
   */
  renamed(participantId: string) {
    this.book.participantChanged(participantId);
    this.inFlight.clear();
    this.refresh();
  }

  /**
   * Ranks a group and keeps the result unless the draft moved meanwhile or this group was made stale since
   * `mark` (then it is already stale); other groups' changes do not matter.
   */
  private async rank(em: EntityManager | undefined, groupId: number, version: number, mark: number): Promise<Standings> {
    const value = await this.compute(em ?? this.orm.em.fork(), groupId);
    if (this.version() === version) this.rankings.set(groupId, { version, at: Date.now(), value }, mark);
    return value;
  }

  private async compute(em: EntityManager, groupId: number): Promise<Standings> {
    if (groupId === GLOBAL_GROUP_ID) return this.global.compute();
    const [members, book] = await Promise.all([groupMembers(em, groupId), this.book.sync()]);
    return rankGroup(book, groupId, members);
  }
}

/** Every row of a ranking, or those of one status. */
function rowsOf(standings: Standings, status: EntryStatus | undefined): RankedRows {
  return status ? standings.withStatus(status) : standings.rankings;
}
