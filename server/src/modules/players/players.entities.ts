import { EntitySchema } from '@mikro-orm/core';
import type { RiskBand } from '@first-round/shared/risk-bands';

/*
 * The players module's table. Entities are EntitySchema definitions (no decorators, nothing that depends on
 * how tsx/esbuild emit them); the table and its constraints come from the committed migrations, never
 * from these definitions.
 */

/** A player on the big board, with his draft result once the operator records it (round one only). */
export interface Player {
  id: number;
  rank: number;
  playerName: string;
  position: string;
  school: string;
  draftRound: number | null;
  draftPick: number | null;
  /** The board's own risk band; null: the band of the rank (shared/src/risk-bands.ts). */
  band: RiskBand | null;
}
/** A board row's columns besides its id: the player table's, and the season archive's copy of it. */
export const BOARD_COLUMNS = {
  rank: { type: 'integer' },
  playerName: { type: 'text', fieldName: 'player_name' },
  position: { type: 'text' },
  school: { type: 'text' },
  draftRound: { type: 'integer', nullable: true, fieldName: 'draft_round' },
  draftPick: { type: 'integer', nullable: true, fieldName: 'draft_pick' },
  band: { type: 'text', nullable: true },
} as const;
export const PlayerSchema = new EntitySchema<Player>({
  name: 'Player',
  tableName: 'player',
  properties: { id: { type: 'integer', primary: true }, ...BOARD_COLUMNS },
});

export const playersEntities = [PlayerSchema];
