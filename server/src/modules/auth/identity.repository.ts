import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  IdpCodeSchema,
  IdpOutboxMailSchema,
  IdpSessionSchema,
  IdpUserSchema,
  type CodePurpose,
  type IdpCode,
  type IdpUser,
  type IdpOutboxMail,
  type IdpSession,
} from './identity.entities.js';

/*
 * The built-in identity provider's data access: its users, codes, sessions and outbox. E-mail addresses
 * arrive normalised (trimmed, lower case); stored ones are compared through lower(), as the indexes are.
 *
 * Writes are native (nativeUpdate, insert, the query builder), which the identity map does not see, so
 * reads pass `refresh: true` and are never served stale from earlier in the same request.
 */

// Single-table statements only: the column is not qualified, so it reads the same in SELECT, UPDATE and
// DELETE. Made afresh for each query (a raw() key is recognised once, by the query that consumes it).
const lower = (column: string) => raw(`lower(${column})`);

// ------------------------------------------------------------------------------------------- users

/**
 * The id of the account with this address, or undefined: one statement through `em.execute`, without
 * building an entity, so a sign-in or sign-up costs the same whether the address has an account or not.
 */
export async function findUserIdByEmail(em: EntityManager, email: string): Promise<string | undefined> {
  const [row] = await em.execute<{ id: string }[]>(`select id from idp_user where lower(email) = ? limit 1`, [email]);
  return row?.id;
}

export async function findUser(em: EntityManager, id: string) {
  return em.findOne(IdpUserSchema, id, { refresh: true });
}

/** Whether another user has this username (case-insensitively, as the unique index compares). */
export async function isUsernameTaken(em: EntityManager, username: string, exceptUserId?: string): Promise<boolean> {
  const where = exceptUserId === undefined ? {} : { id: { $ne: exceptUserId } };
  // lower() on both sides, as the index: JavaScript's toLowerCase differs from PostgreSQL's outside ASCII.
  return (await em.count(IdpUserSchema, { ...where, [lower('username')]: raw('lower(?)', [username]) })) > 0;
}

/** Inserts a user; a taken e-mail or username raises idp_user_email_unique / idp_user_username_unique. */
export async function insertUser(em: EntityManager, user: { id: string; email: string; username: string }): Promise<void> {
  await em.insert<IdpUser>(IdpUserSchema, user);
}

/** The username follows the participant's screen name (one namespace); no-op for users of another provider. */
export async function setUsername(em: EntityManager, userId: string, username: string): Promise<void> {
  await em.nativeUpdate(IdpUserSchema, { id: userId }, { username });
}

// ------------------------------------------------------------------------------------------- codes

/**
 * Takes the address's code lock until the transaction ends, or answers false at once when another
 * request holds it. A transaction-scoped advisory lock: there is no row to lock before the first code.
 */
export async function tryLockAddress(tx: EntityManager, email: string): Promise<boolean> {
  const [row] = await tx.execute<{ ok: boolean }[]>(`select pg_try_advisory_xact_lock(hashtext(?)) as ok`, [`idp-code:${email}`]);
  return row?.ok === true;
}

/**
 * Codes sent to the address since `since`, and when the newest of them still unused and unexpired at `now`
 * that `purpose` (the form that asked) was sent.
 */
export async function codesSentSince(
  em: EntityManager,
  email: string,
  purpose: CodePurpose,
  since: Date,
  now: Date,
): Promise<{ count: number; lastOutstandingAt: Date | null }> {
  // A fresh condition per query: a raw() key is recognised once, by the query that consumes it.
  const recent = () => ({ [lower('email')]: email, createdAt: { $gt: since } });
  const count = await em.count(IdpCodeSchema, recent());
  const last = await em.findOne(
    IdpCodeSchema,
    { ...recent(), purpose, consumedAt: null, expiresAt: { $gt: now } },
    { fields: ['createdAt'], orderBy: { createdAt: 'desc' }, refresh: true },
  );
  return { count, lastOutstandingAt: last?.createdAt ?? null };
}

/** Marks every unused code of the address used: a new code replaces them. */
export async function retireCodes(em: EntityManager, email: string, now: Date): Promise<void> {
  await em.nativeUpdate(IdpCodeSchema, { [lower('email')]: email, consumedAt: null }, { consumedAt: now });
}

export async function insertCode(
  em: EntityManager,
  code: { email: string; purpose: CodePurpose; codeHash: string; username: string | null; ip: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await em.insert<IdpCode>(IdpCodeSchema, code);
}

/** The address's newest unused code (expired or not). */
export function findLatestUnusedCode(em: EntityManager, email: string): Promise<IdpCode | null> {
  return em.findOne(IdpCodeSchema, { [lower('email')]: email, consumedAt: null }, { orderBy: { createdAt: 'desc' }, refresh: true });
}

/**
 * Claims one try at the code, in one conditional UPDATE: however many guesses arrive at once, the row
 * lock lets at most `maxAttempts` of them through. False when none is left (or the code was used).
 */
export async function claimAttempt(em: EntityManager, codeId: string, maxAttempts: number): Promise<boolean> {
  const claimed = await em.nativeUpdate(IdpCodeSchema, { id: codeId, attempts: { $lt: maxAttempts }, consumedAt: null }, { attempts: raw('attempts + 1') });
  return claimed > 0;
}

/** Gives a claimed try back (the guess was right). */
export async function returnAttempt(em: EntityManager, codeId: string): Promise<void> {
  await em.nativeUpdate(IdpCodeSchema, { id: codeId, attempts: { $gt: 0 } }, { attempts: raw('attempts - 1') });
}

/** Uses the code up; of two racing verifications only one gets true. */
export async function consumeCode(em: EntityManager, codeId: string, now: Date): Promise<boolean> {
  return (await em.nativeUpdate(IdpCodeSchema, { id: codeId, consumedAt: null }, { consumedAt: now })) > 0;
}

// ---------------------------------------------------------------------------------------- sessions

export async function insertSession(em: EntityManager, session: { id: string; userId: string; secretHash: string; at: Date }): Promise<void> {
  const { at, ...rest } = session;
  await em.insert<IdpSession>(IdpSessionSchema, { ...rest, createdAt: at, refreshedAt: at });
}

/**
 * Stamps the session behind this secret as refreshed, if it has not ended, and says whose it is. One
 * conditional UPDATE … RETURNING, so a sign-out can never slip between the check and the stamp.
 */
export async function refreshSession(em: EntityManager, secretHash: string, now: Date): Promise<Pick<IdpSession, 'id' | 'userId'> | undefined> {
  const session: Pick<IdpSession, 'id' | 'userId'> | undefined = await em
    .createQueryBuilder(IdpSessionSchema)
    .update({ refreshedAt: now })
    .where({ secretHash, endedAt: null })
    .returning(['id', 'userId'])
    .execute('get');
  return session ?? undefined;
}

/** Ends the sessions behind this secret and/or id that had not ended yet; returns their ids (one UPDATE … RETURNING). */
export async function endSessions(em: EntityManager, which: { secretHash: string | null; id: string | null }, now: Date): Promise<string[]> {
  const or = [...(which.secretHash ? [{ secretHash: which.secretHash }] : []), ...(which.id ? [{ id: which.id }] : [])];
  if (or.length === 0) return [];
  const ended: Pick<IdpSession, 'id'>[] = await em
    .createQueryBuilder(IdpSessionSchema)
    .update({ endedAt: now })
    .where({ endedAt: null, $or: or })
    .returning(['id'])
    .execute('all');
  return ended.map((s) => s.id);
}

export async function isSessionActive(em: EntityManager, sessionId: string): Promise<boolean> {
  return (await em.count(IdpSessionSchema, { id: sessionId, endedAt: null })) > 0;
}

// ------------------------------------------------------------------------------------------ outbox

export async function insertOutboxMail(em: EntityManager, mail: { toAddress: string; subject: string; body: string; code: string | null }): Promise<void> {
  await em.insert<IdpOutboxMail>(IdpOutboxMailSchema, mail);
}

/** The newest 50 messages to the address, newest first. */
export function readOutbox(em: EntityManager, email: string): Promise<IdpOutboxMail[]> {
  return em.find(IdpOutboxMailSchema, { [lower('to_address')]: email }, { orderBy: { id: 'desc' }, limit: 50, refresh: true });
}
