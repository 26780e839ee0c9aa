import type { QueryClient, QueryKey } from '@tanstack/react-query';

/*
 * The last answers this device saw, kept in localStorage so that a page opened offline (or reloaded there)
 * shows them instead of an endless "Loading…": each successful query's key, data and time, put back with
 * TanStack Query's setQueryData (its dehydrate/hydrate would add a kilobyte to the first load). A restored answer
 * is marked invalid at once: the page reads again as soon as it can (paused while
 * offline, resumed by onlineManager when the network is back), and the offline banner says the page shows
 * what was last known. Answers that passed the viewing delay's gate only are ever in the cache, so a restored
 * one never shows a pick the viewer's TV has not.
 *
 * Kept per person: a sign-out or another account drops them (`forUser`). Kept per build: another build's
 * answers may not fit this one's screens.
 */
const KEY = 'fr_last_answers';
/** Answers older than this are not worth showing. */
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** Writes wait this long after an answer, so a burst of answers is written once. */
const WRITE_AFTER_MS = 2000;

interface Stored {
  build: string;
  user: string | null;
  savedAt: number;
  answers: { key: QueryKey; data: unknown; at: number }[];
}

/** This build, named by its entry script's hashed file (the development server has one name throughout). */
function buildName(): string {
  return document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.getAttribute('src') ?? 'dev';
}

function read(): Stored | null {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Stored) : null;
  } catch {
    return null;
  }
}

let owner: string | null = null;
let restoredAt: number | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/** The time the restored answers were saved, or null when none were (for the offline banner). */
export function lastKnownAt(): number | null {
  return restoredAt;
}

/** Puts the answers kept by this build back into the cache (before the first render). */
export function restoreQueries(client: QueryClient): void {
  const stored = read();
  if (!stored || stored.build !== buildName() || Date.now() - stored.savedAt > MAX_AGE_MS) return;
  owner = stored.user;
  restoredAt = stored.savedAt;
  for (const answer of stored.answers) client.setQueryData(answer.key, answer.data, { updatedAt: answer.at });
  // Shown at once, never trusted as current (another tab or an earlier visit may have changed them since):
  // every one is read again when a screen uses it, whatever its stale time.
  void client.invalidateQueries({ refetchType: 'none' });
}

function save(client: QueryClient): void {
  if (timer) clearTimeout(timer);
  timer = undefined;
  const answers = client
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.status === 'success' && query.state.data !== undefined)
    .map((query) => ({ key: query.queryKey, data: query.state.data, at: query.state.dataUpdatedAt }));
  try {
    localStorage.setItem(KEY, JSON.stringify({ build: buildName(), user: owner, savedAt: Date.now(), answers } satisfies Stored));
  } catch {
    // Full or refused: the next save tries again; nothing else depends on it.
  }
}

/** Writes the cache after its answers change (a little later, once per burst) and when the page is hidden. */
export function keepQueries(client: QueryClient): () => void {
  const stop = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || timer) return;
    timer = setTimeout(() => save(client), WRITE_AFTER_MS);
  });
  const onHide = () => {
    if (document.visibilityState === 'hidden') save(client);
  };
  document.addEventListener('visibilitychange', onHide);
  return () => {
    stop();
    document.removeEventListener('visibilitychange', onHide);
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
}

/**
 * Who is signed in now (their id, 'visitor' when nobody is, or null while not known): answers kept for someone else are
 * dropped, from the cache and from the device.
 */
export function forUser(client: QueryClient, user: string | null): void {
  if (user === null || user === owner) return;
  if (owner !== null || restoredAt !== null) {
    client.clear();
    restoredAt = null;
  }
  owner = user;
  try {
    localStorage.removeItem(KEY);
  } catch {
    // refused: nothing kept anyway
  }
}
