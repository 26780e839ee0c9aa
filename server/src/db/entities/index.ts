import { EntitySchema } from '@mikro-orm/core';

/*
 * Entities are EntitySchema definitions rather than decorated classes: no reflect-metadata and nothing
 * that depends on how tsx/esbuild emit decorators. Tables and constraints come from the committed
 * migrations (the schema generator is never run), so every uniqueness rule lives in SQL there.
 */

export interface Player {
  id: number;
  rank: number;
  playerName: string;
  position: string;
  school: string;
  draftRound: number | null;
  draftPick: number | null;
}
export const PlayerSchema = new EntitySchema<Player>({
  name: 'Player',
  tableName: 'player',
  properties: {
    id: { type: 'integer', primary: true },
    rank: { type: 'integer' },
    playerName: { type: 'text', fieldName: 'player_name' },
    position: { type: 'text' },
    school: { type: 'text' },
    draftRound: { type: 'integer', nullable: true, fieldName: 'draft_round' },
    draftPick: { type: 'integer', nullable: true, fieldName: 'draft_pick' },
  },
});

export interface Participant {
  id: string;
  email: string | null;
  screenName: string | null;
  isFirstLogin: boolean | null;
  createdAt: Date;
  updatedAt: Date;
}
export const ParticipantSchema = new EntitySchema<Participant>({
  name: 'Participant',
  tableName: 'participant',
  properties: {
    id: { type: 'text', primary: true },
    email: { type: 'text', nullable: true },
    screenName: { type: 'text', nullable: true, fieldName: 'screen_name' },
    isFirstLogin: { type: 'boolean', nullable: true, fieldName: 'is_first_login' },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
    updatedAt: { type: 'Date', fieldName: 'updated_at', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

export interface Group {
  id: number;
  name: string;
  isPublic: boolean;
  picksPublic: boolean;
  passwordHash: string | null;
  createdBy: string | null;
  createdAt: Date;
}
export const GroupSchema = new EntitySchema<Group>({
  name: 'Group',
  tableName: 'groups',
  properties: {
    id: { type: 'integer', primary: true },
    name: { type: 'text' },
    isPublic: { type: 'boolean', fieldName: 'is_public' },
    picksPublic: { type: 'boolean', fieldName: 'picks_public' },
    passwordHash: { type: 'text', nullable: true, fieldName: 'password_hash', hidden: true, lazy: true },
    createdBy: { type: 'text', nullable: true, fieldName: 'created_by' },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
  },
});

export interface GroupMembership {
  groupId: number;
  participantId: string;
  isOwner: boolean;
  useGlobalPicks: boolean;
  joinedAt: Date;
}
export const GroupMembershipSchema = new EntitySchema<GroupMembership>({
  name: 'GroupMembership',
  tableName: 'group_membership',
  properties: {
    groupId: { type: 'integer', primary: true, fieldName: 'group_id' },
    participantId: { type: 'text', primary: true, fieldName: 'participant_id' },
    isOwner: { type: 'boolean', fieldName: 'is_owner' },
    useGlobalPicks: { type: 'boolean', fieldName: 'use_global_picks' },
    joinedAt: { type: 'Date', fieldName: 'joined_at', onCreate: () => new Date() },
  },
});

export interface Pick {
  participantId: string;
  groupId: number;
  playerId: number;
  createdAt: Date;
}
export const PickSchema = new EntitySchema<Pick>({
  name: 'Pick',
  tableName: 'pick',
  properties: {
    participantId: { type: 'text', primary: true, fieldName: 'participant_id' },
    groupId: { type: 'integer', primary: true, fieldName: 'group_id' },
    playerId: { type: 'integer', primary: true, fieldName: 'player_id' },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
  },
});

export interface JoinLink {
  id: number;
  groupId: number;
  tokenHash: string;
  createdBy: string;
  expiresAt: Date;
  createdAt: Date;
}
export const JoinLinkSchema = new EntitySchema<JoinLink>({
  name: 'JoinLink',
  tableName: 'join_link',
  properties: {
    id: { type: 'integer', primary: true },
    groupId: { type: 'integer', fieldName: 'group_id' },
    tokenHash: { type: 'text', fieldName: 'token_hash', hidden: true },
    createdBy: { type: 'text', fieldName: 'created_by' },
    expiresAt: { type: 'Date', fieldName: 'expires_at' },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
  },
});

export interface DraftState {
  id: number;
  deadline: Date | null;
  startedAt: Date | null;
  roundOneComplete: boolean;
  updatedAt: Date;
}
export const DraftStateSchema = new EntitySchema<DraftState>({
  name: 'DraftState',
  tableName: 'draft_state',
  properties: {
    id: { type: 'integer', primary: true },
    deadline: { type: 'Date', nullable: true },
    startedAt: { type: 'Date', nullable: true, fieldName: 'started_at' },
    roundOneComplete: { type: 'boolean', fieldName: 'round_one_complete' },
    updatedAt: { type: 'Date', fieldName: 'updated_at', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

export const entities = [
  PlayerSchema,
  ParticipantSchema,
  GroupSchema,
  GroupMembershipSchema,
  PickSchema,
  JoinLinkSchema,
  DraftStateSchema,
];
