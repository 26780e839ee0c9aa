import { onlineManager, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { getViewingDelay } from './viewing-delay';

/*
 * The last answers this device saw, kept in localStorage so that a page opened offline (or reloaded there)
 * shows them instead of an endless "Loading…": each successful query's key, data and time, put back with
 * TanStack Query's setQueryData (its dehydrate/hydrate would add a kilobyte to the first load) when the
 * network gives no answer (`restoreQueries` says when). A restored answer is marked invalid at once: the
 * page reads again as soon as it can (paused while offline, resumed by onlineManager when the network is
 * back), and the offline banner says the page shows what was last known. Answers that passed the viewing
 * delay's gate only are ever in the cache, so a restored one never shows a pick the viewer's TV has not.
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
/** Answers kept by an earlier page, not put in the cache yet (online, they wait for the network to fail). */
let kept: Stored | null = null;
/** Whether kept answers went into the cache. */
let filled = false;
/** Whether the page shows answers kept by an earlier one (a load during a viewing delay's hold then asks nothing as of before it). */
export const keptShown = () => filled;
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Puts the kept answers into the cache where it has none: shown at once, never trusted as current (another
 * tab or an earlier visit may have changed them since), so each is marked invalid and read again.
 */
function fill(client: QueryClient): void {
  const stored = kept;
  kept = null;
  if (!stored) return;
  filled = true;
  for (const answer of stored.answers) {
    if (client.getQueryData(answer.key) !== undefined) continue;
    client.setQueryData(answer.key, answer.data, { updatedAt: answer.at });
    void client.invalidateQueries({ queryKey: answer.key, exact: true, refetchType: 'none' });
  }
}

/**
 * The answers kept by this build, for when the network does not answer: put in the cache before the first
 * render when the page opens offline, or with a viewing delay (its first answers wait for a change within
 * the delay, lib/hold-gate.ts, and what this device showed before is no spoiler: the draft before that
 * change, or older, while "catching up to your TV" says the page is behind); else
 * only once the app finds itself offline (lib/connectivity.ts), into the queries that have no answer yet.
 * Online and live, a page shows only what the server says now, never a moment of an older state.
 */
export function restoreQueries(client: QueryClient): void {
  const stored = read();
  if (!stored || stored.build !== buildName() || Date.now() - stored.savedAt > MAX_AGE_MS) return;
  owner = stored.user;
  kept = stored;
  if (!onlineManager.isOnline() || getViewingDelay() > 0) return fill(client);
  const stop = onlineManager.subscribe((online) => {
    if (online) return;
    stop();
    fill(client);
  });
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
  // Someone else's answers: out of the cache if they were put there, and off the device.
  if (filled) client.clear();
  filled = false;
  kept = null;
  owner = user;
  try {
    localStorage.removeItem(KEY);
  } catch {
    // refused: nothing kept anyway
  }
}
