import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { trpc } from '../lib/trpc';
import { notify } from '../lib/toaster';
import { describeDraftChange } from '@first-round/shared/draft-words';
import { stripOnScreen, toastsChange } from '../lib/draft-live';
import { LiveConnection } from '../lib/live-connection';
import { LiveRefresh, type LiveKeys } from '../lib/live-refresh';
import { HeldChanges, pageClockSkew } from '../lib/hold-back';
import { holdChangesFrom, onCatchUp, whenReleased } from '../lib/hold-gate';
import { getViewingDelay, subscribeViewingDelay } from '../lib/viewing-delay';
import { GLOBAL_FIRST_PAGE } from '../lib/live-strip';
import type { DraftChange, LiveMessage, LiveUpdate, StandingsUpdate } from '@first-round/shared/schemas';

/**
 * What a draft change touches: draft.status and the board (patched from the event), the rest (read again).
 * A spectator's stream carries the public top 100 (leaderboard.public) where a player's carries the page
 * on screen.
 */
function draftKeys(spectator: boolean): LiveKeys {
  return {
    status: getQueryKey(trpc.draft.status, undefined, 'query'),
    players: getQueryKey(trpc.players.list, undefined, 'query'),
    dependents: [
      getQueryKey(trpc.draft.auditLog),
      getQueryKey(trpc.draft.nextUndo),
      getQueryKey(trpc.leaderboard),
      getQueryKey(trpc.picks),
      getQueryKey(trpc.groups),
      getQueryKey(trpc.seasons),
    ],
    ...(spectator ? { standings: getQueryKey(trpc.leaderboard.public), standingsInput: { ...GLOBAL_FIRST_PAGE, offset: 0 } } : { standings: getQueryKey(trpc.leaderboard.group) }),
    // Past seasons change only when a new season opens, which the stream carries as a reset: not re-read
    // after every pick of draft night.
    lockedOnly: [getQueryKey(trpc.leaderboard.field), getQueryKey(trpc.seasons)],
  };
}

/**
 * Draft night, live. Mounted once for signed-in users, and on /live for a signed-out visitor (`spectator`:
 * the spectators' stream, draft.publicChanges, which carries the public top 100 after each change): holds
 * the live connection (lib/live-connection: the stream, reconnects, polling when push is down) and, on
 * every change, brings the cache up to date (lib/live-refresh: the status and the board from the event,
 * the standings page on screen from the stream, the rest read again after a jitter) and announces in a
 * toast what the draft-night strip (components/draft-strip.tsx) does not show (lib/draft-live.ts, toastsChange).
 * Between the stream and all of that sits this device's viewing delay (lib/hold-back.ts): a change, its
 * standings and its toast are applied only once the TV has shown it; reads wait in lib/hold-gate.ts.
 */
export function DraftLive({ spectator = false }: { spectator?: boolean }) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();

  useEffect(() => {
    const live = new LiveRefresh(queryClient, draftKeys(spectator));
    const held = new HeldChanges(getViewingDelay() * 1000, pageClockSkew);
    let releaseTimer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const applyChange = (change: DraftChange) => {
      // A replayed change the screen already shows (it was read since) is old news: no update, no toast.
      if (!live.applyChange(change)) return;
      // The draft-night strip shows picks, the start and the end of round one where it is on screen.
      if (!toastsChange(change, stripOnScreen())) return;
      const { title, description } = describeDraftChange(change);
      notify('info', title, description);
    };
    /** Applies what the hold released, in order, then waits for the next release. */
    const apply = (released: LiveUpdate[]) => {
      for (const message of released) {
        if (message.kind === 'standings') live.applyStandings(message);
        else applyChange(message);
      }
      if (releaseTimer) clearTimeout(releaseTimer);
      releaseTimer = undefined;
      const next = held.nextRelease();
      if (next !== null) releaseTimer = setTimeout(() => apply(held.due(Date.now())), Math.max(0, next - Date.now()));
      holdChangesFrom(held.newestHeldAt());
    };
    const stopCatchUp = onCatchUp(() => apply(held.catchUp()));
    const stopDelay = subscribeViewingDelay(() => apply(held.setDelay(getViewingDelay() * 1000, Date.now())));
    const connection = new LiveConnection({
      transport: {
        subscribe: (input, handlers) => {
          const callbacks = {
            onStarted: handlers.onStarted,
            onData: (event: { id: string; data: LiveMessage | StandingsUpdate }) => handlers.onData(event.id, event.data),
            onConnectionStateChange: (state: { state: 'idle' | 'connecting' | 'pending'; error: unknown }) => handlers.onConnectionStateChange(state.state, state.error),
            onError: handlers.onError,
            onComplete: handlers.onComplete,
          };
          return spectator
            ? utils.client.draft.publicChanges.subscribe({ lastEventId: input?.lastEventId }, callbacks)
            : utils.client.draft.changes.subscribe(input, callbacks);
        },
        readStatus: () => utils.client.draft.status.query(),
      },
      cachedStatus: () => utils.draft.status.getData(),
      onChange: (change) => apply(held.receive(change, Date.now())),
      // A stream's opening page is as of the draft now, held picks included: it waits in the read gate as a
      // read's answer does, then goes through the hold (a change held meanwhile keeps it back further).
      onStandings: (update, opening) => {
        if (!opening) return apply(held.receive(update, Date.now()));
        void whenReleased().then(() => {
          if (!stopped) apply(held.receive(update, Date.now()));
        });
      },
      onStale: (status) => live.applyStatus(status),
    });

    // The standings page on screen rides on the stream: a page opened or left changes what it carries
    // (looked at once the render that caused it has settled, so a navigation reopens the stream once).
    let watchTimer: ReturnType<typeof setTimeout> | undefined;
    const unwatch = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'observerAdded' && event.type !== 'observerRemoved' && event.type !== 'removed') return;
      if (watchTimer) return;
      watchTimer = setTimeout(() => {
        watchTimer = undefined;
        watch();
      }, 50);
    });
    // A spectator's stream always carries the one public page: nothing to reopen it for.
    const watch = () => {
      const page = live.watchedStandings();
      if (!spectator) connection.watch(page);
    };
    watch();

    // A tab coming back into view looks at once instead of waiting for the next poll.
    const onVisible = () => {
      if (document.visibilityState === 'visible') connection.checkIfDown();
    };
    document.addEventListener('visibilitychange', onVisible);
    connection.start();
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', onVisible);
      unwatch();
      if (watchTimer) clearTimeout(watchTimer);
      connection.stop();
      live.dispose();
      stopCatchUp();
      stopDelay();
      if (releaseTimer) clearTimeout(releaseTimer);
      holdChangesFrom(0);
    };
  }, [utils, queryClient, spectator]);

  return null;
}
