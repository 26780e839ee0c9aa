/*
 * What this device watches the draft on: live, a TV a few seconds behind the
 * draft room, a stream further behind, or a number of seconds. Kept per device in localStorage (a phone
 * at the watch party and a laptop at home differ), read by the live layer (lib/hold-back.ts,
 * lib/hold-gate.ts), which holds every pick back by it. No React here: `useViewingDelay` in
 * components/viewing-delay-chooser.tsx subscribes to it.
 */

import { MAX_VIEWING_DELAY_SECONDS } from '@first-round/shared/constants';

export const VIEWING_DELAY_KEY = 'first-round.viewing-delay';
/** Seconds; beyond ten minutes a broadcast is not "behind", it is a replay. */
export const MAX_VIEWING_DELAY = MAX_VIEWING_DELAY_SECONDS;

/** The choices offered by name; any other whole number of seconds is "Other". */
export const VIEWING_CHOICES = [
  { seconds: 0, label: 'Live' },
  { seconds: 10, label: 'TV (about 10 s behind)' },
  { seconds: 45, label: 'A stream (about 45 s behind)' },
] as const;

/** A stored or typed value as whole seconds in [0, MAX_VIEWING_DELAY]; anything unreadable is live. */
export function parseViewingDelay(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.min(MAX_VIEWING_DELAY, Math.round(n));
}

/** 'Delayed 45 s' / 'Delayed 2 min 5 s': the badge's words. */
export function delayedText(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  const span = m === 0 ? `${s} s` : s === 0 ? `${m} min` : `${m} min ${s} s`;
  return `Delayed ${span}`;
}

const listeners = new Set<() => void>();
let cached: number | null = null;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage refused (a privacy mode): the delay lives for this page only
  }
}

/** This device's delay in seconds (0: live). */
export function getViewingDelay(): number {
  if (cached === null) cached = parseViewingDelay(storage()?.getItem(VIEWING_DELAY_KEY));
  return cached;
}

/** Remembers the delay on this device and tells every subscriber (the live layer, the chooser, the badge). */
export function setViewingDelay(seconds: number): void {
  const next = parseViewingDelay(seconds);
  try {
    if (next === 0) storage()?.removeItem(VIEWING_DELAY_KEY);
    else storage()?.setItem(VIEWING_DELAY_KEY, String(next));
  } catch {
    // full or refused: kept in memory for this page
  }
  if (next === cached) return;
  cached = next;
  for (const listener of [...listeners]) listener();
}

/** Called on every change of the delay (here or in another tab of this device); returns the unsubscribe. */
export function subscribeViewingDelay(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab of this device chose: follow it, so a second tab never runs ahead of the TV.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== VIEWING_DELAY_KEY && event.key !== null) return;
    const next = parseViewingDelay(event.newValue);
    if (next === cached) return;
    cached = next;
    for (const listener of [...listeners]) listener();
  });
}
