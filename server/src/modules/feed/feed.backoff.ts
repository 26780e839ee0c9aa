/* How long a failing feed waits between polls (docs/decisions.md, "Results feed"): pure, so the poller
   schedules by it and the status says from it whether the poller is backing off. */

/** The longest a failing feed waits between polls: 5 minutes, or 30 intervals for a fast feed (never below the interval). */
export const MAX_BACKOFF_SECONDS = 300;
export const MAX_BACKOFF_INTERVALS = 30;

/**
 * Seconds from a poll to the next after `failures` failed polls in a row: the interval after a success or
 * a single failure (a blip costs nothing), then doubling from the second failure (2×, 4×, …) up to
 * min(MAX_BACKOFF_SECONDS, MAX_BACKOFF_INTERVALS × interval), and never less than the interval.
 */
export function pollDelaySeconds(intervalSeconds: number, failures: number): number {
  if (failures < 2) return intervalSeconds;
  const cap = Math.max(intervalSeconds, Math.min(MAX_BACKOFF_SECONDS, MAX_BACKOFF_INTERVALS * intervalSeconds));
  return Math.min(cap, intervalSeconds * 2 ** Math.min(failures - 1, 30));
}
