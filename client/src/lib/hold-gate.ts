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

/*
 * Every hold is kept as the device time something happened (the page's load, the newest held change)
 * and the delay is added when asked: a delay changed mid-draft moves every hold with it, the answers
 * already waiting included (a longer delay must hold them longer too: they may include a change that is
 * now held longer).
 */
const loadedAt = Date.now();
let loadWindow = getViewingDelay() > 0;
/** Device time the newest change the stream holds happened (0: none held; lib/hold-back.ts via draft-live). */
let changesFrom = 0;
/** Answers waiting, each with the moment its hold counts from. */
let waiters: { from: number; resolve: () => void }[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();
const catchUpListeners = new Set<() => void>();

const delayMs = () => getViewingDelay() * 1000;

/** The moment the current hold counts from (0: nothing held). */
function holdFrom(): number {
  return Math.max(loadWindow ? loadedAt : 0, changesFrom);
}

function computeState(): GateState {
  const from = holdFrom();
  const until = from > 0 && delayMs() > 0 ? from + delayMs() : 0;
  return { until: until > Date.now() ? until : 0, catchingUp: loadWindow && loadedAt + delayMs() > Date.now() };
}

let snapshot: GateState = computeState();

function update(): void {
  const now = Date.now();
  if (loadWindow && loadedAt + delayMs() <= now) loadWindow = false;
  const due = (w: { from: number }) => w.from + delayMs() + AFTER_RELEASE_MS <= now;
  const ready = waiters.filter(due);
  waiters = waiters.filter((w) => !due(w));
  for (const w of ready) w.resolve();
  if (timer) clearTimeout(timer);
  timer = undefined;
  const next = Math.min(...waiters.map((w) => w.from + delayMs() + AFTER_RELEASE_MS), loadWindow ? loadedAt + delayMs() : Infinity);
  if (Number.isFinite(next)) timer = setTimeout(update, Math.max(0, next - now));
  const state = computeState();
  if (state.until !== snapshot.until || state.catchingUp !== snapshot.catchingUp) {
    snapshot = state;
    for (const l of [...listeners]) l();
  }
}

subscribeViewingDelay(update);

/** The live layer says when the newest change it holds happened, on this device's clock (0: nothing held). */
export function holdChangesFrom(deviceMs: number): void {
  changesFrom = deviceMs;
  update();
}

/** An answer of a draft read arrived: resolves once it may be shown. */
export function whenReleased(): Promise<void> {
  if (computeState().until === 0) return Promise.resolve();
  return new Promise((resolve) => {
    waiters.push({ from: holdFrom(), resolve });
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
  changesFrom = 0;
  for (const w of waiters) w.from = -Infinity;
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
