import { BigIntType, EntitySchema, type OptionalProps } from '@mikro-orm/core';
import { BOARD_COLUMNS, type Player } from '../players/players.entities.js';

/*
 * The seasons module's tables (migration Migration20261230000000_seasons). A season is a draft year; the
 * current one's play lives in the game's own tables, a closed one's in the archive tables
 * (season_group, season_player, season_round_one_order, season_draft_event, season_entry, season_entry_pick),
 * written once when the season closes (seasons.repository.ts) and read through the entities below.
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

/** A group as it was when the season closed. */
export interface SeasonGroup {
  season: number;
  groupId: number;
  name: string;
  isPublic: boolean;
  picksPublic: boolean;
}
export const SeasonGroupSchema = new EntitySchema<SeasonGroup>({
  name: 'SeasonGroup',
  tableName: 'season_group',
  properties: {
    season: { type: 'integer', primary: true },
    groupId: { type: 'integer', primary: true, fieldName: 'group_id' },
    name: { type: 'text' },
    isPublic: { type: 'boolean', fieldName: 'is_public' },
    picksPublic: { type: 'boolean', fieldName: 'picks_public' },
  },
});

/** The big board as it was, with its draft results. */
export type SeasonPlayer = Omit<Player, 'id'> & { season: number; playerId: number };
export const SeasonPlayerSchema = new EntitySchema<SeasonPlayer>({
  name: 'SeasonPlayer',
  tableName: 'season_player',
  properties: {
    season: { type: 'integer', primary: true },
    playerId: { type: 'integer', primary: true, fieldName: 'player_id' },
    ...BOARD_COLUMNS,
  },
});

/** Round one's order as it stood at the close. */
export interface SeasonRoundOneOrder {
  season: number;
  slot: number;
  team: string;
}
export const SeasonRoundOneOrderSchema = new EntitySchema<SeasonRoundOneOrder>({
  name: 'SeasonRoundOneOrder',
  tableName: 'season_round_one_order',
  properties: {
    season: { type: 'integer', primary: true },
    slot: { type: 'integer', primary: true },
    team: { type: 'text' },
  },
});

/** The audit log as it was logged (event ids kept: they are the order of the night). */
export interface SeasonDraftEvent {
  season: number;
  eventId: number;
  kind: string;
  slot: number | null;
  playerId: number | null;
  actor: string;
  detail: string | null;
  team: string | null;
  teamBefore: string | null;
  createdAt: Date;
}
export const SeasonDraftEventSchema = new EntitySchema<SeasonDraftEvent>({
  name: 'SeasonDraftEvent',
  tableName: 'season_draft_event',
  properties: {
    season: { type: 'integer', primary: true },
    eventId: { type: new BigIntType('number'), primary: true, fieldName: 'event_id' },
    kind: { type: 'text' },
    slot: { type: 'integer', nullable: true },
    playerId: { type: 'integer', nullable: true, fieldName: 'player_id' },
    actor: { type: 'text' },
    detail: { type: 'text', nullable: true },
    team: { type: 'text', nullable: true },
    teamBefore: { type: 'text', nullable: true, fieldName: 'team_before' },
    createdAt: { type: 'Date', fieldName: 'created_at' },
  },
});

/** An entry's final standing in a group (group 1: the global leaderboard). */
export interface SeasonEntry {
  [OptionalProps]?: 'hits';
  season: number;
  groupId: number;
  participantId: string;
  participantName: string;
  rank: number;
  picks: number;
  hits: number;
  correctPicks: number;
  busted: boolean;
  tiebreakRank: number | null;
}
export const SeasonEntrySchema = new EntitySchema<SeasonEntry>({
  name: 'SeasonEntry',
  tableName: 'season_entry',
  properties: {
    season: { type: 'integer', primary: true },
    groupId: { type: 'integer', primary: true, fieldName: 'group_id' },
    participantId: { type: 'text', primary: true, fieldName: 'participant_id' },
    participantName: { type: 'text', fieldName: 'participant_name' },
    rank: { type: 'integer' },
    picks: { type: 'integer' },
    hits: { type: 'integer', default: 0 },
    correctPicks: { type: 'integer', fieldName: 'correct_picks' },
    busted: { type: 'boolean' },
    tiebreakRank: { type: 'integer', nullable: true, fieldName: 'tiebreak_rank' },
  },
});

/** One pick of an archived entry, and whether it hit. */
export interface SeasonEntryPick {
  season: number;
  groupId: number;
  participantId: string;
  playerId: number;
  hit: boolean;
}
export const SeasonEntryPickSchema = new EntitySchema<SeasonEntryPick>({
  name: 'SeasonEntryPick',
  tableName: 'season_entry_pick',
  properties: {
    season: { type: 'integer', primary: true },
    groupId: { type: 'integer', primary: true, fieldName: 'group_id' },
    participantId: { type: 'text', primary: true, fieldName: 'participant_id' },
    playerId: { type: 'integer', primary: true, fieldName: 'player_id' },
    hit: { type: 'boolean' },
  },
});

export const seasonsEntities = [SeasonSchema, SeasonGroupSchema, SeasonPlayerSchema, SeasonRoundOneOrderSchema, SeasonDraftEventSchema, SeasonEntrySchema, SeasonEntryPickSchema];
