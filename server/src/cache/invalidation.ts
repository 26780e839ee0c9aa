import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { sql } from '../db/sql.js';
import { afterCommit } from '../db/after-commit.js';

/**
 * Every instance keeps hot answers in memory (verified tokens, participants, the board, standings). A
 * write that makes one of them wrong says so on this channel, inside its own transaction, so every
 * instance (the writer's included) hears it exactly when the write commits. Draft changes have their
 * own channel (draft_changes); they carry the event itself.
 */
export const CACHE_CHANNEL = 'cache_invalidation';

export const invalidation = z.discriminatedUnion('kind', [
  /** Sessions signed out: their tokens stop working at once, whatever instance cached them. */
  z.object({ kind: z.literal('sessions_ended'), session_ids: z.array(z.string()) }),
  /** A participant's row changed (name, first-login flag) or was merged away. */
  z.object({ kind: z.literal('participant'), participant_id: z.string() }),
  /** A group's entries changed: a member joined or left, or switched between global and group picks. */
  z.object({ kind: z.literal('group'), group_id: z.number() }),
  /** The big board was imported or edited. */
  z.object({ kind: z.literal('board') }),
]);
export type Invalidation = z.infer<typeof invalidation>;

/** Announces a change on `em`'s connection: inside a transaction it is heard only once that commits. */
export async function announce(em: EntityManager, message: Invalidation): Promise<void> {
  await sql(em, `select pg_notify($1, $2)`, [CACHE_CHANNEL, JSON.stringify(message)]);
}

/** What hears invalidations: the instance's event hub. */
export interface InvalidationSink {
  invalidate(message: Invalidation): void;
}

/**
 * Announces a change to every instance and applies it to this one's caches as soon as it commits, not
 * only when the NOTIFY comes back: the writer's own next read must already see it.
 */
export async function announceChange(em: EntityManager, sink: InvalidationSink, message: Invalidation): Promise<void> {
  await announce(em, message);
  afterCommit(em, () => sink.invalidate(message));
}
