import type { PublicCounts } from '@first-round/shared/schemas';
import { GLOBAL_GROUP_ID, PUBLIC_COUNTS_TTL_MS } from '@first-round/shared/constants';
import type { Orm } from '../../db/orm.js';
import { countPickSets } from '../picks/pick-sets.js';
import { countGroups } from './groups.repository.js';

/**
 * The landing page's '302 entries · 25 groups'. Every visitor's first page asks, so the two counts are
 * made at most once per `ttlMs` per instance (one query in flight however many ask at once); a minute
 * old is fresh enough for a headline. A failed count is not kept: the next caller tries again.
 */
export class PublicCountsCache {
  private value: { counts: PublicCounts; at: number } | undefined;
  private pending: Promise<PublicCounts> | undefined;

  constructor(
    private readonly orm: Orm,
    private readonly ttlMs = PUBLIC_COUNTS_TTL_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  get(): Promise<PublicCounts> {
    if (this.value && this.clock() - this.value.at < this.ttlMs) return Promise.resolve(this.value.counts);
    this.pending ??= this.count().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async count(): Promise<PublicCounts> {
    const em = this.orm.em.fork();
    const [entries, groups] = await Promise.all([countPickSets(em, GLOBAL_GROUP_ID), countGroups(em)]);
    const counts = { entries, groups };
    this.value = { counts, at: this.clock() };
    return counts;
  }
}
