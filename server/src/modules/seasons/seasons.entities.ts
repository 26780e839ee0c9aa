import { EntitySchema, type OptionalProps } from '@mikro-orm/core';

/*
 * The seasons module's tables (migration Migration20261230000000_seasons). A season is a draft year; the
 * current one's play lives in the game's own tables, a closed one's in the archive tables
 * (season_group, season_player, season_draft_event, season_entry, season_entry_pick), which are written
 * once, set-based, by seasons.repository.ts and read with plain SQL there.
 */

export interface Season {
  [OptionalProps]?: 'openedAt' | 'closedAt' | 'startedAt' | 'roundOnePicks';
  year: number;
  deadline: Date | null;
  /** When the draft started (copied from the draft's state when the season closes). */
  startedAt: Date | null;
  /** The round-one slots the final standings were ranked with. */
  roundOnePicks: number | null;
  openedAt: Date;
  /** Null for the current season (at most one: a partial unique index). */
  closedAt: Date | null;
}
export const SeasonSchema = new EntitySchema<Season>({
  name: 'Season',
  tableName: 'season',
  properties: {
    year: { type: 'integer', primary: true, autoincrement: false },
    deadline: { type: 'Date', nullable: true },
    startedAt: { type: 'Date', nullable: true, fieldName: 'started_at' },
    roundOnePicks: { type: 'integer', nullable: true, fieldName: 'round_one_picks' },
    openedAt: { type: 'Date', fieldName: 'opened_at', defaultRaw: 'now()' },
    closedAt: { type: 'Date', nullable: true, fieldName: 'closed_at' },
  },
});

export const seasonsEntities = [SeasonSchema];
