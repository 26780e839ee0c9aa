import { EntitySchema, type OptionalProps, type PrimaryKeyProp } from '@mikro-orm/core';
import { PlayerSchema, type Player } from '../players/players.entities.js';

/*
 * The picks module's tables. `participant_id` and `group_id` stay plain columns: their rows belong to the
 * users and groups modules, reached through those modules only.
 */

/** One player in one entry (a participant's picks in one group; group 1 holds the global picks). */
export interface Pick {
  participantId: string;
  groupId: number;
  player: Player;
  createdAt: Date;
  [PrimaryKeyProp]?: ['participantId', 'groupId', 'player'];
  /** Filled in by the database. */
  [OptionalProps]?: 'createdAt';
}
export const PickSchema = new EntitySchema<Pick>({
  name: 'Pick',
  tableName: 'pick',
  properties: {
    participantId: { type: 'text', primary: true, fieldName: 'participant_id' },
    groupId: { type: 'integer', primary: true, fieldName: 'group_id' },
    player: { kind: 'm:1', entity: () => PlayerSchema, primary: true, fieldName: 'player_id' },
    createdAt: { type: 'Date', fieldName: 'created_at', defaultRaw: 'now()' },
  },
});

export const picksEntities = [PickSchema];
