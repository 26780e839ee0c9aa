/**
 * The one map every in-memory cache of the server keeps its entries in (docs/decisions.md, "Caches").
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
export class CappedCache<K, V> {
  /** Map keeps insertion order: least recently used first, so the first key is the one to evict. */
  private readonly entries = new Map<K, V>();
  /** The tick of each key's latest invalidation, oldest first, at most `max` of them. */
  private readonly invalidatedAt = new Map<K, number>();
  /** Moves with every invalidation; a mark is the tick it was taken at. */
  private tick = 0;
  /** Marks older than this are stale for every key (a clear, or a forgotten per-key invalidation). */
  private staleBefore = 0;
  /** The most recently used key: the hot path reads one key again and again, and then moves nothing. */
  private newest: K | undefined;

  constructor(
    readonly max: number,
    /** Told of each entry evicted for room (not of those deleted or invalidated): for indexes kept beside it. */
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`a cache holds at least one entry (max ${max})`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry for `key`, which becomes the most recently used; undefined when there is none. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined && key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, value);
      this.newest = key;
    }
    return value;
  }

  /** The entry for `key` without making it recent (iterating or checking, not serving). */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** To take before reading what will be stored (see `set`). */
  mark(): number {
    return this.tick;
  }

  /** Whether nothing invalidated `key` since `mark` was taken. */
  isCurrent(key: K, mark: number): boolean {
    return mark >= this.staleBefore && mark >= (this.invalidatedAt.get(key) ?? 0);
  }

  /**
   * Stores `value` as the most recently used entry, evicting the least recently used beyond `max`; with
   * a `mark`, only if `key` was not invalidated since it was taken. Whether it was stored.
   */
  set(key: K, value: V, mark?: number): boolean {
    if (mark !== undefined && !this.isCurrent(key, mark)) return false;
    this.entries.delete(key);
    this.entries.set(key, value);
    this.newest = key;
    if (this.entries.size > this.max) {
      const [oldest, evicted] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.onEvict?.(oldest, evicted);
    }
    return true;
  }

  /** Removes an entry that is no longer wanted (expired, failed) without making loads in progress stale. */
  delete(key: K): void {
    this.entries.delete(key);
    if (key === this.newest) this.newest = undefined;
  }

  /** `key` changed: its entry goes, and a load of it that started before is not stored. */
  invalidate(key: K): void {
    this.delete(key);
    this.tick++;
    this.invalidatedAt.delete(key);
    this.invalidatedAt.set(key, this.tick);
    if (this.invalidatedAt.size > this.max) {
      const [oldest, at] = this.invalidatedAt.entries().next().value!;
      this.invalidatedAt.delete(oldest);
      this.staleBefore = Math.max(this.staleBefore, at);
    }
  }

  /** Everything changed: every entry goes, and no load that started before is stored. */
  clear(): void {
    this.entries.clear();
    this.invalidatedAt.clear();
    this.newest = undefined;
    this.tick++;
    this.staleBefore = this.tick;
  }

  /** Keys, least recently used first. */
  keys(): IterableIterator<K> {
    return this.entries.keys();
  }
}
