import { EntitySchema, type OptionalProps } from '@mikro-orm/core';

/**
 * An invitation into a group. Only the token's hash is stored. The group is the groups module's, so it is
 * held by id (the database still cascades a deleted group to its links).
 */
export interface JoinLink {
  [OptionalProps]?: 'id' | 'createdAt';
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
    createdAt: { type: 'Date', fieldName: 'created_at', defaultRaw: 'now()' },
  },
});

export const joinLinksEntities = [JoinLinkSchema];
