import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '@first-round/shared/messages';
import { retryWhen, draftClock } from '@first-round/shared/join-words';
import type { JoinRefusalData } from '@first-round/shared/schemas';
import { forbidden, tooManyRequests, type DomainError } from '../../errors.js';
import type { JoinFailureReason } from './groups.entities.js';
import * as repo from './groups.repository.js';

/**
 * Joining by id is the one door where guessing pays: a group's password, or the id of a group with
 * none. These limits make guessing hopeless and cheap to refuse (no password hash is computed for a
 * caller who is over a limit), without letting one guesser lock a group for its members. Counted in the
 * database, so every instance agrees.
 */
export const JOIN_LIMITS = {
  /** Wrong passwords one player may try on one group (a few, then a wait) … */
  wrongPasswordsPerGroup: 5,
  /** … within this window. */
  wrongPasswordWindowMs: 15 * 60_000,
  /**
   * Wrong passwords all players together may try on one group (new accounts cost little, so a per-player
   * limit alone let 14 accounts make 140 guesses in 18 s) …
   */
  wrongPasswordsPerGroupAllPlayers: 50,
  /**
   * … within this longer window. Past it, a player who has guessed wrong on the group within the window
   * waits; one who has not still gets a try (the right password joins, a wrong one is their last): the
   * bound slows guessing with many accounts to one guess an account, and locks no member out.
   */
  groupWrongPasswordWindowMs: 60 * 60_000,
  /** Failed joins (wrong password or no such group) one player may make across all groups … */
  failedJoinsPerPlayer: 30,
  /** … within this window. */
  failedJoinWindowMs: 60 * 60_000,
} as const;

/** How far back failures are read and kept: the longest window above. */
const KEPT_MS = Math.max(JOIN_LIMITS.failedJoinWindowMs, JOIN_LIMITS.groupWrongPasswordWindowMs, JOIN_LIMITS.wrongPasswordWindowMs);

export type JoinFailure = JoinFailureReason;

/** Where a player stands with joins to one group: the tries left, and once none are, which limit holds and until when. */
interface JoinStanding {
  triesLeft: number;
  lockout?: { limit: 'group' | 'player'; retryAt: Date };
}

/** When a limit of `max` over `windowMs`, reached with these times (oldest first), lifts: once all but max − 1 have aged out. */
const liftsAt = (times: number[], max: number, windowMs: number) => times[times.length - max]! + windowMs;

/**
 * The player's standing from their failures in the longest window (oldest first) and the group's wrong
 * passwords by anyone in the group's window:
 * - the player's failed joins anywhere (`player`);
 * - the player's wrong passwords for this group (`group`: a few, then a wait);
 * - everyone's wrong passwords for this group (`group`), which holds back only players who have guessed
 *   wrong on it within its window: past it, a player with no wrong guess there has one try left.
 * A limit of N in a window is reached with N failures in it and lifts when enough have aged out to leave
 * N − 1. The player's limit is named first, as it is checked first; the group's two are both 'group':
 * either way it is wrong passwords for this group that hold the player back, and the words are the same.
 */
function standingOf(failures: { groupId: number; reason: string; createdAt: Date }[], groupWrongPasswords: Date[], groupId: number, now: Date): JoinStanding {
  const since = (windowMs: number) => now.getTime() - windowMs;
  const mine = failures.map((f) => f.createdAt.getTime()).filter((at) => at > since(JOIN_LIMITS.failedJoinWindowMs));
  const mineHere = failures.filter((f) => f.groupId === groupId && f.reason === 'wrong_password').map((f) => f.createdAt.getTime());
  const mineHereRecent = mineHere.filter((at) => at > since(JOIN_LIMITS.wrongPasswordWindowMs));
  const mineHereInGroupWindow = mineHere.filter((at) => at > since(JOIN_LIMITS.groupWrongPasswordWindowMs));
  const everyone = groupWrongPasswords.map((at) => at.getTime()).filter((at) => at > since(JOIN_LIMITS.groupWrongPasswordWindowMs));

  const playerLeft = JOIN_LIMITS.failedJoinsPerPlayer - mine.length;
  const mineHereLeft = JOIN_LIMITS.wrongPasswordsPerGroup - mineHereRecent.length;
  const groupOver = everyone.length >= JOIN_LIMITS.wrongPasswordsPerGroupAllPlayers;
  // Every wrong try counts against the group's bound too; past it, only a player without a wrong try here has one.
  const groupLeft = !groupOver ? JOIN_LIMITS.wrongPasswordsPerGroupAllPlayers - everyone.length : mineHereInGroupWindow.length === 0 ? 1 : 0;
  const triesLeft = Math.max(0, Math.min(playerLeft, mineHereLeft, groupLeft));
  if (triesLeft > 0) return { triesLeft };

  const holds: { limit: 'group' | 'player'; retryAt: number }[] = [];
  if (playerLeft <= 0) holds.push({ limit: 'player', retryAt: liftsAt(mine, JOIN_LIMITS.failedJoinsPerPlayer, JOIN_LIMITS.failedJoinWindowMs) });
  if (mineHereLeft <= 0) holds.push({ limit: 'group', retryAt: liftsAt(mineHereRecent, JOIN_LIMITS.wrongPasswordsPerGroup, JOIN_LIMITS.wrongPasswordWindowMs) });
  if (groupLeft <= 0) {
    // Free again when the group is back under its bound, or when the player's own wrong tries here have aged out of its window.
    const underBound = liftsAt(everyone, JOIN_LIMITS.wrongPasswordsPerGroupAllPlayers, JOIN_LIMITS.groupWrongPasswordWindowMs);
    const mineAged = mineHereInGroupWindow.at(-1)! + JOIN_LIMITS.groupWrongPasswordWindowMs;
    holds.push({ limit: 'group', retryAt: Math.min(underBound, mineAged) });
  }
  // With several limits holding the latest lift counts (trying this group needs all).
  return { triesLeft: 0, lockout: { limit: holds[0]!.limit, retryAt: new Date(Math.max(...holds.map((h) => h.retryAt))) } };
}

async function standing(tx: EntityManager, participantId: string, groupId: number, now: Date): Promise<JoinStanding> {
  const [mine, groups] = [
    await repo.findJoinFailuresSince(tx, participantId, new Date(now.getTime() - KEPT_MS)),
    await repo.findGroupWrongPasswordsSince(tx, groupId, new Date(now.getTime() - JOIN_LIMITS.groupWrongPasswordWindowMs)),
  ];
  return standingOf(mine, groups, groupId, now);
}

/** The numbers a refusal carries as data (docs/api.md), beside the words. */
const refusalData = (s: JoinStanding): JoinRefusalData =>
  s.lockout ? { tries_left: 0, lockout: s.lockout.limit, retry_at: s.lockout.retryAt.toISOString() } : { tries_left: s.triesLeft };

/**
 * Serialises one player's join attempts until `tx` ends (a transaction-scoped advisory lock), so
 * simultaneous guesses are counted one after another: each sees the failures the ones before it recorded.
 */
export async function lockJoinAttempts(tx: EntityManager, participantId: string): Promise<void> {
  await repo.lockJoinAttempts(tx, participantId);
}

/**
 * Serialises password guesses on one group across players until `tx` ends, so simultaneous guesses from
 * many accounts are counted one after another against the group's own limit. Taken after the player's
 * lock (lockJoinAttempts), and only where a password is to be checked.
 */
export async function lockGroupPasswordTries(tx: EntityManager, groupId: number): Promise<void> {
  await repo.lockGroupPasswordTries(tx, groupId);
}

/**
 * Throws 429 (saying when to come back, and that an invite link needs no password) if the player may not
 * try joining this group now. The rows read are few: failures older than the longer window are pruned,
 * and none is recorded past the limits.
 */
export async function checkJoinLimits(tx: EntityManager, participantId: string, groupId: number, now: Date): Promise<void> {
  const s = await standing(tx, participantId, groupId, now);
  if (!s.lockout) return;
  const retryAfterSeconds = Math.max(1, Math.ceil((s.lockout.retryAt.getTime() - now.getTime()) / 1000));
  throw tooManyRequests(MESSAGES.joinLockedOut(s.lockout.limit, retryWhen(s.lockout.retryAt, now, draftClock)), refusalData(s), retryAfterSeconds);
}

/** Records a failed join; rows that no longer count are pruned on the way. */
export async function recordJoinFailure(tx: EntityManager, participantId: string, groupId: number, reason: JoinFailure, now: Date): Promise<void> {
  await repo.recordJoinFailure(tx, { participantId, groupId, reason, at: now }, new Date(now.getTime() - KEPT_MS));
}

/**
 * Records a wrong password and answers it: 403 with the tries left after it, or, when it was the last,
 * when the next try is allowed.
 */
export async function wrongPassword(tx: EntityManager, participantId: string, groupId: number, now: Date): Promise<DomainError> {
  await recordJoinFailure(tx, participantId, groupId, 'wrong_password', now);
  const s = await standing(tx, participantId, groupId, now);
  return forbidden(MESSAGES.wrongGroupPassword(s.triesLeft, s.lockout && retryWhen(s.lockout.retryAt, now, draftClock)), refusalData(s));
}
