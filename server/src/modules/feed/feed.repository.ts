import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FeedQueueItem } from '@first-round/shared/schemas';
import { toPlayerDto } from '../players/players.repository.js';
import { FeedQueueItemSchema, FeedStatusSchema, type FeedQueueItemRow, type FeedStatusRow } from './feed.entities.js';

/* The feed module's data access. Reads pass `refresh: true`: the poller and the admin write the same rows. */

/** A report to queue: the item's own fields, its players by id. */
export type NewQueueItem = Pick<FeedQueueItemRow, 'slot' | 'kind' | 'feedPlayerName' | 'feedSchool' | 'feedPosition' | 'feedTeam' | 'score'> & {
  suggestedPlayerId: number | null;
  recordedPlayerId: number | null;
  /** A `team` item: the slot's team now. */
  recordedTeam?: string | null;
};

/**
 * Queues a report unless the same one is already queued (in any status): true when it is new. The same
 * report is a pick report's slot, kind, name and school; a team report's slot and team (two unique indexes).
 */
export async function insertQueueItem(em: EntityManager, item: NewQueueItem): Promise<boolean> {
  const { suggestedPlayerId, recordedPlayerId, recordedTeam, ...fields } = item;
  // No conflict target: either unique index says it is the same report.
  const rows: unknown[] = await em
    .createQueryBuilder(FeedQueueItemSchema)
    .insert({ ...fields, suggested: suggestedPlayerId, recorded: recordedPlayerId, recordedTeam: recordedTeam ?? null })
    .onConflict()
    .ignore()
    .returning('id')
    .execute('all');
  return rows.length > 0;
}

/**
 * Open items about `slot` settled otherwise: 'resolved'. `confirm` items once the slot is recorded, `team`
 * items once the slot holds the team the feed names.
 */
export async function resolveOpenItems(em: EntityManager, slot: number, kind: 'confirm' | 'team', by: string): Promise<void> {
  await em.nativeUpdate(FeedQueueItemSchema, { slot, kind, status: 'open' }, { status: 'resolved', resolvedAt: raw('now()'), resolvedBy: by });
}

/** Slots with an open item of a kind (one read per poll, so settled slots cost a write only when needed). */
export async function slotsWithOpenItems(em: EntityManager, kind: 'confirm' | 'team'): Promise<Set<number>> {
  const rows: { slot: number }[] = await em.createQueryBuilder(FeedQueueItemSchema).select('slot', true).where({ kind, status: 'open' }).execute('all');
  return new Set(rows.map((r) => r.slot));
}

export function openQueueItems(em: EntityManager): Promise<FeedQueueItemRow[]> {
  return em.find(FeedQueueItemSchema, { status: 'open' }, { populate: ['suggested', 'recorded'], orderBy: { slot: 'asc', id: 'asc' }, refresh: true });
}

export function findQueueItem(em: EntityManager, id: number): Promise<FeedQueueItemRow | null> {
  return em.findOne(FeedQueueItemSchema, { id }, { populate: ['suggested', 'recorded'], refresh: true });
}

export async function readFeedStatus(em: EntityManager): Promise<FeedStatusRow> {
  return (await em.findOne(FeedStatusSchema, { id: 1 }, { refresh: true }))!;
}

export async function writeFeedStatus(em: EntityManager, status: Partial<Omit<FeedStatusRow, 'id'>>): Promise<void> {
  await em.nativeUpdate(FeedStatusSchema, { id: 1 }, status);
}

export function toQueueItemDto(row: FeedQueueItemRow): FeedQueueItem {
  return {
    id: row.id,
    slot: row.slot,
    kind: row.kind,
    status: row.status,
    feed: { player_name: row.feedPlayerName, school: row.feedSchool, position: row.feedPosition, team: row.feedTeam },
    suggested: row.suggested ? toPlayerDto(row.suggested) : null,
    recorded: row.recorded ? toPlayerDto(row.recorded) : null,
    score: row.score,
    recorded_team: row.recordedTeam,
    created_at: row.createdAt.toISOString(),
  };
}
