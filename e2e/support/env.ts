/** Where the app under test runs (scripts/run-e2e.mjs starts it and sets this). */
export const BASE_URL = (process.env.E2E_BASE_URL ?? 'http://localhost:3123').replace(/\/$/, '');
export const OPERATOR_EMAIL = process.env.E2E_OPERATOR_EMAIL ?? 'operator@example.com';
/**
 * A second operator (also in ADMIN_EMAILS, scripts/run-e2e.mjs): the built-in provider sends one address
 * at most 10 codes an hour, so specs added later sign in as this one instead of adding to the first's.
 */
export const DEPUTY_EMAIL = process.env.E2E_DEPUTY_EMAIL ?? 'deputy@example.com';
/** More operators for specs that only call the API (same reason): each spec's sign-ins stay under the limit. */
export const STEWARD_EMAIL = 'steward@example.com';
export const MARSHAL_EMAIL = 'marshal@example.com';
export const UMPIRE_EMAIL = 'umpire@example.com';

/**
 * How long a spec waits for a change made elsewhere (the operator's start or pick) to reach an open page:
 * a bound on a hang, not a speed target. A pushed change shows about a second after it is made on a quiet
 * machine and several times that with both cores busy; how soon is the live benchmarks' question
 * (docs/benchmarks.md). That it came by push, not by polling, is checked where it matters, by condition: a
 * component test sees a change on the stream reach the strip with no read (client/src/components/hold-back.test.tsx),
 * and e2e/spectators.e2e.ts sees /live follow a pick with no draft.status read.
 */
export const LIVE_MS = 30_000;

let counter = 0;
/** A fresh address per person and run, so tests never meet each other's accounts. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

export function uniqueUsername(prefix: string): string {
  return `${prefix}${Date.now().toString(36).slice(-5)}${++counter}`;
}
