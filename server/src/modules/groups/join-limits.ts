import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '@first-round/shared/messages';
import { sql, sqlOne } from '../../db/sql.js';
import { tooManyRequests } from '../../errors.js';

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

export type JoinFailure = 'wrong_password' | 'unknown_group';

const minutesUntil = (oldest: Date, windowMs: number, now: Date) => Math.max(1, Math.ceil((oldest.getTime() + windowMs - now.getTime()) / 60_000));

/**
 * Serialises one player's join attempts until `tx` ends (a transaction-scoped advisory lock), so
 * simultaneous guesses are counted one after another: each sees the failures the ones before it recorded.
 */
export async function lockJoinAttempts(tx: EntityManager, participantId: string): Promise<void> {
  await sql(tx, `select pg_advisory_xact_lock(hashtext('group-join:' || $1))`, [participantId]);
}

/** Throws 429 (saying when to come back) if the player may not try joining this group now. */
export async function checkJoinLimits(tx: EntityManager, participantId: string, groupId: number, now: Date): Promise<void> {
  const counts = await sqlOne<{ all_failures: number; all_oldest: Date | null; group_failures: number; group_oldest: Date | null }>(
    tx,
    `select count(*)::int as all_failures, min(created_at) as all_oldest,
            (count(*) filter (where group_id = $2 and reason = 'wrong_password' and created_at > $4))::int as group_failures,
            min(created_at) filter (where group_id = $2 and reason = 'wrong_password' and created_at > $4) as group_oldest
       from group_join_failure where participant_id = $1 and created_at > $3`,
    [participantId, groupId, new Date(now.getTime() - JOIN_LIMITS.failedJoinWindowMs), new Date(now.getTime() - JOIN_LIMITS.wrongPasswordWindowMs)],
  );
  if (counts && counts.all_failures >= JOIN_LIMITS.failedJoinsPerPlayer) {
    throw tooManyRequests(MESSAGES.tooManyFailedJoins(minutesUntil(new Date(counts.all_oldest!), JOIN_LIMITS.failedJoinWindowMs, now)));
  }
  if (counts && counts.group_failures >= JOIN_LIMITS.wrongPasswordsPerGroup) {
    throw tooManyRequests(MESSAGES.tooManyWrongPasswords(minutesUntil(new Date(counts.group_oldest!), JOIN_LIMITS.wrongPasswordWindowMs, now)));
  }
}

/** Records a failed join; rows that no longer count are pruned on the way. */
export async function recordJoinFailure(tx: EntityManager, participantId: string, groupId: number, reason: JoinFailure, now: Date): Promise<void> {
  await sql(tx, `delete from group_join_failure where participant_id = $1 and created_at <= $2`, [
    participantId,
    new Date(now.getTime() - JOIN_LIMITS.failedJoinWindowMs),
  ]);
  await sql(tx, `insert into group_join_failure (participant_id, group_id, reason, created_at) values ($1, $2, $3, $4)`, [participantId, groupId, reason, now]);
}
