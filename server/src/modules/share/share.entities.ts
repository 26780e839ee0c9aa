import { EntitySchema, type OptionalProps } from '@mikro-orm/core';

/**
 * A share link: the token that finds one entry (a participant's picks in a group, or globally) for the
 * public card. The participant and group are other modules' rows, so they are held by id (the database
 * cascades deletions to the links).
 */
export interface ShareLink {
  [OptionalProps]?: 'id' | 'createdAt';
  id: string;
  token: string;
  participantId: string;
  groupId: number;
  createdAt: Date;
}
export const ShareLinkSchema = new EntitySchema<ShareLink>({
  name: 'ShareLink',
  tableName: 'share_link',
  properties: {
    id: { type: 'bigint', primary: true },
    token: { type: 'text' },
    participantId: { type: 'text', fieldName: 'participant_id' },
    groupId: { type: 'integer', fieldName: 'group_id' },
    createdAt: { type: 'Date', fieldName: 'created_at', defaultRaw: 'now()' },
  },
});

export const shareEntities = [ShareLinkSchema];
