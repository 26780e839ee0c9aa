import { verifyToken } from '@clerk/backend';
import { decodeJwt } from 'jose';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import { isSessionActive, LOCAL_ISSUER } from './local-idp.service.js';
import type { SigningKeys } from './keys.js';

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
  verify(em: EntityManager, authorization: string | undefined): Promise<BearerResult>;
  /** Drops sessions just signed out here from the active-session cache. */
  forgetSessions(sessionIds: string[]): void;
}

/** Active built-in sessions seen in the last few seconds, so most requests skip the session lookup. */
const SESSION_CACHE_MS = 5000;

/** `Bearer <jwt>` → the token, or undefined for anything else. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(authorization?.trim() ?? '');
  return match?.[1];
}

/**
 * The one bearer check, for tRPC and REST alike. Both providers' tokens go through `verifyToken` from
 * @clerk/backend (RS256 signature, exp/nbf with 5 s skew, `azp` against the app's origins, and the issuer).
 * Local tokens must also belong to a session that has not been signed out.
 */
export function createBearerVerifier(config: Config, keys: SigningKeys): BearerVerifier {
  const provider = config.authProvider;
  const options =
    provider === 'local'
      ? { jwtKey: keys.publicKeyPem, issuer: LOCAL_ISSUER }
      : {
          jwtKey: config.CLERK_JWT_KEY,
          secretKey: config.CLERK_JWT_KEY ? undefined : config.CLERK_SECRET_KEY,
          issuer: config.CLERK_ISSUER,
        };
  const activeSessions = new Map<string, number>();
  const sessionIsActive = async (em: EntityManager, sessionId: string) => {
    const seen = activeSessions.get(sessionId);
    if (seen && Date.now() - seen < SESSION_CACHE_MS) return true;
    const active = await isSessionActive(em, sessionId);
    if (active) {
      if (activeSessions.size > 50_000) activeSessions.clear();
      activeSessions.set(sessionId, Date.now());
    } else activeSessions.delete(sessionId);
    return active;
  };
  return {
    provider,
    forgetSessions(sessionIds) {
      for (const id of sessionIds) activeSessions.delete(id);
    },
    async verify(em, authorization) {
      const token = bearerToken(authorization);
      if (!token) return { ok: false, reason: authorization ? 'malformed authorization header' : 'no token' };
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
      if (provider === 'local' && (!sessionId || !(await sessionIsActive(em, sessionId)))) {
        return { ok: false, reason: 'session has ended' };
      }
      return { ok: true, identity: { provider, userId, sessionId, claims, token } };
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
