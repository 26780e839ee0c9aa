import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import type { LeaderboardRow } from '@first-round/shared/schemas';
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

/**
 * Ranked standings per group, computed by the leaderboard SQL inside PostgreSQL and kept at most 60 s.
 * Any draft change (heard through LISTEN/NOTIFY, so also from the CLI or another instance) makes every
 * entry stale at once; membership changes drop their group. Concurrent readers share one computation.
 *
 * The global standings (every entry) are never ranked by a request: they are re-ranked in the
 * background after each draft change and once a minute (for renames and entries changed without a draft
 * change), and requests read the latest ranked copy. Each re-rank reads only what changed since the
 * previous one (global-standings.ts).
 */
export class LeaderboardCache {
  private readonly cache = new Map<number, { version: number; at: number; value: Standings }>();
  private readonly inFlight = new Map<number, { version: number; promise: Promise<Standings> }>();
  /** The global group, ranked in Node from what changed since its last ranking (global-standings.ts). */
  private readonly global: GlobalStandings;

  constructor(
    private readonly orm: Orm,
    private readonly draft: DraftSettings,
    private readonly events: DraftEventHub,
  ) {
    this.global = new GlobalStandings(orm, draft);
    // After every draft change the global standings are ranked once, here, in the background: requests
    // only ever read a ranked copy. Other groups are small and ranked on their first read.
    events.onChange(() => this.refresh());
    events.onResync(() => {
      this.global.reload();
      this.refresh();
    });
  }

  private refresh() {
    this.cache.clear();
    this.get(GLOBAL_GROUP_ID).catch(() => {});
  }

  async get(groupId: number, em: EntityManager = this.orm.em.fork()): Promise<Standings> {
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
    this.get(GLOBAL_GROUP_ID).catch(() => {});
    const timer = setInterval(() => {
      this.rank(this.orm.em.fork(), GLOBAL_GROUP_ID, this.events.version).catch(() => {});
    }, MAX_AGE_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  invalidate(groupId: number) {
    this.cache.delete(groupId);
    this.inFlight.delete(groupId);
  }

  /**
   * A participant's name changed (here, or heard from another instance): every group's next ranking shows
   * it, the global one included. Each global ranking already reads the participants changed since the
   * previous one; this re-ranks at once instead of at the next draft change or minute.
   */
  renamed(participantId: string) {
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
  private async rank(em: EntityManager, groupId: number, version: number): Promise<Standings> {
    const value = await this.compute(em, groupId);
    if (this.events.version === version) this.cache.set(groupId, { version, at: Date.now(), value });
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
