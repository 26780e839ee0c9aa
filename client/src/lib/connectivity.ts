import { lazy, type ComponentType } from 'react';
import { onlineManager } from '@tanstack/react-query';

/**
 * Whether the app can reach the server, as one state: TanStack Query's `onlineManager`, which pauses
 * queries (and their retries) while offline and refetches what is on screen when back, so a page offline
 * waits with what it shows instead of turning into error states. Three things move it:
 * - the browser's own word: `navigator.onLine` at start (the manager assumes online), then its
 *   `online` / `offline` events (the manager's default listener);
 * - a request that got no answer at all (`noteNoAnswer`, from the tRPC links): offline, even where the
 *   browser still says online (a dead Wi-Fi, a tunnel); then the server is asked every PROBE_EVERY_MS;
 * - any answer (`noteAnswer`): online again.
 * The offline banner (components/offline-banner.tsx) shows it.
 */
export const PROBE_EVERY_MS = 5_000;

let probe: ReturnType<typeof setTimeout> | undefined;

export function startConnectivity() {
  onlineManager.setOnline(navigator.onLine);
}

export function noteAnswer() {
  if (probe) clearTimeout(probe);
  probe = undefined;
  if (!onlineManager.isOnline()) onlineManager.setOnline(true);
}

export function noteNoAnswer() {
  onlineManager.setOnline(false);
  probeLater();
}

function probeLater() {
  if (probe) return;
  probe = setTimeout(() => {
    probe = undefined;
    // While the browser itself says offline, its `online` event is what brings the app back.
    if (!navigator.onLine) return;
    fetch('/healthz', { cache: 'no-store' }).then(noteAnswer, probeLater);
  }, PROBE_EVERY_MS);
}

/** A request that failed for want of an answer (not one that was cancelled, nor one the server refused). */
export function isNoAnswer(error: unknown): boolean {
  return error instanceof TypeError;
}

/** fetch, telling the connectivity state whether an answer came. */
export const fetchNotingConnectivity: typeof fetch = async (input, init) => {
  try {
    const response = await fetch(input, init);
    noteAnswer();
    return response;
  } catch (error) {
    if (isNoAnswer(error)) noteNoAnswer();
    throw error;
  }
};

// ---- Code loaded on demand: waits for the connection when it could not load. ----

function untilOnline(): Promise<void> {
  return new Promise((resolve) => {
    if (onlineManager.isOnline()) return resolve();
    const stop = onlineManager.subscribe((online) => {
      if (online) resolve(stop());
    });
  });
}

/**
 * A component's code loaded on demand, recovering from a failed load instead of leaving a blank page for
 * good (React keeps a lazy component's rejection): the load waits, its Suspense fallback showing, until the
 * app is online again, then tries once more.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React's own `lazy` types its component
export function lazyNamed<K extends string, C extends ComponentType<any>>(load: () => Promise<Record<K, C>>, name: K) {
  return lazy(async () => ({ default: (await load().catch(() => untilOnline().then(load)))[name] }));
}
