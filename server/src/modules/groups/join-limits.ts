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
 * caller who is over a limit). Counted in the database, so every instance agrees.
 */
export const JOIN_LIMITS = {
  /** Wrong passwords one player may try on one group … */
  wrongPasswordsPerGroup: 10,
  /**
   * … and all players together on one group (new accounts cost nothing, so a per-player limit alone
   * let 14 accounts make 140 guesses in 18 s) …
   */
  wrongPasswordsPerGroupAllPlayers: 30,
  /** … within this window. */
  wrongPasswordWindowMs: 15 * 60_000,
  /** Failed joins (wrong password or no such group) one player may make across all groups … */
  failedJoinsPerPlayer: 30,
  /** … within this window. */
  failedJoinWindowMs: 60 * 60_000,
} as const;

export type JoinFailure = JoinFailureReason;

/** Where a player stands with joins to one group: the tries left, and once none are, which limit holds and until when. */
interface JoinStanding {
  triesLeft: number;
  lockout?: { limit: 'group' | 'player'; retryAt: Date };
}

/**
 * The player's standing from their failures in the longer window (oldest first) and the group's wrong
 * passwords by anyone in the shorter one. A limit of N in a window is reached with N failures in it, and
 * lifts when enough of them have aged out to leave N − 1: at the (k − N + 1)-th oldest's time plus the
 * window, for k failures. With several limits reached the latest lift counts (trying this group needs
 * all); the player's limit is named first, as it is checked first. Both group limits are named 'group':
 * either way it is this group's wrong passwords that lock it, and the words are the same.
 */
function standingOf(failures: { groupId: number; reason: string; createdAt: Date }[], groupWrongPasswords: Date[], groupId: number, now: Date): JoinStanding {
  const wrongPasswordSince = now.getTime() - JOIN_LIMITS.wrongPasswordWindowMs;
  const limits = [
    { limit: 'player' as const, times: failures.map((f) => f.createdAt.getTime()), max: JOIN_LIMITS.failedJoinsPerPlayer, windowMs: JOIN_LIMITS.failedJoinWindowMs },
    {
      limit: 'group' as const,
      times: failures.filter((f) => f.groupId === groupId && f.reason === 'wrong_password' && f.createdAt.getTime() > wrongPasswordSince).map((f) => f.createdAt.getTime()),
      max: JOIN_LIMITS.wrongPasswordsPerGroup,
      windowMs: JOIN_LIMITS.wrongPasswordWindowMs,
    },
    {
      limit: 'group' as const,
      times: groupWrongPasswords.map((at) => at.getTime()).filter((at) => at > wrongPasswordSince),
      max: JOIN_LIMITS.wrongPasswordsPerGroupAllPlayers,
      windowMs: JOIN_LIMITS.wrongPasswordWindowMs,
    },
  ];
  const triesLeft = Math.max(0, Math.min(...limits.map((l) => l.max - l.times.length)));
  const reached = limits.filter((l) => l.times.length >= l.max);
  if (reached.length === 0) return { triesLeft };
  const retryAt = Math.max(...reached.map((l) => l.times[l.times.length - l.max]! + l.windowMs));
  return { triesLeft: 0, lockout: { limit: reached[0]!.limit, retryAt: new Date(retryAt) } };
}

async function standing(tx: EntityManager, participantId: string, groupId: number, now: Date): Promise<JoinStanding> {
  const [mine, groups] = [
    await repo.findJoinFailuresSince(tx, participantId, new Date(now.getTime() - JOIN_LIMITS.failedJoinWindowMs)),
    await repo.findGroupWrongPasswordsSince(tx, groupId, new Date(now.getTime() - JOIN_LIMITS.wrongPasswordWindowMs)),
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
  await repo.recordJoinFailure(tx, { participantId, groupId, reason, at: now }, new Date(now.getTime() - JOIN_LIMITS.failedJoinWindowMs));
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
