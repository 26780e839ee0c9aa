import { describe, expect, it } from 'vitest';
import { forgetUnsaved, keepUnsaved, readUnsaved, sameSelection, unsavedKey, type KeyValueStore } from './unsaved-picks';

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

describe('unsaved picks', () => {
  it('keys one entry per player: My Picks, or a group of their own', () => {
    expect(unsavedKey('user_a', null)).not.toBe(unsavedKey('user_b', null));
    expect(unsavedKey('user_a', null)).not.toBe(unsavedKey('user_a', 12));
    expect(unsavedKey('user_a', 12)).not.toBe(unsavedKey('user_a', 13));
  });

  it('keeps a selection while it differs from the saved picks, and forgets it once they agree', () => {
    const store = memoryStore();
    const key = unsavedKey('user_a', null);
    keepUnsaved(store, key, [3, 1, 2], [1, 2]);
    expect(readUnsaved(store, key)).toEqual([3, 1, 2]);
    // The same players in another order: nothing unsaved.
    keepUnsaved(store, key, [2, 1], [1, 2]);
    expect(readUnsaved(store, key)).toBeNull();
    keepUnsaved(store, key, [], [1]);
    expect(readUnsaved(store, key)).toEqual([]);
    forgetUnsaved(store, key);
    expect(store.data.size).toBe(0);
  });

  it('reads nothing from a value that is not a list of ids, and survives a store that refuses', () => {
    const store = memoryStore();
    const key = unsavedKey('user_a', 5);
    store.setItem(key, '{"not":"a list"}');
    expect(readUnsaved(store, key)).toBeNull();
    store.setItem(key, '[1, "two"]');
    expect(readUnsaved(store, key)).toBeNull();
    store.setItem(key, 'not json');
    expect(readUnsaved(store, key)).toBeNull();
    const full: KeyValueStore = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); }, removeItem: () => { throw new Error('SecurityError'); } };
    expect(() => keepUnsaved(full, key, [1], [])).not.toThrow();
    expect(() => forgetUnsaved(full, key)).not.toThrow();
  });

  it('compares selections as sets', () => {
    expect(sameSelection([1, 2, 3], [3, 2, 1])).toBe(true);
    expect(sameSelection([1, 2], [1, 2, 3])).toBe(false);
    expect(sameSelection([1, 4], [1, 2])).toBe(false);
  });
});
