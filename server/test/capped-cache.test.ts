import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { CappedCache } from '../src/cache/capped.js';

/** The one map under every server cache: its bound, its eviction order and its guard against stale loads. */
describe('CappedCache', () => {
  it('never holds more than its bound: the least recently used entry goes first', () => {
    const evicted: [string, number][] = [];
    const cache = new CappedCache<string, number>(3, (key, value) => evicted.push([key, value]));
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    cache.set('d', 4);
    expect(cache.size).toBe(3);
    expect(cache.get('a')).toBeUndefined();
    expect(evicted).toEqual([['a', 1]]);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
    expect([...cache.keys()]).toEqual(['k97', 'k98', 'k99']);
    expect(evicted).toHaveLength(101);
  });

  it('a read or a write makes an entry the most recent; a peek does not', () => {
    const cache = new CappedCache<string, number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4); // evicts b: a was read after it
    expect([...cache.keys()]).toEqual(['c', 'a', 'd']);
    cache.set('c', 30); // rewritten: now the most recent
    cache.peek('a');
    cache.set('e', 5); // evicts a: peeking did not save it
    expect([...cache.keys()]).toEqual(['d', 'c', 'e']);
    expect(cache.get('c')).toBe(30);
    // The most recent key read again and again stays where it is.
    expect(cache.get('c')).toBe(30);
    expect([...cache.keys()]).toEqual(['d', 'e', 'c']);
  });

  it('delete and invalidate remove an entry; the recency order stays right after either', () => {
    const cache = new CappedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.delete('b');
    expect(cache.get('b')).toBeUndefined();
    cache.set('c', 3);
    cache.get('a');
    cache.set('d', 4); // evicts c
    expect([...cache.keys()]).toEqual(['a', 'd']);
    cache.invalidate('d');
    cache.set('e', 5);
    expect([...cache.keys()]).toEqual(['a', 'e']);
  });

  it('keeps a load only if its key was not invalidated since its mark; other keys do not matter', () => {
    const cache = new CappedCache<string, string>(10);
    const mark = cache.mark();
    cache.invalidate('renamed');
    expect(cache.isCurrent('renamed', mark)).toBe(false);
    expect(cache.set('renamed', 'old name', mark)).toBe(false);
    expect(cache.get('renamed')).toBeUndefined();
    // Another key's invalidation does not discard this load.
    expect(cache.isCurrent('other', mark)).toBe(true);
    expect(cache.set('other', 'kept', mark)).toBe(true);
    expect(cache.get('other')).toBe('kept');
    // A load that starts after the invalidation is kept.
    const later = cache.mark();
    expect(cache.set('renamed', 'new name', later)).toBe(true);
    expect(cache.get('renamed')).toBe('new name');
    // A set without a mark always stores.
    cache.invalidate('renamed');
    expect(cache.set('renamed', 'written', undefined)).toBe(true);
  });

  it('a clear makes every load in progress stale, for every key', () => {
    const cache = new CappedCache<string, number>(10);
    cache.set('a', 1);
    const mark = cache.mark();
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.set('a', 2, mark)).toBe(false);
    expect(cache.set('b', 2, mark)).toBe(false);
    expect(cache.set('b', 3, cache.mark())).toBe(true);
  });

  it('remembers as many invalidations as entries; a forgotten one makes older marks stale, never current', () => {
    const cache = new CappedCache<string, number>(2);
    const before = cache.mark();
    cache.invalidate('a');
    const between = cache.mark();
    cache.invalidate('b');
    cache.invalidate('c'); // 'a' is forgotten: marks before it count as stale for keys not remembered
    expect(cache.isCurrent('a', before)).toBe(false);
    expect(cache.isCurrent('z', before)).toBe(false);
    expect(cache.isCurrent('z', between)).toBe(true);
    expect(cache.isCurrent('b', between)).toBe(false);
    expect(cache.isCurrent('c', between)).toBe(false);
    expect(cache.isCurrent('a', between)).toBe(true);
  });

  it('takes memory for the entries it holds, not for its bound', () => {
    // The server keeps caches bounded at 50,000–200,000 entries (participant rows, tokens, sessions) that hold a
    // few thousand on most days. Storage made ahead for the bound (lru-cache does that for its `max`: two
    // arrays of pointers and three of indexes, ~28 bytes an entry) is ~11 MB for each of them, on every instance.
    const held = () => v8.getHeapStatistics().used_heap_size + process.memoryUsage().arrayBuffers;
    const before = held();
    const caches = Array.from({ length: 10 }, () => new CappedCache<string, number>(200_000));
    const grown = held() - before;
    for (const [i, cache] of caches.entries()) cache.set(`k${i}`, i);
    expect(caches.map((cache) => cache.size)).toEqual(Array(10).fill(1));
    expect(grown).toBeLessThan(2 * 2 ** 20);
  });

  it('refuses a bound below one', () => {
    expect(() => new CappedCache(0)).toThrow();
    expect(() => new CappedCache(1.5)).toThrow();
  });
});
