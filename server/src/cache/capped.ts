import { LRUCache } from 'lru-cache';

/**
 * The one map every in-memory cache of the server keeps its entries in (docs/decisions.md, "Caches"):
 * lru-cache's, with a guard beside it.
 *
 * **Bound.** At most `max` entries. Beyond that the least recently used entry is evicted: a `get` that
 * finds an entry and every `set` make it the most recent. A cache that loses an entry this way only reads
 * it again; nothing served is ever wrong because of an eviction.
 *
 * **Guard.** A value read from the database while a write changes it must not be stored after the
 * write's invalidation, or it would be served stale until the next one. So a loader takes a `mark()`
 * before it reads, and `set(key, value, mark)` stores only if neither `invalidate(key)` nor `clear()`
 * happened since: one key's invalidation never discards what is being loaded for another key.
 * Invalidations are remembered per key, as many as `max`; when the oldest one is dropped, every mark
 * older than it counts as stale for every key not remembered (a load wasted, never a stale value kept).
 *
 * Values must not be `undefined` (`get` answers that for a missing key).
 */
/**
 * At most `max` entries, as lru-cache's `maxSize` with every entry of size one: the same bound and order as
 * its `max`, without the storage `max` makes ahead for the whole bound (two arrays of pointers and three of
 * indexes, ~28 bytes an entry, ~11 MB for a cache of 200,000 that holds a few thousand).
 */
const countBound = (max: number) => ({ maxSize: max, sizeCalculation: () => 1 });

export class CappedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<K, V>;
  /** The tick of each key's latest invalidation, oldest first, at most `max` of them. */
  private readonly invalidatedAt: LRUCache<K, number>;
  /** Moves with every invalidation; a mark is the tick it was taken at. */
  private tick = 0;
  /** Marks older than this are stale for every key (a clear, or a forgotten per-key invalidation). */
  private staleBefore = 0;

  constructor(
    readonly max: number,
    /** Told of each entry evicted for room (not of those deleted or invalidated): for indexes kept beside it. */
    onEvict?: (key: K, value: V) => void,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`a cache holds at least one entry (max ${max})`);
    this.entries = new LRUCache<K, V>({ ...countBound(max), dispose: onEvict && ((value, key, reason) => reason === 'evict' && onEvict(key, value)) });
    this.invalidatedAt = new LRUCache<K, number>({
      ...countBound(max),
      dispose: (at, _key, reason) => {
        if (reason === 'evict') this.staleBefore = Math.max(this.staleBefore, at);
      },
    });
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry for `key`, which becomes the most recently used; undefined when there is none. */
  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** The entry for `key` without making it recent (iterating or checking, not serving). */
  peek(key: K): V | undefined {
    return this.entries.peek(key);
  }

  /** To take before reading what will be stored (see `set`). */
  mark(): number {
    return this.tick;
  }

  /** Whether nothing invalidated `key` since `mark` was taken. */
  isCurrent(key: K, mark: number): boolean {
    return mark >= this.staleBefore && mark >= (this.invalidatedAt.peek(key) ?? 0);
  }

  /**
   * Stores `value` as the most recently used entry, evicting the least recently used beyond `max`; with
   * a `mark`, only if `key` was not invalidated since it was taken. Whether it was stored.
   */
  set(key: K, value: V, mark?: number): boolean {
    if (mark !== undefined && !this.isCurrent(key, mark)) return false;
    this.entries.set(key, value);
    return true;
  }

  /** Removes an entry that is no longer wanted (expired, failed) without making loads in progress stale. */
  delete(key: K): void {
    this.entries.delete(key);
  }

  /** `key` changed: its entry goes, and a load of it that started before is not stored. */
  invalidate(key: K): void {
    this.entries.delete(key);
    this.tick++;
    this.invalidatedAt.set(key, this.tick);
  }

  /** Everything changed: every entry goes, and no load that started before is stored. */
  clear(): void {
    this.entries.clear();
    this.invalidatedAt.clear();
    this.tick++;
    this.staleBefore = this.tick;
  }

  /** Keys, least recently used first. */
  keys(): IterableIterator<K> {
    return this.entries.rkeys();
  }
}
