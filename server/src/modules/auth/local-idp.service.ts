import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SignJWT } from 'jose';
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS, SESSION_TOKEN_TTL_S } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { badRequest, conflict, DomainError, isUniqueViolation, notFound, tooManyRequests, unauthorized } from '../../errors.js';
import { sql, sqlOne } from '../../db/sql.js';
import { announceChange, type InvalidationSink } from '../../cache/invalidation.js';
import { hmac, type SigningKeys } from './keys.js';
import type { Mailer } from './mailer.js';

export const LOCAL_ISSUER = 'https://first-round.local/idp';

export interface IdpLimits {
  /** Codes one address may be sent per hour (checked in the database, so every instance agrees). */
  codesPerAddressPerHour: number;
  /** Requests one IP may make to /idp per minute (the route's rate limiter). */
  requestsPerIpPerMinute: number;
  /** Least time between two codes for one address. */
  resendMs: number;
}
export const DEFAULT_IDP_LIMITS: IdpLimits = { codesPerAddressPerHour: 10, requestsPerIpPerMinute: 30, resendMs: 60_000 };

export interface LocalIdpDeps {
  keys: SigningKeys;
  mailer: Mailer;
  limits: IdpLimits;
  now: () => Date;
}

export type VerifyResult =
  | { status: 'complete'; user_id: string; token: string; sessionSecret: string }
  | { status: 'missing_requirements'; missing_fields: ['username'] };

const normaliseEmail = (email: string) => email.trim().toLowerCase();

function newCode(): string {
  return crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
}

const randomId = (prefix: string) => `${prefix}_${crypto.randomBytes(16).toString('base64url')}`;

async function issueCode(
  em: EntityManager,
  deps: LocalIdpDeps,
  input: { email: string; purpose: 'sign_in' | 'sign_up'; username?: string; ip: string },
) {
  const code = newCode();
  const resendMs = deps.limits.resendMs;
  const justSent = (waitMs: number) =>
    tooManyRequests(`A code was just sent to this address. Please wait ${Math.max(1, Math.ceil(waitMs / 1000))} seconds before asking for a new one.`);
  await em.transactional(async (tx) => {
    // One request per address at a time: the waits below are read and then written, so simultaneous
    // requests would all pass them (and all send a code). A request that finds another one for the
    // address under way is answered at once rather than queued (a queue would hold database
    // connections for as long as a slow mail server takes).
    const lock = await sqlOne<{ ok: boolean }>(tx, `select pg_try_advisory_xact_lock(hashtext('idp-code:' || $1)) as ok`, [input.email]);
    if (!lock?.ok) throw justSent(resendMs);
    const now = deps.now();
    // The resend wait applies while an unused code is outstanding (a code just used to sign up does not
    // hold back the next sign-in); the hourly cap counts every code sent.
    const last = await sqlOne<{ created_at: Date | null; n: number }>(
      tx,
      `select max(created_at) filter (where consumed_at is null and expires_at > $3) as created_at, count(*)::int as n
         from idp_code where lower(email) = $1 and created_at > $2`,
      [input.email, new Date(now.getTime() - 3_600_000), now],
    );
    if (last?.created_at && now.getTime() - new Date(last.created_at).getTime() < resendMs) {
      throw justSent(resendMs - (now.getTime() - new Date(last.created_at).getTime()));
    }
    if ((last?.n ?? 0) >= deps.limits.codesPerAddressPerHour) {
      throw tooManyRequests('Too many codes were requested for this address. Please try again in an hour.');
    }
    // A new code replaces any earlier one for the address.
    await sql(tx, `update idp_code set consumed_at = $2 where lower(email) = $1 and consumed_at is null`, [input.email, now]);
    await sql(
      tx,
      `insert into idp_code (email, purpose, code_hash, username, ip, expires_at, created_at) values ($1, $2, $3, $4, $5, $6, $7)`,
      [input.email, input.purpose, hmac(deps.keys.hmacSecret, `${input.email}:${code}`), input.username ?? null, input.ip, new Date(now.getTime() + CODE_TTL_MS), now],
    );
    try {
      await deps.mailer.sendCode(tx, { to: input.email, code, purpose: input.purpose });
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new DomainError('BAD_REQUEST', MESSAGES.sendCodeFailed);
    }
  });
  return { status: 'needs_verification' as const };
}

async function usernameTaken(em: EntityManager, username: string, exceptUserId?: string) {
  const row = await sqlOne(
    em,
    `select 1 from idp_user where lower(username) = lower($1) and id <> coalesce($2, '')
     union all select 1 from participant where lower(screen_name) = lower($1) and id <> coalesce($2, '')`,
    [username, exceptUserId ?? null],
  );
  return Boolean(row);
}

export async function signUp(em: EntityManager, deps: LocalIdpDeps, input: { email: string; username?: string }, ip: string) {
  const email = normaliseEmail(input.email);
  const existing = await sqlOne(em, `select 1 from idp_user where lower(email) = $1`, [email]);
  if (existing) throw conflict('That email address is taken. Please sign in instead.');
  if (input.username && (await usernameTaken(em, input.username))) throw conflict(MESSAGES.usernameTaken);
  return issueCode(em, deps, { email, purpose: 'sign_up', username: input.username, ip });
}

export async function signIn(em: EntityManager, deps: LocalIdpDeps, input: { email: string }, ip: string) {
  const email = normaliseEmail(input.email);
  const existing = await sqlOne(em, `select 1 from idp_user where lower(email) = $1`, [email]);
  if (!existing) throw notFound("Couldn't find your account.");
  return issueCode(em, deps, { email, purpose: 'sign_in', ip });
}

interface CodeRow {
  id: string;
  email: string;
  purpose: 'sign_in' | 'sign_up';
  code_hash: string;
  username: string | null;
  attempts: number;
  expires_at: Date;
}

export async function verify(
  em: EntityManager,
  deps: LocalIdpDeps,
  input: { email: string; code: string; username?: string },
  azp: string,
): Promise<VerifyResult> {
  const email = normaliseEmail(input.email);
  const now = deps.now();
  const code = await sqlOne<CodeRow>(
    em,
    `select * from idp_code where lower(email) = $1 and consumed_at is null order by created_at desc limit 1`,
    [email],
  );
  if (!code || new Date(code.expires_at) <= now) throw badRequest(MESSAGES.invalidCode);
  // Claim a try before comparing, in one statement: however many guesses arrive at once, the row lock
  // lets at most CODE_MAX_ATTEMPTS of them through to the comparison.
  const claimed = await sqlOne(
    em,
    `update idp_code set attempts = attempts + 1 where id = $1 and attempts < $2 and consumed_at is null returning id`,
    [code.id, CODE_MAX_ATTEMPTS],
  );
  if (!claimed) throw badRequest(MESSAGES.invalidCode);
  const expected = Buffer.from(code.code_hash, 'hex');
  const given = Buffer.from(hmac(deps.keys.hmacSecret, `${email}:${input.code.trim()}`), 'hex');
  if (!crypto.timingSafeEqual(expected, given)) throw badRequest(MESSAGES.invalidCode);
  // Only wrong guesses count against the code: the right one gives its try back at once, so a sign-up
  // that still lacks a username, or whose username was taken meanwhile, can be retried with it.
  await sql(em, `update idp_code set attempts = attempts - 1 where id = $1 and attempts > 0`, [code.id]);

  const username = input.username?.trim() || code.username || undefined;
  if (code.purpose === 'sign_up' && !username) {
    // Like Clerk's sign-up: the code is right but a required field is missing; the code stays usable.
    return { status: 'missing_requirements', missing_fields: ['username'] };
  }

  return em.transactional(async (tx) => {
    // Consuming is the single point of truth: of two racing verifications only one gets the row back.
    const consumed = await sqlOne(tx, `update idp_code set consumed_at = $2 where id = $1 and consumed_at is null returning id`, [code.id, now]);
    if (!consumed) throw badRequest(MESSAGES.invalidCode);

    let userId: string;
    if (code.purpose === 'sign_up') {
      if (await usernameTaken(tx, username!)) throw conflict(MESSAGES.usernameTaken);
      userId = randomId('user');
      try {
        await sql(tx, `insert into idp_user (id, email, username) values ($1, $2, $3)`, [userId, email, username]);
      } catch (error) {
        if (isUniqueViolation(error, 'idp_user_username_unique')) throw conflict(MESSAGES.usernameTaken);
        if (isUniqueViolation(error)) throw conflict('That email address is taken. Please sign in instead.');
        throw error;
      }
    } else {
      const user = await sqlOne<{ id: string }>(tx, `select id from idp_user where lower(email) = $1`, [email]);
      if (!user) throw badRequest(MESSAGES.invalidCode);
      userId = user.id;
    }
    const sessionId = randomId('sess');
    const sessionSecret = crypto.randomBytes(32).toString('base64url');
    await sql(tx, `insert into idp_session (id, user_id, secret_hash, created_at, refreshed_at) values ($1, $2, $3, $4, $4)`, [
      sessionId,
      userId,
      hmac(deps.keys.hmacSecret, sessionSecret),
      now,
    ]);
    const token = await signSessionToken(deps, { userId, sessionId, azp });
    return { status: 'complete' as const, user_id: userId, token, sessionSecret };
  });
}

export async function signSessionToken(deps: Pick<LocalIdpDeps, 'keys'>, s: { userId: string; sessionId: string; azp: string }) {
  // Real time, not `deps.now`: `verifyToken` checks iat/nbf/exp against the real clock, so a token stamped
  // by a moved (or skewed) provider clock would be refused as "not active yet" or already expired.
  const iat = Math.floor(Date.now() / 1000);
  // Shaped like a Clerk session token so one verifier (`verifyToken` from @clerk/backend) serves both.
  return new SignJWT({ sid: s.sessionId, azp: s.azp })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: deps.keys.kid })
    .setSubject(s.userId)
    .setIssuer(LOCAL_ISSUER)
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + SESSION_TOKEN_TTL_S)
    .sign(deps.keys.privateKey);
}

/** A fresh short-lived token for the session cookie, while the session has not been ended. */
export async function refreshToken(em: EntityManager, deps: LocalIdpDeps, sessionSecret: string | undefined, azp: string) {
  if (!sessionSecret) throw unauthorized(MESSAGES.authRequired);
  const session = await sqlOne<{ id: string; user_id: string }>(
    em,
    `update idp_session set refreshed_at = $2 where secret_hash = $1 and ended_at is null returning id, user_id`,
    [hmac(deps.keys.hmacSecret, sessionSecret), deps.now()],
  );
  if (!session) throw unauthorized(MESSAGES.authRequired);
  return { token: await signSessionToken(deps, { userId: session.user_id, sessionId: session.id, azp }) };
}

/**
 * Ends the session behind the cookie and/or the token; returns the ended session ids. Every instance
 * hears of it in the same transaction, so a token cached anywhere stops working the moment this commits.
 */
export async function signOut(
  em: EntityManager,
  deps: LocalIdpDeps,
  sink: InvalidationSink,
  sessionSecret: string | undefined,
  sessionId?: string,
): Promise<string[]> {
  return em.transactional(async (tx) => {
    const ended = await sql<{ id: string }>(
      tx,
      `update idp_session set ended_at = $3 where ended_at is null and (secret_hash = $1 or id = $2) returning id`,
      [sessionSecret ? hmac(deps.keys.hmacSecret, sessionSecret) : null, sessionId ?? null, deps.now()],
    );
    const ids = ended.map((r) => r.id);
    if (ids.length > 0) await announceChange(tx, sink, { kind: 'sessions_ended', session_ids: ids });
    return ids;
  });
}

export async function isSessionActive(em: EntityManager, sessionId: string): Promise<boolean> {
  return Boolean(await sqlOne(em, `select 1 from idp_session where id = $1 and ended_at is null`, [sessionId]));
}

export async function readOutbox(em: EntityManager, email: string) {
  const rows = await sql<{ to_address: string; subject: string; body: string; code: string | null; sent_at: Date }>(
    em,
    `select to_address, subject, body, code, sent_at from idp_outbox where lower(to_address) = $1 order by id desc limit 50`,
    [normaliseEmail(email)],
  );
  return rows.map((r) => ({ to: r.to_address, subject: r.subject, text: r.body, code: r.code, sent_at: new Date(r.sent_at).toISOString() }));
}
