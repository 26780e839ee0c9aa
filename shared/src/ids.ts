/** The largest id a database row can have (PostgreSQL `integer`). */
export const MAX_ID = 2_147_483_647;

/**
 * The one reading of a whole number written as text (a URL path segment or query value, a form field):
 * digits only, at most 10 of them, within `min..max`; anything else is null. A repeated query parameter
 * (an array) is read by its first value.
 */
export function parseWholeNumber(text: unknown, min = 0, max = MAX_ID): number | null {
  const value = Array.isArray(text) ? (text as unknown[])[0] : text;
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

/** An id written as text (`/groups/42`, `?group_id=42`, a typed-in group id): a positive integer, else null. */
export const parseId = (text: unknown): number | null => parseWholeNumber(text, 1);
