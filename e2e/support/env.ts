/** Where the app under test runs (scripts/run-e2e.mjs starts it and sets this). */
export const BASE_URL = (process.env.E2E_BASE_URL ?? 'http://localhost:3123').replace(/\/$/, '');
export const OPERATOR_EMAIL = process.env.E2E_OPERATOR_EMAIL ?? 'operator@example.com';

let counter = 0;
/** A fresh address per person and run, so tests never meet each other's accounts. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

export function uniqueUsername(prefix: string): string {
  return `${prefix}${Date.now().toString(36).slice(-5)}${++counter}`;
}
