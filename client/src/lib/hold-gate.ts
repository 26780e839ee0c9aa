import { observable } from '@trpc/server/observable';
import type { TRPCLink } from '@trpc/client';
import type { AppRouter } from '@first-round/server/router';
import { pageClockSkew } from './hold-back';
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
 * A page loaded with a delay set has not heard the changes already in the server's answers. Its draft
 * answers wait until a draft status says when the draft last changed (`last_change_at`, the server's clock,
 * brought to this device's by the skew each answer's Date gives, which only over-estimates it): nothing
 * waits when that is longer ago than the delay, or before the start; else every draft answer waits until
 * that moment plus the delay, the page "catching up to your TV" (showing what this device showed before,
 * kept by lib/persisted-queries.ts, if anything). Never longer than one delay after the load. Every read
 * that shows draft state waits here, the live stream's opening standings page too (components/draft-live.tsx):
 * one answer let through early would show the change on the strip, the standings or the board.
 * "Catch up" and a shorter delay release at once.
 */

/** Reads whose answers change with a pick (the operator's audit log and undo preview are not a viewer's). */
const DRAFT_READS = /^(draft\.status|players\.list|leaderboard\.|picks\.|groups\.|seasons\.)/;
/** Margin after a release: the released change reaches the cache before an answer that includes it. */
const AFTER_RELEASE_MS = 100;

export interface GateState {
  /** Device time until which answers wait (0: none wait). */
  until: number;
  /** Whether the page, freshly loaded, holds a change the draft status says happened within the delay. */
  catchingUp: boolean;
}

/*
 * Every hold is kept as the device time something happened (the draft's last change before the load, the
 * newest held change) and the delay is added when asked: a delay changed mid-draft moves every hold with
 * it, the answers already waiting included (a longer delay must hold them longer too: they may include a
 * change that is now held longer).
 */
let loadedAt = 0;
/** Whether answers may still be held for what the page missed before it loaded. */
let loadWindow = false;
/** The moment the load's hold counts from: the load itself until a draft status says when the draft last changed. */
let loadFrom = 0;
/** Whether a draft status has said it (then the hold is a known change's, and the badge says so). */
let loadKnown = false;
/** Device time the newest change the stream holds happened (0: none held; lib/hold-back.ts via draft-live). */
let changesFrom = 0;
/**
 * Answers waiting: each with the newest held change when it arrived (`from`), and whether it arrived while
 * the load's hold was on (`load`: it then waits for that hold as it is now, which a draft status can shorten).
 */
let waiters: { from: number; load: boolean; resolve: () => void }[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();
const catchUpListeners = new Set<() => void>();

const delayMs = () => getViewingDelay() * 1000;

/** The moment a waiting answer's hold counts from. */
function fromOf(w: { from: number; load: boolean }): number {
  return w.load && loadWindow ? Math.max(loadFrom, w.from) : w.from;
}

/** The moment the current hold counts from (0: nothing held). */
function holdFrom(): number {
  return Math.max(loadWindow ? loadFrom : 0, changesFrom);
}

function computeState(): GateState {
  const now = Date.now();
  const from = holdFrom();
  const until = from > 0 && delayMs() > 0 ? from + delayMs() : 0;
  return { until: until > now ? until : 0, catchingUp: loadWindow && loadKnown && loadFrom + delayMs() > now };
}

let snapshot: GateState = computeState();

function update(): void {
  const now = Date.now();
  if (loadWindow && loadFrom + delayMs() <= now) loadWindow = false;
  const due = (w: { from: number; load: boolean }) => fromOf(w) + delayMs() + AFTER_RELEASE_MS <= now;
  const ready = waiters.filter(due);
  waiters = waiters.filter((w) => !due(w));
  for (const w of ready) w.resolve();
  if (timer) clearTimeout(timer);
  timer = undefined;
  const next = Math.min(...waiters.map((w) => fromOf(w) + delayMs() + AFTER_RELEASE_MS), loadWindow ? loadFrom + delayMs() : Infinity);
  if (Number.isFinite(next)) timer = setTimeout(update, Math.max(0, next - now));
  const state = computeState();
  if (state.until !== snapshot.until || state.catchingUp !== snapshot.catchingUp) {
    snapshot = state;
    for (const l of [...listeners]) l();
  }
}

subscribeViewingDelay(update);

/**
 * The page loads: with a delay set, draft answers wait for what it missed until a draft status says what
 * that is. Done once as this module loads; the component tests call it for a page loaded afresh.
 */
export function pageLoaded(): void {
  loadedAt = Date.now();
  loadFrom = loadedAt;
  loadWindow = getViewingDelay() > 0;
  loadKnown = false;
  update();
}

pageLoaded();

/** The live layer says when the newest change it holds happened, on this device's clock (0: nothing held). */
export function holdChangesFrom(deviceMs: number): void {
  changesFrom = deviceMs;
  update();
}

/** An answer of a draft read arrived: resolves once it may be shown. */
export function whenReleased(): Promise<void> {
  if (computeState().until === 0) return Promise.resolve();
  return new Promise((resolve) => {
    waiters.push({ from: changesFrom, load: loadWindow, resolve });
    update();
  });
}

/**
 * A draft status answered while the load's hold is on: before the start, or with no change recorded, there
 * is nothing to hold; else what changed at `last_change_at` (on this device's clock) is held until then
 * plus the delay, and nothing older. A later status only ever moves the hold later (a change since).
 */
export function sawDraftStatus(status: { draftHasStarted?: unknown; last_change_at?: unknown }): void {
  if (!loadWindow) return;
  if (status.draftHasStarted === false || status.last_change_at === null) {
    loadWindow = false;
    update();
    return;
  }
  const changed = typeof status.last_change_at === 'string' ? Date.parse(status.last_change_at) : NaN;
  if (!Number.isFinite(changed)) return;
  // A change "after the load" (a device clock behind) holds one delay from the load, no longer.
  const from = Math.min(loadedAt, pageClockSkew.toDevice(changed));
  loadFrom = loadKnown ? Math.max(loadFrom, from) : from;
  loadKnown = true;
  update();
}

/** "Catch up": every waiting answer now, and the live layer releases every held change (onCatchUp). */
export function catchUp(): void {
  loadWindow = false;
  for (const l of [...catchUpListeners]) l();
  changesFrom = 0;
  for (const w of waiters) {
    w.from = -Infinity;
    w.load = false;
  }
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
              const data = (value.result as { data?: { draftHasStarted?: unknown; last_change_at?: unknown } }).data;
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
