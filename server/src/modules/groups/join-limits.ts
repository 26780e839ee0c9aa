import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '@first-round/shared/messages';
import { tooManyRequests } from '../../errors.js';
import type { JoinFailureReason } from './groups.entities.js';
import * as repo from './groups.repository.js';

/**
 * Joining by id is the one door where guessing pays: a group's password, or the id of a group with
 * none. These limits make guessing hopeless and cheap to refuse (no password hash is computed for a
 * caller who is over a limit). Counted in the database, so every instance agrees.
 */
export const JOIN_LIMITS = {
  /** Wrong passwords one player may try on one group … */
  wrongPasswordsPerGroup: 10,
  /** … within this window. */
  wrongPasswordWindowMs: 15 * 60_000,
  /** Failed joins (wrong password or no such group) one player may make across all groups … */
  failedJoinsPerPlayer: 30,
  /** … within this window. */
  failedJoinWindowMs: 60 * 60_000,
} as const;

export type JoinFailure = JoinFailureReason;

const minutesUntil = (oldest: Date, windowMs: number, now: Date) => Math.max(1, Math.ceil((oldest.getTime() + windowMs - now.getTime()) / 60_000));

/**
 * Serialises one player's join attempts until `tx` ends (a transaction-scoped advisory lock), so
 * simultaneous guesses are counted one after another: each sees the failures the ones before it recorded.
 */
export async function lockJoinAttempts(tx: EntityManager, participantId: string): Promise<void> {
  await repo.lockJoinAttempts(tx, participantId);
}

/**
 * Throws 429 (saying when to come back) if the player may not try joining this group now. The rows read
 * are few: failures older than the longer window are pruned, and none is recorded past the limits.
 */
export async function checkJoinLimits(tx: EntityManager, participantId: string, groupId: number, now: Date): Promise<void> {
  const failures = await repo.findJoinFailuresSince(tx, participantId, new Date(now.getTime() - JOIN_LIMITS.failedJoinWindowMs));
  const wrongPasswordSince = new Date(now.getTime() - JOIN_LIMITS.wrongPasswordWindowMs);
  const wrongPasswords = failures.filter((f) => f.groupId === groupId && f.reason === 'wrong_password' && f.createdAt > wrongPasswordSince);
  if (failures.length >= JOIN_LIMITS.failedJoinsPerPlayer) {
    throw tooManyRequests(MESSAGES.tooManyFailedJoins(minutesUntil(failures[0]!.createdAt, JOIN_LIMITS.failedJoinWindowMs, now)));
  }
  if (wrongPasswords.length >= JOIN_LIMITS.wrongPasswordsPerGroup) {
    throw tooManyRequests(MESSAGES.tooManyWrongPasswords(minutesUntil(wrongPasswords[0]!.createdAt, JOIN_LIMITS.wrongPasswordWindowMs, now)));
  }
}

/** Records a failed join; rows that no longer count are pruned on the way. */
export async function recordJoinFailure(tx: EntityManager, participantId: string, groupId: number, reason: JoinFailure, now: Date): Promise<void> {
  await repo.recordJoinFailure(tx, { participantId, groupId, reason, at: now }, new Date(now.getTime() - JOIN_LIMITS.failedJoinWindowMs));
}
