import { STORAGE_KEYS } from '@first-round/shared/constants';

/**
 * The page to return to after signing in (`?next=`), or null. Only a path of this app: never another
 * origin ('//evil.example', '/\\evil.example'), never the sign-in pages themselves.
 */
export function safeNext(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (/^\/(sign-in|sign-up|auth\/callback)(\/|\?|$)/.test(value)) return null;
  return value;
}

/** `path?next=…` when there is somewhere to return to. */
export const withNext = (path: string, next: string | null, extra: Record<string, string> = {}) => {
  const query = new URLSearchParams({ ...extra, ...(next ? { next } : {}) }).toString();
  return query ? `${path}?${query}` : path;
};

/**
 * Just before /auth/callback: where it should go. A pending invite has already set its group; otherwise
 * the page the player asked for, if any.
 */
export function rememberNext(next: string | null) {
  if (next && !localStorage.getItem(STORAGE_KEYS.pendingJoinToken)) localStorage.setItem(STORAGE_KEYS.redirectAfterAuth, next);
}
