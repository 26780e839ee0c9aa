import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SignJWT } from 'jose';
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS, SESSION_TOKEN_TTL_S } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { isReservedName } from '@first-round/shared/name-keys';
import { badRequest, conflict, DomainError, isUniqueViolation, tooManyRequests, unauthorized } from '../../errors.js';
import { publish } from '../../events/topic-bus.js';
import { isScreenNameTaken } from '../users/participants.repository.js';
import { hmac, type SigningKeys } from './keys.js';
import { noAccountMail, type Mailer } from './mailer.js';
import * as identity from './identity.repository.js';

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
  /** The game's address (config.ts, publicOrigin), for the link in a mail. */
  origin: string;
}

export type VerifyResult =
  | { status: 'complete'; user_id: string; token: string; sessionSecret: string }
  | { status: 'missing_requirements'; missing_fields: ['username'] };

const normaliseEmail = (email: string) => email.trim().toLowerCase();

function newCode(): string {
  return crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
}

const randomId = (prefix: string) => `${prefix}_${crypto.randomBytes(16).toString('base64url')}`;

/**
 * What a request for a code mails: a code for the address's account (`sign_in`), for a new account
 * (`sign_up`), or, to an address without an account that asked to sign in, a note saying so (`no_account`)
 * with a code nobody is told.
 */
type CodeKind = 'sign_in' | 'sign_up' | 'no_account';

/**
 * Sends a code to the address, under the per-address limits: the same work whatever the address (one
 * code row, one mail), so neither the answer nor its time tells whether it has an account. The code row's
 * purpose is the form that asked (sign-in or sign-up): the resend wait holds between two requests of one
 * form, so signing up just after a sign-in found no account goes ahead, and the hourly cap counts both.
 */
async function issueCode(
  em: EntityManager,
  deps: LocalIdpDeps,
  input: { email: string; purpose: 'sign_in' | 'sign_up'; kind: CodeKind; username?: string; ip: string },
) {
  // An address without an account gets a code nobody can know (not one of the million six-digit ones).
  const code = input.kind === 'no_account' ? crypto.randomBytes(32).toString('base64url') : newCode();
  const resendMs = deps.limits.resendMs;
  const justSent = (waitMs: number) =>
    tooManyRequests(`A code was just sent to this address. Please wait ${Math.max(1, Math.ceil(waitMs / 1000))} seconds before asking for a new one.`);
  await em.transactional(async (tx) => {
    // One request per address at a time: the waits below are read and then written, so simultaneous
    // requests would all pass them (and all send a code). A request that finds another one for the
    // address under way is answered at once rather than queued (a queue would hold database
    // connections for as long as a slow mail server takes).
    if (!(await identity.tryLockAddress(tx, input.email))) throw justSent(resendMs);
    const now = deps.now();
    // The resend wait applies while an unused code the same form asked for is outstanding (a code just
    // used to sign up does not hold back the next sign-in); the hourly cap counts every code sent.
    const sent = await identity.codesSentSince(tx, input.email, input.purpose, new Date(now.getTime() - 3_600_000), now);
    if (sent.lastOutstandingAt && now.getTime() - sent.lastOutstandingAt.getTime() < resendMs) {
      throw justSent(resendMs - (now.getTime() - sent.lastOutstandingAt.getTime()));
    }
    if (sent.count >= deps.limits.codesPerAddressPerHour) {
      throw tooManyRequests('Too many codes were requested for this address. Please try again in an hour.');
    }
    // A new code replaces any earlier one for the address.
    await identity.retireCodes(tx, input.email, now);
    await identity.insertCode(tx, {
      email: input.email,
      purpose: input.purpose,
      codeHash: hmac(deps.keys.hmacSecret, `${input.email}:${code}`),
      username: input.username ?? null,
      ip: input.ip,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      createdAt: now,
    });
    try {
      if (input.kind === 'no_account') await deps.mailer.send(tx, noAccountMail(input.email, deps.origin));
      else await deps.mailer.sendCode(tx, { to: input.email, code, purpose: input.kind, existingAccount: input.purpose === 'sign_up' && input.kind === 'sign_in' });
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new DomainError('BAD_REQUEST', MESSAGES.sendCodeFailed);
    }
  });
  return { status: 'needs_verification' as const };
}

/**
 * Usernames and screen names are one namespace: a name is taken if either holds it (screen names in any
 * spelling or look-alike letters with the same keys, name-keys.ts), and a reference entry's name is no
 * one's (409 either way).
 */
async function refuseUnavailableUsername(em: EntityManager, username: string) {
  if (isReservedName(username)) throw conflict(MESSAGES.usernameReserved);
  if ((await identity.isUsernameTaken(em, username)) || (await isScreenNameTaken(em, username))) throw conflict(MESSAGES.usernameTaken);
}

/**
 * Sign-up: a code to the address. An address that has an account is answered as a new one (the answer
 * must not tell who has an account), and its mail is a code that signs that account in, saying so. A
 * username another holds is refused (409) either way: names are public on the leaderboards.
 */
export async function signUp(em: EntityManager, deps: LocalIdpDeps, input: { email: string; username?: string }, ip: string) {
  const email = normaliseEmail(input.email);
  if (input.username) await refuseUnavailableUsername(em, input.username);
  const hasAccount = Boolean(await identity.findUserIdByEmail(em, email));
  return issueCode(em, deps, { email, purpose: 'sign_up', kind: hasAccount ? 'sign_in' : 'sign_up', username: input.username, ip });
}

/**
 * Sign-in: a code to the address's account. An address without one is answered the same (200
 * `needs_verification`, the same work), and is mailed a note that there is no account and where to make
 * one, so a person who mistyped or never signed up is not left waiting for a code.
 */
export async function signIn(em: EntityManager, deps: LocalIdpDeps, input: { email: string }, ip: string) {
  const email = normaliseEmail(input.email);
  const hasAccount = Boolean(await identity.findUserIdByEmail(em, email));
  return issueCode(em, deps, { email, purpose: 'sign_in', kind: hasAccount ? 'sign_in' : 'no_account', ip });
}

export async function verify(
  em: EntityManager,
  deps: LocalIdpDeps,
  input: { email: string; code: string; username?: string },
  azp: string,
): Promise<VerifyResult> {
  const email = normaliseEmail(input.email);
  const now = deps.now();
  const code = await identity.findLatestUnusedCode(em, email);
  if (!code || code.expiresAt <= now) throw badRequest(MESSAGES.invalidCode);
  // Claim a try before comparing: however many guesses arrive at once, at most CODE_MAX_ATTEMPTS of them
  // get through to the comparison.
  if (!(await identity.claimAttempt(em, code.id, CODE_MAX_ATTEMPTS))) throw badRequest(MESSAGES.invalidCode);
  const expected = Buffer.from(code.codeHash, 'hex');
  const given = Buffer.from(hmac(deps.keys.hmacSecret, `${email}:${input.code.trim()}`), 'hex');
  if (!crypto.timingSafeEqual(expected, given)) throw badRequest(MESSAGES.invalidCode);
  // Only wrong guesses count against the code: the right one gives its try back at once, so a sign-up
  // that still lacks a username, or whose username was taken meanwhile, can be retried with it.
  await identity.returnAttempt(em, code.id);

  // The address's account, if it has one: the right code signs it in, whichever form asked for the code.
  const accountId = await identity.findUserIdByEmail(em, email);
  const username = input.username?.trim() || code.username || undefined;
  if (!accountId && code.purpose === 'sign_up' && !username) {
    // Like Clerk's sign-up: the code is right but a required field is missing; the code stays usable.
    return { status: 'missing_requirements', missing_fields: ['username'] };
  }

  return em.transactional(async (tx) => {
    // Consuming is the single point of truth: of two racing verifications only one gets the row back.
    if (!(await identity.consumeCode(tx, code.id, now))) throw badRequest(MESSAGES.invalidCode);

    let userId: string;
    const found = await identity.findUserIdByEmail(tx, email);
    if (found) {
      userId = found;
    } else if (code.purpose === 'sign_up') {
      await refuseUnavailableUsername(tx, username!);
      userId = randomId('user');
      try {
        await identity.insertUser(tx, { id: userId, email, username: username! });
      } catch (error) {
        if (isUniqueViolation(error, 'idp_user_username_unique')) throw conflict(MESSAGES.usernameTaken);
        if (isUniqueViolation(error)) throw conflict('That email address is taken. Please sign in instead.');
        throw error;
      }
    } else {
      throw badRequest(MESSAGES.invalidCode);
    }
    const sessionId = randomId('sess');
    const sessionSecret = crypto.randomBytes(32).toString('base64url');
    await identity.insertSession(tx, { id: sessionId, userId, secretHash: hmac(deps.keys.hmacSecret, sessionSecret), at: now });
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
  const session = await identity.refreshSession(em, hmac(deps.keys.hmacSecret, sessionSecret), deps.now());
  if (!session) throw unauthorized(MESSAGES.authRequired);
  return { token: await signSessionToken(deps, { userId: session.userId, sessionId: session.id, azp }) };
}

/**
 * Ends the session behind the cookie and/or the token; returns the ended session ids. Every instance
 * hears of it in the same transaction, so a token cached anywhere stops working the moment this commits.
 */
export async function signOut(
  em: EntityManager,
  deps: LocalIdpDeps,
  sessionSecret: string | undefined,
  sessionId?: string,
): Promise<string[]> {
  return em.transactional(async (tx) => {
    const ids = await identity.endSessions(
      tx,
      { secretHash: sessionSecret ? hmac(deps.keys.hmacSecret, sessionSecret) : null, id: sessionId ?? null },
      deps.now(),
    );
    if (ids.length > 0) await publish(tx, 'sessions_ended', { kind: 'sessions_ended', session_ids: ids });
    return ids;
  });
}

/** The development outbox for one address, newest first, as /idp/dev/outbox shows it. */
export async function readOutbox(em: EntityManager, email: string) {
  const mails = await identity.readOutbox(em, normaliseEmail(email));
  return mails.map((m) => ({ to: m.toAddress, subject: m.subject, text: m.body, code: m.code, sent_at: m.sentAt.toISOString() }));
}
