import { BigIntType, EntitySchema, type OptionalProps } from '@mikro-orm/core';
import type { DraftChange } from '@first-round/shared/schemas';
import { PlayerSchema, type Player } from '../players/players.entities.js';

/*
 * The draft module's tables. The draft's results themselves live on the board (player.draft_round and
 * draft_pick), written through the players module.
 */

/** The one row (id 1) of the draft's state; the migration inserts it. */
export interface DraftState {
  id: number;
  deadline: Date | null;
  startedAt: Date | null;
  roundOneComplete: boolean;
  updatedAt: Date;
  [OptionalProps]?: 'updatedAt';
}
export const DraftStateSchema = new EntitySchema<DraftState>({
  name: 'DraftState',
  tableName: 'draft_state',
  properties: {
    id: { type: 'integer', primary: true },
    deadline: { type: 'Date', nullable: true },
    startedAt: { type: 'Date', nullable: true, fieldName: 'started_at' },
    roundOneComplete: { type: 'boolean', fieldName: 'round_one_complete' },
    updatedAt: { type: 'Date', fieldName: 'updated_at', defaultRaw: 'now()' },
  },
});

/** The audit log: every change to the draft, who made it and when (its id is the live stream's event id). */
export interface DraftEvent {
  id: number;
  kind: DraftChange['kind'];
  slot: number | null;
  player: Player | null;
  actor: string;
  /** The player's name when the change was made: the log still names him if he leaves the board. */
  detail: string | null;
  /** Team changes: the slot's team after and before the change. */
  team: string | null;
  teamBefore: string | null;
  createdAt: Date;
  /** Filled in by the database. */
  [OptionalProps]?: 'createdAt';
}
export const DraftEventSchema = new EntitySchema<DraftEvent>({
  name: 'DraftEvent',
  tableName: 'draft_event',
  properties: {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    kind: { type: 'text' },
    slot: { type: 'integer', nullable: true },
    player: { kind: 'm:1', entity: () => PlayerSchema, nullable: true, fieldName: 'player_id' },
    actor: { type: 'text' },
    detail: { type: 'text', nullable: true },
    team: { type: 'text', nullable: true },
    teamBefore: { type: 'text', nullable: true, fieldName: 'team_before' },
    createdAt: { type: 'Date', fieldName: 'created_at', defaultRaw: 'now()' },
  },
});

/** Round one's order: the team holding each slot now (no row: none known) and the team change that put it there. */
export interface RoundOneOrder {
  slot: number;
  team: string;
  /** The draft event of the team change (null: the season's order). */
  changedBy: number | null;
}
export const RoundOneOrderSchema = new EntitySchema<RoundOneOrder>({
  name: 'RoundOneOrder',
  tableName: 'round_one_order',
  properties: {
    slot: { type: 'integer', primary: true, autoincrement: false },
    team: { type: 'text' },
    changedBy: { type: new BigIntType('number'), nullable: true, fieldName: 'changed_by' },
  },
});

/** A team change still in effect: what the slot held before it (what undo restores). */
export interface RoundOneOrderChange {
  eventId: number;
  slot: number;
  teamBefore: string | null;
  changedByBefore: number | null;
}
export const RoundOneOrderChangeSchema = new EntitySchema<RoundOneOrderChange>({
  name: 'RoundOneOrderChange',
  tableName: 'round_one_order_change',
  properties: {
    eventId: { type: new BigIntType('number'), primary: true, autoincrement: false, fieldName: 'event_id' },
    slot: { type: 'integer' },
    teamBefore: { type: 'text', nullable: true, fieldName: 'team_before' },
    changedByBefore: { type: new BigIntType('number'), nullable: true, fieldName: 'changed_by_before' },
  },
});

export const draftEntities = [DraftStateSchema, DraftEventSchema, RoundOneOrderSchema, RoundOneOrderChangeSchema];
