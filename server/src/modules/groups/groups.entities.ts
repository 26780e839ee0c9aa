import { type Collection, EntitySchema, type OptionalProps } from '@mikro-orm/core';

/**
 * A group (id 1 is the global group: it exists from the first migration and has no membership rows).
 * `memberCount` and `hasPassword` are formulas computed by the SELECT that loads the group, so a listing is
 * one query; the password hash itself is lazy and loaded only when a join has to check it.
 */
export interface Group {
  [OptionalProps]?: 'isPublic' | 'picksPublic' | 'membersCanInvite' | 'passwordHash' | 'createdBy' | 'createdAt' | 'memberCount' | 'hasPassword' | 'memberships' | 'nameKey' | 'nameGlyphKey';
  id: number;
  name: string;
  /** What the name is compared by (shared/src/name-keys.ts, `nameKeys`), each unique; null for a name stored before the keys that an older group's passed for. */
  nameKey: string | null;
  nameGlyphKey: string | null;
  isPublic: boolean;
  picksPublic: boolean;
  /** Whether members other than the owner may make invite links (and theirs work); the owner's choice. */
  membersCanInvite: boolean;
  passwordHash: string | null;
  createdBy: string | null;
  createdAt: Date;
  memberCount: number;
  hasPassword: boolean;
  memberships: Collection<GroupMembership>;
}
export const GroupSchema = new EntitySchema<Group>({
  name: 'Group',
  tableName: 'groups',
  properties: {
    id: { type: 'integer', primary: true },
    name: { type: 'text' },
    nameKey: { type: 'text', nullable: true, fieldName: 'name_key', hidden: true },
    nameGlyphKey: { type: 'text', nullable: true, fieldName: 'name_glyph_key', hidden: true },
    isPublic: { type: 'boolean', fieldName: 'is_public', defaultRaw: 'false' },
    picksPublic: { type: 'boolean', fieldName: 'picks_public', defaultRaw: 'false' },
    membersCanInvite: { type: 'boolean', fieldName: 'members_can_invite', defaultRaw: 'true' },
    passwordHash: { type: 'text', nullable: true, fieldName: 'password_hash', hidden: true, lazy: true },
    createdBy: { type: 'text', nullable: true, fieldName: 'created_by' },
    createdAt: { type: 'Date', fieldName: 'created_at', defaultRaw: 'now()' },
    memberCount: { type: 'integer', formula: (alias) => `(select count(*)::int from group_membership c where c.group_id = ${alias}.id)` },
    hasPassword: { type: 'boolean', formula: (alias) => `(${alias}.password_hash is not null)` },
    memberships: { kind: '1:m', entity: 'GroupMembership', mappedBy: 'group' },
  },
});

/** A participant's place in a group. The participant is the users module's: only its id is held here. */
export interface GroupMembership {
  [OptionalProps]?: 'isOwner' | 'useGlobalPicks' | 'joinedAt';
  group: Group;
  participantId: string;
  isOwner: boolean;
  useGlobalPicks: boolean;
  joinedAt: Date;
}
export const GroupMembershipSchema = new EntitySchema<GroupMembership>({
  name: 'GroupMembership',
  tableName: 'group_membership',
  properties: {
    group: { kind: 'm:1', entity: 'Group', primary: true, fieldName: 'group_id' },
    participantId: { type: 'text', primary: true, fieldName: 'participant_id' },
    isOwner: { type: 'boolean', fieldName: 'is_owner', defaultRaw: 'false' },
    useGlobalPicks: { type: 'boolean', fieldName: 'use_global_picks', defaultRaw: 'true' },
    joinedAt: { type: 'Date', fieldName: 'joined_at', defaultRaw: 'now()' },
  },
});

export type JoinFailureReason = 'wrong_password' | 'unknown_group';

/** A failed join by group id. `groupId` is the id as given: it may name no group, so it is no relation. */
export interface GroupJoinFailure {
  [OptionalProps]?: 'id';
  id: string;
  participantId: string;
  groupId: number;
  reason: JoinFailureReason;
  createdAt: Date;
}
export const GroupJoinFailureSchema = new EntitySchema<GroupJoinFailure>({
  name: 'GroupJoinFailure',
  tableName: 'group_join_failure',
  properties: {
    id: { type: 'bigint', primary: true },
    participantId: { type: 'text', fieldName: 'participant_id' },
    groupId: { type: 'integer', fieldName: 'group_id' },
    reason: { type: 'text' },
    createdAt: { type: 'Date', fieldName: 'created_at' },
  },
});

export const groupsEntities = [GroupSchema, GroupMembershipSchema, GroupJoinFailureSchema];
