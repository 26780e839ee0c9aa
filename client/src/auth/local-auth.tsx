import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { onlineManager } from '@tanstack/react-query';
import { MESSAGES } from '@first-round/shared/messages';
import { AuthContext, AuthFlowError, decodeClaims, secondsLeft, type AuthApi, type SignUpResult } from './auth-context';

const REFRESH_EVERY_MS = 45_000;
const REFRESH_WHEN_LEFT_S = 10;
const EMAIL_KEY = 'fr_auth_email';
/** Set by the server beside the httpOnly session cookie (server/src/modules/auth/idp.routes.ts). */
const SESSION_HINT = 'fr_signed_in';

/**
 * Whether a session may exist: the server's readable hint, or (for sessions from before the hint) the
 * address remembered at sign-in. Without either, a visit asks for no token, so a signed-out visitor's
 * console shows no refused request.
 */
function maybeSignedIn(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${SESSION_HINT}=`)) || localStorage.getItem(EMAIL_KEY) !== null;
}

/** The session is gone (ended elsewhere, expired): the next visit need not ask. */
function forgetSessionHint() {
  document.cookie = `${SESSION_HINT}=; Max-Age=0; Path=/; SameSite=Lax`;
  localStorage.removeItem(EMAIL_KEY);
}

/** The provider's refusal; its error kind (`code`) says why, for the screens that act on it. */
class IdpError extends AuthFlowError {
  constructor(
    message: string,
    readonly status: number,
    code?: string,
  ) {
    super(message, code === 'NOT_FOUND' ? 'unknown_account' : code === 'TOO_MANY_REQUESTS' || status === 429 ? 'throttled' : undefined);
  }
}

async function idp<T>(path: string, body: unknown, fallback: string, token?: string | null): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/idp/${path}`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body ?? {}),
    });
  } catch {
    throw new IdpError(fallback, 0);
  }
  const data = (await res.json().catch(() => null)) as (T & { message?: string; code?: string }) | null;
  if (!res.ok) throw new IdpError(data?.message || fallback, res.status, data?.code);
  if (!data) throw new IdpError('Invalid response format from server', res.status);
  return data;
}

interface Session {
  token: string;
  userId: string;
}

type VerifyAnswer = { status: 'complete'; user_id: string; token: string } | { status: 'missing_requirements'; missing_fields: string[] };

/** The built-in identity provider: session cookie on /idp, short-lived JWTs refreshed in memory. */
export function LocalAuthProvider({ children }: { children: ReactNode }) {
  const [isLoaded, setLoaded] = useState(false);
  const [session, setSession] = useState<Session | null>(null);
  const [email, setEmail] = useState<string | null>(() => localStorage.getItem(EMAIL_KEY));
  const sessionRef = useRef<Session | null>(null);
  const refreshing = useRef<Promise<string | null> | null>(null);
  /**
   * A session may exist but the token request got no answer (started offline): the player stays signed in,
   * with no token yet, so the app opens on its pages (paused, under the offline banner) rather than on the
   * sign-in form; the first request back online asks again, and a 401 then signs out as usual.
   */
  const [awaitingNetwork, setAwaitingNetwork] = useState(false);
  const awaitingRef = useRef(false);
  const awaiting = useCallback((value: boolean) => {
    awaitingRef.current = value;
    setAwaitingNetwork(value);
  }, []);

  const adopt = useCallback((token: string | null) => {
    const userId = token ? (decodeClaims(token)?.sub as string | undefined) : undefined;
    const next = token && userId ? { token, userId } : null;
    sessionRef.current = next;
    setSession((prev) => (prev?.token === next?.token ? prev : next));
    return next?.token ?? null;
  }, []);

  /** Asks for a fresh token with the session cookie; null when there is no session. */
  const refresh = useCallback((): Promise<string | null> => {
    refreshing.current ??= (async () => {
      try {
        const res = await fetch('/idp/token', { method: 'POST', credentials: 'include' });
        awaiting(false);
        if (res.status === 401) forgetSessionHint();
        if (res.status === 401 || res.status === 403) return adopt(null);
        if (!res.ok) return sessionRef.current?.token ?? null; // a hiccup: keep what we have
        const { token } = (await res.json()) as { token: string };
        return adopt(token);
      } catch {
        if (!sessionRef.current && maybeSignedIn()) awaiting(true);
        return sessionRef.current?.token ?? null;
      } finally {
        refreshing.current = null;
      }
    })();
    return refreshing.current;
  }, [adopt, awaiting]);

  // Back online after a start offline: ask for the token now, not at the next request.
  useEffect(() => onlineManager.subscribe((online) => void (online && awaitingRef.current && refresh())), [refresh]);

  useEffect(() => {
    if (maybeSignedIn()) void refresh().finally(() => setLoaded(true));
    else setLoaded(true);
    const timer = setInterval(() => {
      if (sessionRef.current) void refresh();
    }, REFRESH_EVERY_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  // The token carries no e-mail: after a reload, read it from the profile once.
  useEffect(() => {
    if (!session || email) return;
    void fetch('/api/auth/me', { headers: { authorization: `Bearer ${session.token}` } })
      .then((r) => (r.ok ? (r.json() as Promise<{ email: string | null }>) : null))
      .then((me) => {
        if (me?.email) {
          localStorage.setItem(EMAIL_KEY, me.email);
          setEmail(me.email);
        }
      })
      .catch(() => undefined);
  }, [session, email]);

  const getToken = useCallback(async () => {
    const current = sessionRef.current;
    if (!current) return awaitingRef.current ? refresh() : null;
    const left = secondsLeft(current.token);
    if (left === undefined || left < REFRESH_WHEN_LEFT_S) return refresh();
    return current.token;
  }, [refresh]);

  const signOut = useCallback(async () => {
    const token = sessionRef.current?.token;
    try {
      await idp('sign-out', {}, 'Sign-out failed', token);
    } catch {
      // The local session is forgotten either way.
    }
    localStorage.removeItem(EMAIL_KEY);
    setEmail(null);
    awaiting(false);
    adopt(null);
  }, [adopt, awaiting]);

  const completeWith = useCallback(
    (answer: { token: string }, address: string) => {
      const normalised = address.trim().toLowerCase();
      localStorage.setItem(EMAIL_KEY, normalised);
      setEmail(normalised);
      adopt(answer.token);
    },
    [adopt],
  );

  const value = useMemo<AuthApi>(
    () => ({
      isLoaded,
      isSignedIn: session !== null || awaitingNetwork,
      userId: session?.userId ?? null,
      email: session ? email : null,
      provider: 'local',
      answersEveryAddress: true,
      getToken,
      signOut,
      async sendSignInCode(address) {
        await idp('sign-in', { email: address.trim() }, MESSAGES.sendCodeFailed);
      },
      async verifySignInCode(address, code) {
        const answer = await idp<VerifyAnswer>('verify', { email: address.trim(), code: code.trim() }, MESSAGES.invalidCode);
        if (answer.status !== 'complete') throw new Error(MESSAGES.verificationIncomplete);
        completeWith(answer, address);
      },
      async sendSignUpCode(address, username) {
        await idp('sign-up', { email: address.trim(), username: username.trim() }, MESSAGES.sendCodeFailed);
      },
      async verifySignUpCode(address, code, username): Promise<SignUpResult> {
        const body = { email: address.trim(), code: code.trim() };
        let answer = await idp<VerifyAnswer>('verify', body, MESSAGES.invalidCode);
        // The provider reports a missing username: set it and verify again (docs/web-app.md, "The auth layer").
        if (answer.status === 'missing_requirements') answer = await idp<VerifyAnswer>('verify', { ...body, username: username.trim() }, MESSAGES.invalidCode);
        if (answer.status !== 'complete') return { status: 'incomplete', hasSession: false, providerStatus: answer.status };
        completeWith(answer, address);
        return { status: 'complete', hasSession: true };
      },
      resetFlow() {},
    }),
    [isLoaded, session, awaitingNetwork, email, getToken, signOut, completeWith],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
