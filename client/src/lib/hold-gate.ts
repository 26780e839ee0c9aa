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
 *
 * On a page with nothing kept to show meanwhile (a first visit), a read that can be answered as of an earlier moment
 * (AS_OF_READS: `before`, docs/api.md) is asked again, once the load is known to hold a change, as of the
 * server's time one delay before the load: that answer holds nothing within the delay and shows at once,
 * the page marked as catching up as before. When the load's hold ends, every draft read is read again
 * (`connectCache`): the held changes show on time, as they would have.
 */

/**
 * Reads whose answers change with a pick (the operator's audit log and undo preview are not a viewer's; a
 * group, its members, saved picks and the list of past seasons hold nothing of the draft's state).
 */
export const DRAFT_READS = /^(draft\.status|players\.list|leaderboard\.|picks\.(?!(mine|global)$)|groups\.(?!(get|membership|members|mine)$)|seasons\.(?!list$))/;
/** Reads of those that take `before` (the draft as it was): what a page's first answers need. */
const AS_OF_READS = /^(draft\.status|players\.list|leaderboard\.group)$/;
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
/**
 * The load's moment for answers as of it (server time, ISO), or null when the load holds nothing (or has
 * no delay): settled once a draft status has said (a promise settles once: later calls change nothing).
 */
let settleMoment: (before: string | null) => void = () => {};
let loadMoment = new Promise<string | null>((resolve) => (settleMoment = resolve));
/** Whether an answer as of the load's moment was shown: then every draft read is read again when its hold ends. */
let answeredAsOf = false;
/** The page's query cache (lib/query-client.ts): whether it shows answers kept from an earlier page, and reading the draft again. */
let cache: { kept(): boolean; readAgain(): void } = { kept: () => false, readAgain() {} };

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

/** The load's hold is over (its time came, or Catch up): answers as of it are replaced by the draft now. */
function loadEnded(): void {
  loadWindow = false;
  settleMoment(null);
  if (!answeredAsOf) return;
  answeredAsOf = false;
  // After the gate's own bookkeeping: the reads come back through it.
  queueMicrotask(() => cache.readAgain());
}

function update(): void {
  const now = Date.now();
  if (loadWindow && loadFrom + delayMs() <= now) loadEnded();
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
  loadMoment = new Promise((resolve) => (settleMoment = resolve));
  answeredAsOf = false;
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
    loadEnded();
    update();
    return;
  }
  const changed = typeof status.last_change_at === 'string' ? Date.parse(status.last_change_at) : NaN;
  if (!Number.isFinite(changed)) return;
  // A change "after the load" (a device clock behind) holds one delay from the load, no longer.
  const from = Math.min(loadedAt, pageClockSkew.toDevice(changed));
  loadFrom = loadKnown ? Math.max(loadFrom, from) : from;
  loadKnown = true;
  // Held (the change is within the delay): the page shows the draft as it was one delay before the load.
  // On the server's clock by the skew, which only over-estimates it: never later than the server's time.
  settleMoment(loadFrom + delayMs() > Date.now() ? new Date(loadedAt - delayMs() - pageClockSkew.toDevice(0)).toISOString() : null);
  update();
}

/** The load's moment for answers as of it (null: none wanted), once a draft status has said whether the load holds a change. */
export function loadBefore(): Promise<string | null> {
  return loadMoment;
}

/** The page's query cache, which the gate asks and tells (lib/query-client.ts). */
export function connectCache(pageCache: typeof cache): void {
  cache = pageCache;
}

/** "Catch up": every waiting answer now, and the live layer releases every held change (onCatchUp). */
export function catchUp(): void {
  loadEnded();
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
 * answer is ready the moment it may be shown). A read the load's hold would leave with nothing on screen
 * is also asked as of the load's moment, and that answer is shown at once (the one the draft now gave is
 * dropped: it is read again when the hold ends). Everything else passes untouched.
 */
export function holdBackLink(): TRPCLink<AppRouter> {
  return () =>
    ({ next, op }) =>
      observable((observer) => {
        const gated = op.type === 'query' && DRAFT_READS.test(op.path);
        let closed = false;
        /** An answer as of the load's moment was given: the answer now is not. */
        let answered = false;
        let chain = Promise.resolve();
        const later = (fn: () => void) => {
          if (!gated) return fn();
          chain = chain.then(whenReleased).then(() => {
            if (!closed && !answered) fn();
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
        let asOf: { unsubscribe(): void } | undefined;
        if (gated && AS_OF_READS.test(op.path) && loadWindow && !cache.kept())
          void loadBefore().then((before) => {
            // Not answered as of then (an older server, a reset since): the answer now comes when the hold ends.
            if (before && !closed)
              asOf = next({ ...op, input: { ...(op.input as object), before } }).subscribe({
                next(value) {
                  if (closed || answered) return;
                  answered = answeredAsOf = true;
                  observer.next(value);
                  observer.complete();
                },
                error() {},
              });
          });
        return () => {
          closed = true;
          sub.unsubscribe();
          asOf?.unsubscribe();
        };
      });
}
