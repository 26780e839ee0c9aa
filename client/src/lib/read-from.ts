import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { jitterDelay } from './live-refresh';
import { stripRoute } from './live-strip';

/* The draft strip's and the draft banners' hooks (components/draft-strip.tsx, components/draft-banner.tsx). */

/** Where the strip and the banners are on: this page's route as stripRoute reads it. */
export function useStripRoute() {
  const { pathname, search } = useLocation();
  return useMemo(() => stripRoute(pathname, search), [pathname, search]);
}

/** When a copy of an answer counts as current (`at`, null: none does yet) and whether it is due to be read. */
export interface ReadFrom {
  at: number | null;
  due: boolean;
}

/**
 * For an answer that stays put while `on` holds (the picks once locked, the standings once final): `at`,
 * the moment from which a copy counts as current, and `due`, whether to read it now if the copy is older.
 * A tab that saw `on` begin (the start, the end of round one) counts from that moment and waits for its
 * jitter plus `wait` before reading, so thousands of open pages do not read in the same instant and a page
 * the stream brings is not read at all. A tab whose first look found `on` true reads at once if it holds no
 * copy; any copy it holds was read since (the cache starts empty at each sign-in).
 */
export function useReadFrom(on: boolean | undefined, wait = 0): ReadFrom {
  const [state, setState] = useState<ReadFrom>({ at: null, due: false });
  const sawOff = useRef(false);
  useEffect(() => {
    if (on === undefined) return;
    if (!on) {
      sawOff.current = true;
      setState({ at: null, due: false });
      return;
    }
    if (!sawOff.current) {
      setState({ at: 0, due: true });
      return;
    }
    const at = Date.now();
    setState({ at, due: false });
    const timer = setTimeout(() => setState({ at, due: true }), jitterDelay() + wait);
    return () => clearTimeout(timer);
    // Only `on` restarts this: `wait` is read when `on` begins, and a later change of page keeps the wait.
  }, [on]);
  return state;
}

/**
 * Whether `query`'s copy counts as current by `read`; when it does not and a read is due, reads it,
 * joining a read already under way (the page's own) rather than cancelling it.
 */
export function useCurrentCopy(query: { data: unknown; dataUpdatedAt: number; refetch: (options: { cancelRefetch: boolean }) => Promise<unknown> }, read: ReadFrom): boolean {
  const current = read.at !== null && query.data !== undefined && query.dataUpdatedAt >= read.at;
  const { refetch } = query;
  useEffect(() => {
    if (read.due && !current) void refetch({ cancelRefetch: false });
  }, [read.due, current, refetch]);
  return current;
}
