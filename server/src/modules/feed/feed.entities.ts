import { BigIntType, EntitySchema, type OptionalProps } from '@mikro-orm/core';
import { PlayerSchema, type Player } from '../players/players.entities.js';

/* The feed module's tables (Migration20261221000000_feed): the confirmation queue and the feed's status. */

/** `team`: the feed names a team we do not know for the slot, or another than the operator set. */
export type FeedQueueKind = 'confirm' | 'conflict' | 'team';
export type FeedQueueStatus = 'open' | 'confirmed' | 'dismissed' | 'resolved';

export interface FeedQueueItemRow {
  [OptionalProps]?: 'id' | 'status' | 'createdAt' | 'resolvedAt' | 'resolvedBy' | 'recordedTeam';
  id: number;
  slot: number;
  kind: FeedQueueKind;
  feedPlayerName: string;
  feedSchool: string;
  feedPosition: string | null;
  feedTeam: string | null;
  suggested: Player | null;
  recorded: Player | null;
  score: number | null;
  /** A `team` item: the slot's team when it was raised. */
  recordedTeam: string | null;
  status: FeedQueueStatus;
  createdAt: Date;
  resolvedAt: Date | null;
  resolvedBy: string | null;
}
export const FeedQueueItemSchema = new EntitySchema<FeedQueueItemRow>({
  name: 'FeedQueueItem',
  tableName: 'feed_queue_item',
  properties: {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    slot: { type: 'integer' },
    kind: { type: 'text' },
    feedPlayerName: { type: 'text', fieldName: 'feed_player_name' },
    feedSchool: { type: 'text', fieldName: 'feed_school' },
    feedPosition: { type: 'text', nullable: true, fieldName: 'feed_position' },
    feedTeam: { type: 'text', nullable: true, fieldName: 'feed_team' },
    suggested: { kind: 'm:1', entity: () => PlayerSchema, nullable: true, fieldName: 'suggested_player_id' },
    recorded: { kind: 'm:1', entity: () => PlayerSchema, nullable: true, fieldName: 'recorded_player_id' },
    score: { type: 'float', nullable: true },
    recordedTeam: { type: 'text', nullable: true, fieldName: 'recorded_team' },
    status: { type: 'text', defaultRaw: `'open'` },
    createdAt: { type: 'Date', fieldName: 'created_at', defaultRaw: 'now()' },
    resolvedAt: { type: 'Date', nullable: true, fieldName: 'resolved_at' },
    resolvedBy: { type: 'text', nullable: true, fieldName: 'resolved_by' },
  },
});

/** The one row (id 1) the polling instance writes after every poll. */
export interface FeedStatusRow {
  id: number;
  lastPollAt: Date | null;
  lastSuccessAt: Date | null;
  lastError: string | null;
  picksSeen: number;
  /** Polls in a row that failed (0 after a success); the poller backs off from the second. */
  consecutiveFailures: number;
  /** When the polling instance polls next; null while nothing is scheduled (the draft is not live). */
  nextPollAt: Date | null;
}
export const FeedStatusSchema = new EntitySchema<FeedStatusRow>({
  name: 'FeedStatus',
  tableName: 'feed_status',
  properties: {
    id: { type: 'integer', primary: true },
    lastPollAt: { type: 'Date', nullable: true, fieldName: 'last_poll_at' },
    lastSuccessAt: { type: 'Date', nullable: true, fieldName: 'last_success_at' },
    lastError: { type: 'text', nullable: true, fieldName: 'last_error' },
    picksSeen: { type: 'integer', fieldName: 'picks_seen' },
    consecutiveFailures: { type: 'integer', fieldName: 'consecutive_failures' },
    nextPollAt: { type: 'Date', nullable: true, fieldName: 'next_poll_at' },
  },
});

export const feedEntities = [FeedQueueItemSchema, FeedStatusSchema];
