import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import type { DraftChange } from '@first-round/shared/schemas';
import { trpc } from '../lib/trpc';
import { notify } from '../lib/toaster';
import { describeChange, POLL_INTERVAL_MS, PUSH_GRACE_MS, PUSH_MAX_FAILURES, retryDelay, statusMoved, statusSignature } from '../lib/draft-live';
import { LiveRefresh, type LiveKeys } from '../lib/live-refresh';

/** What a draft change touches: draft.status and the board (patched from the event), the rest (read again). */
function draftKeys(): LiveKeys {
  return {
    status: getQueryKey(trpc.draft.status, undefined, 'query'),
    players: getQueryKey(trpc.players.list, undefined, 'query'),
    dependents: [getQueryKey(trpc.draft.auditLog), getQueryKey(trpc.leaderboard), getQueryKey(trpc.picks), getQueryKey(trpc.groups)],
  };
}

/**
 * Draft night, live. Mounted once for signed-in users: subscribes to `draft.changes` (SSE) and, on every
 * change, brings the cache up to date (lib/live-refresh: the status and the board from the event, what is
 * on screen read again after a jitter) and announces it in a toast. A dropped stream reconnects and
 * catches up from the last event id; when push is unavailable (it keeps failing, or is not up within
 * PUSH_GRACE_MS) the app polls draft.status every POLL_INTERVAL_MS instead until push works again.
 */
export function DraftLive() {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();

  useEffect(() => {
    const live = new LiveRefresh(queryClient, draftKeys());
    let disposed = false;
    let lastEventId: string | null = null;
    let subscription: { unsubscribe(): void } | null = null;
    let generation = 0;
    let pushUp = false;
    let failures = 0;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let pollTimer: ReturnType<typeof setInterval> | undefined;
    let stableTimer: ReturnType<typeof setTimeout> | undefined;
    // The draft status as of the last time the cached answers were known to be current.
    let known: string | null = null;

    /** One draft.status read; refreshes everything when the draft moved since the last look. */
    const check = async () => {
      try {
        const status = await utils.client.draft.status.query();
        if (disposed) return;
        const now = statusSignature(status);
        const before = known ?? statusSignature(utils.draft.status.getData());
        known = now;
        if (statusMoved(before, now)) live.applyStatus(status);
      } catch {
        // offline too: the next poll (or the push reconnecting) tries again
      }
    };

    const startPolling = () => {
      if (disposed || pushUp || pollTimer) return;
      void check();
      pollTimer = setInterval(() => void check(), POLL_INTERVAL_MS);
    };
    const stopPolling = () => {
      if (pollTimer) clearInterval(pollTimer);
      pollTimer = undefined;
    };

    const onPushDown = () => {
      pushUp = false;
      if (stableTimer) clearTimeout(stableTimer);
      stableTimer = undefined;
      if (failures >= PUSH_MAX_FAILURES) startPolling();
      else if (!graceTimer && !pollTimer) graceTimer = setTimeout(() => ((graceTimer = undefined), startPolling()), PUSH_GRACE_MS);
    };
    const onPushUp = () => {
      const wasDown = !pushUp;
      pushUp = true;
      // A stream can open and then be refused (an expired token): count it healthy only once it lasts.
      if (wasDown) {
        if (stableTimer) clearTimeout(stableTimer);
        stableTimer = setTimeout(() => (failures = 0), 5000);
      }
      if (graceTimer) clearTimeout(graceTimer);
      graceTimer = undefined;
      stopPolling();
      // Covers what no event id can: changes between the pages' first reads and this connection.
      if (wasDown) void check();
    };

    const onChange = (change: DraftChange) => {
      // A replayed change the screen already shows (it was read since) is old news: no update, no toast.
      if (!live.applyChange(change)) return;
      const { title, description } = describeChange(change);
      notify('info', title, description);
      known = null;
    };

    const subscribe = () => {
      if (disposed) return;
      // Callbacks of a stream this component already dropped must not act.
      const mine = ++generation;
      const current = () => !disposed && mine === generation;
      subscription = utils.client.draft.changes.subscribe(
        { lastEventId },
        {
          onStarted() {
            if (current()) onPushUp();
          },
          onData(event) {
            if (!current()) return;
            failures = 0;
            lastEventId = event.id;
            onChange(event.data);
          },
          onConnectionStateChange(state) {
            if (!current()) return;
            if (state.state === 'pending') onPushUp();
            else if (state.state === 'connecting' && state.error) {
              failures += 1;
              onPushDown();
            }
          },
          // Unrecoverable for this stream (a refused token after the 60-second token expired, the server
          // going away): subscribe again with a fresh token, from the last event seen.
          onError() {
            if (!current()) return;
            failures += 1;
            restart();
          },
          onComplete() {
            if (current()) restart();
          },
        },
      );
    };
    const restart = () => {
      generation += 1;
      subscription?.unsubscribe();
      subscription = null;
      onPushDown();
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = setTimeout(subscribe, retryDelay(failures));
    };

    // A tab coming back into view looks at once instead of waiting for the next poll (browsers also
    // slow timers down in background tabs).
    const onVisible = () => {
      if (document.visibilityState === 'visible' && !pushUp) void check();
    };
    document.addEventListener('visibilitychange', onVisible);

    graceTimer = setTimeout(() => ((graceTimer = undefined), startPolling()), PUSH_GRACE_MS);
    subscribe();
    return () => {
      disposed = true;
      document.removeEventListener('visibilitychange', onVisible);
      subscription?.unsubscribe();
      for (const t of [retryTimer, graceTimer, stableTimer]) if (t) clearTimeout(t);
      stopPolling();
      live.dispose();
    };
  }, [utils, queryClient]);

  return null;
}
