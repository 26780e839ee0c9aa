import { observable } from '@trpc/server/observable';
import type { TRPCLink } from '@trpc/client';
import type { AppRouter } from '@first-round/server/router';
import { getViewingDelay, subscribeViewingDelay } from './viewing-delay';

/*
 * No spoilers, for reads. The live stream's changes are held back by lib/hold-back.ts, but the server
 * answers every read with the draft as it is now, held picks included: a page opened during the hold, a
 * refetch after a released pick while the next is still held, a window-focus or reconnect refetch. So the
 * answers of every read that depends on the draft pass through this gate (the first link of the tRPC
 * client): an answer that arrives while changes are held waits until every change held at that moment has
 * been released (it may include them; it cannot include a later one). TanStack Query keeps showing the
 * answer it had meanwhile, so standings never move before the pick that moves them.
 *
 * A page loaded with a delay set cannot know when the picks already in the server's answers were made, so
 * its first answers wait one whole delay after the load ("catching up to your TV"), unless the first draft
 * status says the draft has not started (nothing to spoil). "Catch up" and a shorter delay release at once.
 */

/** Reads whose answers change with a pick (the operator's audit log and undo preview are not a viewer's). */
const DRAFT_READS = /^(draft\.status|players\.list|leaderboard\.|picks\.|groups\.|seasons\.)/;
/** Margin after a release: the released change reaches the cache before an answer that includes it. */
const AFTER_RELEASE_MS = 100;

export interface GateState {
  /** Device time until which answers wait (0: none wait). */
  until: number;
  /** Whether the page is still waiting out its first delay after loading. */
  catchingUp: boolean;
}

const loadedAt = Date.now();
let loadWindow = getViewingDelay() > 0;
/** Device time by which the stream's held changes are released (lib/hold-back.ts via draft-live). */
let changesUntil = 0;
let waiters: { target: number; resolve: () => void }[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();
let snapshot: GateState = computeState();
const catchUpListeners = new Set<() => void>();

function loadUntil(): number {
  return loadWindow ? loadedAt + getViewingDelay() * 1000 : 0;
}

function computeState(): GateState {
  const load = loadUntil();
  return { until: Math.max(load, changesUntil), catchingUp: load > Date.now() };
}

function update(): void {
  const now = Date.now();
  if (loadWindow && loadUntil() <= now) loadWindow = false;
  const until = computeState().until;
  // A shorter delay (or none) brings waiting answers forward; a longer one does not hold back what waits.
  for (const w of waiters) w.target = Math.min(w.target, until + AFTER_RELEASE_MS);
  const ready = waiters.filter((w) => w.target <= now);
  waiters = waiters.filter((w) => w.target > now);
  for (const w of ready) w.resolve();
  if (timer) clearTimeout(timer);
  timer = undefined;
  const next = Math.min(...waiters.map((w) => w.target), loadWindow ? loadUntil() : Infinity);
  if (Number.isFinite(next)) timer = setTimeout(update, Math.max(0, next - now));
  const state = computeState();
  if (state.until !== snapshot.until || state.catchingUp !== snapshot.catchingUp) {
    snapshot = state;
    for (const l of [...listeners]) l();
  }
}

subscribeViewingDelay(update);

/** The live layer says until when its held changes run (0: nothing held). */
export function holdChangesUntil(deviceMs: number): void {
  changesUntil = deviceMs;
  update();
}

/** An answer of a draft read arrived: resolves once it may be shown. */
export function whenReleased(): Promise<void> {
  const until = computeState().until;
  if (until <= Date.now()) return Promise.resolve();
  return new Promise((resolve) => {
    waiters.push({ target: until + AFTER_RELEASE_MS, resolve });
    update();
  });
}

/** The first draft status of a page loaded with a delay: before the start there is nothing to hold. */
export function sawDraftStatus(status: { draftHasStarted?: unknown }): void {
  if (loadWindow && status.draftHasStarted === false) {
    loadWindow = false;
    update();
  }
}

/** "Catch up": every waiting answer now, and the live layer releases every held change (onCatchUp). */
export function catchUp(): void {
  loadWindow = false;
  for (const l of [...catchUpListeners]) l();
  changesUntil = 0;
  for (const w of waiters) w.target = 0;
  update();
}

/** The live layer's part of "Catch up" (components/draft-live.tsx). */
export function onCatchUp(listener: () => void): () => void {
  catchUpListeners.add(listener);
  return () => catchUpListeners.delete(listener);
}

export function gateState(): GateState {
  return snapshot;
}

export function subscribeGate(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The gate as a tRPC link: the answers of draft reads wait in it (the request goes out at once, so the
 * answer is ready the moment it may be shown). Everything else passes untouched.
 */
export function holdBackLink(): TRPCLink<AppRouter> {
  return () =>
    ({ next, op }) =>
      observable((observer) => {
        const gated = op.type === 'query' && DRAFT_READS.test(op.path);
        let closed = false;
        let chain = Promise.resolve();
        const later = (fn: () => void) => {
          if (!gated) return fn();
          chain = chain.then(whenReleased).then(() => {
            if (!closed) fn();
          });
        };
        const sub = next(op).subscribe({
          next(value) {
            if (gated && op.path === 'draft.status') {
              const data = (value.result as { data?: { draftHasStarted?: unknown } }).data;
              if (data) sawDraftStatus(data);
            }
            later(() => observer.next(value));
          },
          error(err) {
            later(() => observer.error(err));
          },
          complete() {
            later(() => observer.complete());
          },
        });
        return () => {
          closed = true;
          sub.unsubscribe();
        };
      });
}
