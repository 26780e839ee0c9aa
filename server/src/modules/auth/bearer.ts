import { verifyToken } from '@clerk/backend';
import { decodeJwt } from 'jose';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import { LOCAL_ISSUER } from './local-idp.service.js';
import { isSessionActive } from './identity.repository.js';
import type { SigningKeys } from './keys.js';
import type { Invalidation } from '../../events/topics.js';
import type { MaybePromise } from '../../cache/maybe-promise.js';
import { CappedCache } from '../../cache/capped.js';

export interface Identity {
  provider: 'local' | 'clerk';
  userId: string;
  sessionId: string | null;
  claims: Record<string, unknown>;
  token: string;
}

export type BearerResult = { ok: true; identity: Identity } | { ok: false; reason: string };

export interface BearerVerifier {
  provider: 'local' | 'clerk';
  /**
   * At once (no promise) for a malformed header or a remembered token; else once the signature is checked.
   * `em` is called only when the database must be asked (not for a token already verified).
   */
  verify(em: () => EntityManager, authorization: string | undefined): MaybePromise<BearerResult>;
  /** Drops signed-out sessions (and every token of theirs) from this instance's caches. */
  forgetSessions(sessionIds: string[]): void;
  /** Drops everything cached (the invalidation channel may have missed something). */
  forgetAll(): void;
}

/** Where the verifier hears of sessions ended on any instance, and whether it can trust what it holds. */
export interface BearerCacheEvents {
  readonly isConnected: boolean;
  onInvalidate(listener: (message: Invalidation) => void): () => void;
  onResync(listener: () => void): () => void;
}

/** Without the invalidation channel: active built-in sessions seen in the last few seconds skip the lookup. */
const SESSION_CACHE_MS = 5000;
/** Sessions remembered as active (for SESSION_CACHE_MS), least recently seen evicted first. */
export const MAX_ACTIVE_SESSIONS = 50_000;
/**
 * Verified tokens kept at most, least recently used evicted first (a token lives 60 s, so this is a
 * burst bound); an evicted token has its signature checked again.
 */
export const MAX_CACHED_TOKENS = 100_000;

/** `Bearer <jwt>` → the token, or undefined for anything else. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(authorization?.trim() ?? '');
  return match?.[1];
}

/**
 * The one bearer check, for tRPC and REST alike. Both providers' tokens go through `verifyToken` from
 * @clerk/backend (RS256 signature, exp/nbf with 5 s skew, `azp` against the app's origins, and the issuer).
 * Local tokens must also belong to a session that has not been signed out.
 *
 * A token that passed is remembered by its exact string until it expires, so the signature is checked
 * once, not on every request. That is only safe while this instance hears sign-outs from every instance
 * (`events.isConnected`): a sign-out anywhere drops the session's tokens here at once; while the channel
 * is down nothing is served from the cache, and a resync drops it whole.
 */
export function createBearerVerifier(config: Config, keys: SigningKeys, events?: BearerCacheEvents): BearerVerifier {
  const provider = config.authProvider;
  const options =
    provider === 'local'
      ? { jwtKey: keys.publicKeyPem, issuer: LOCAL_ISSUER }
      : {
          jwtKey: config.CLERK_JWT_KEY,
          secretKey: config.CLERK_JWT_KEY ? undefined : config.CLERK_SECRET_KEY,
          issuer: config.CLERK_ISSUER,
        };
  const activeSessions = new CappedCache<string, number>(MAX_ACTIVE_SESSIONS);
  /** Each token's session (if any) is in `tokensOfSession` with it: evicted here, it leaves there too. */
  const tokens = new CappedCache<string, { identity: Identity; expiresAt: number }>(MAX_CACHED_TOKENS, (token, { identity }) =>
    unindex(token, identity.sessionId),
  );
  /**
   * The tokens kept per session, so a sign-out finds them; a session is here only while one of its tokens
   * is in `tokens` (so there are never more than MAX_CACHED_TOKENS). Its guard is the sign-out's: a
   * verification that began before its session was signed out is not kept after (per session: a sign-out
   * does not discard other sessions' verifications).
   */
  const tokensOfSession = new CappedCache<string, Set<string>>(MAX_CACHED_TOKENS, (_session, set) => {
    for (const token of set) tokens.delete(token);
  });
  const cacheLive = () => events?.isConnected === true;

  const sessionIsActive = async (em: EntityManager, sessionId: string) => {
    const seen = activeSessions.get(sessionId);
    if (seen && Date.now() - seen < SESSION_CACHE_MS) return true;
    const active = await isSessionActive(em, sessionId);
    if (active) activeSessions.set(sessionId, Date.now());
    else activeSessions.delete(sessionId);
    return active;
  };
  /** Keeps a verified token unless its session was signed out (or everything dropped) since `mark`. */
  const remember = (identity: Identity, mark: number) => {
    const exp = identity.claims.exp;
    if (typeof exp !== 'number' || !cacheLive() || !tokensOfSession.isCurrent(identity.sessionId ?? '', mark)) return;
    tokens.set(identity.token, { identity, expiresAt: exp * 1000 });
    if (identity.sessionId) {
      const set = tokensOfSession.peek(identity.sessionId) ?? new Set();
      set.add(identity.token);
      tokensOfSession.set(identity.sessionId, set);
    }
  };
  const unindex = (token: string, sessionId: string | null) => {
    const set = sessionId ? tokensOfSession.peek(sessionId) : undefined;
    set?.delete(token);
    if (set?.size === 0) tokensOfSession.delete(sessionId!);
  };
  const forgetToken = (token: string) => {
    const entry = tokens.peek(token);
    tokens.delete(token);
    if (entry) unindex(token, entry.identity.sessionId);
  };
  const forgetSessions = (sessionIds: string[]) => {
    for (const id of sessionIds) {
      activeSessions.delete(id);
      for (const token of tokensOfSession.peek(id) ?? []) tokens.delete(token);
      tokensOfSession.invalidate(id);
    }
  };
  const forgetAll = () => {
    activeSessions.clear();
    tokens.clear();
    tokensOfSession.clear();
  };
  events?.onInvalidate((message) => {
    if (message.kind === 'sessions_ended') forgetSessions(message.session_ids);
  });
  events?.onResync(forgetAll);

  /** A token not remembered: its signature checked, and for a local one its session looked up. */
  async function verifyUncached(em: () => EntityManager, token: string): Promise<BearerResult> {
    const mark = tokensOfSession.mark();
    let claims: Record<string, unknown>;
    try {
      // The package's exported verifyToken returns the claims and throws on any defect.
      claims = (await verifyToken(token, { ...options, authorizedParties: config.appOrigins })) as unknown as Record<string, unknown>;
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : 'invalid token' };
    }
    const userId = typeof claims.sub === 'string' ? claims.sub : '';
    if (!/^user_[A-Za-z0-9_-]+$/.test(userId)) return { ok: false, reason: 'token subject is not a user id' };
    const sessionId = typeof claims.sid === 'string' ? claims.sid : null;
    if (provider === 'local' && (!sessionId || !(await sessionIsActive(em(), sessionId)))) {
      return { ok: false, reason: 'session has ended' };
    }
    const identity: Identity = { provider, userId, sessionId, claims, token };
    remember(identity, mark);
    return { ok: true, identity };
  }

  return {
    provider,
    forgetSessions,
    forgetAll,
    verify(em, authorization) {
      const token = bearerToken(authorization);
      if (!token) return { ok: false, reason: authorization ? 'malformed authorization header' : 'no token' };
      const cached = tokens.get(token);
      if (cached) {
        if (cached.expiresAt > Date.now() && cacheLive()) return { ok: true, identity: cached.identity };
        forgetToken(token);
      }
      return verifyUncached(em, token);
    },
  };
}

/** Decoded header and claims for the diagnostic pages; never verifies and never returns the token itself. */
export function describeToken(token: string) {
  const [headerPart] = token.split('.');
  let header: Record<string, unknown> = {};
  let claims: Record<string, unknown> = {};
  try {
    header = JSON.parse(Buffer.from(headerPart ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    claims = decodeJwt(token) as Record<string, unknown>;
  } catch {
    // undecodable: empty header and claims
  }
  return { header, claims, length: token.length, preview: tokenPreview(token) };
}

export function tokenPreview(token: string): string {
  return token.length <= 20 ? '…' : `${token.slice(0, 10)}…${token.slice(-6)}`;
}
