/**
 * Selections made on the selection screen and not saved yet, kept in the browser per player and per
 * entry until they are saved or discarded: a tap on another tab, a reload or a closed tab loses nothing.
 * An entry is My Picks ('global', also what a group screen edits while its entry follows My Picks) or a
 * group's own picks ('group:12'). Only ids are kept: the picks themselves are the player's own business
 * and never leave the device before a save.
 */

/** The part of the Web Storage API used here (localStorage in the app; a Map in the unit tests). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const PREFIX = 'first-round:unsaved-picks:';

/** The storage key of one player's entry: My Picks, or a group's own picks. */
export function unsavedKey(participantId: string, groupId: number | null): string {
  return `${PREFIX}${participantId}:${groupId === null ? 'global' : `group:${groupId}`}`;
}

/** Whether two selections hold the same players, in any order. */
export function sameSelection(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((id) => set.has(id));
}

/** The unsaved selection kept for this entry, or null (none, or unreadable). */
export function readUnsaved(store: KeyValueStore, key: string): number[] | null {
  try {
    const value: unknown = JSON.parse(store.getItem(key) ?? 'null');
    return Array.isArray(value) && value.every((id) => Number.isSafeInteger(id)) ? (value as number[]) : null;
  } catch {
    return null;
  }
}

/**
 * Keeps `selection` for the entry while it differs from what is saved; removes it once it is the same
 * again (nothing left unsaved). A store that refuses (private mode, quota) keeps nothing, silently.
 */
export function keepUnsaved(store: KeyValueStore, key: string, selection: readonly number[], saved: readonly number[]): void {
  try {
    if (sameSelection(selection, saved)) store.removeItem(key);
    else store.setItem(key, JSON.stringify([...selection]));
  } catch {
    // Nothing to do: the selection is still on screen.
  }
}

export function forgetUnsaved(store: KeyValueStore, key: string): void {
  try {
    store.removeItem(key);
  } catch {
    // As above.
  }
}
