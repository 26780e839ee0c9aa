import { EntitySchema, type OptionalProps } from '@mikro-orm/core';

export type ReminderKind = '24h' | '1h';

/**
 * A reminder that went out: one per player, reminder and deadline (the constraint reminder_sent_once).
 * The participant is the users module's row, so it is held by id (the database cascades deletions and
 * account moves).
 */
export interface ReminderSent {
  [OptionalProps]?: 'sentAt';
  participantId: string;
  reminder: ReminderKind;
  deadline: Date;
  sentAt: Date;
}
export const ReminderSentSchema = new EntitySchema<ReminderSent>({
  name: 'ReminderSent',
  tableName: 'reminder_sent',
  properties: {
    participantId: { type: 'text', fieldName: 'participant_id', primary: true },
    reminder: { type: 'text', primary: true },
    deadline: { type: 'Date', primary: true },
    sentAt: { type: 'Date', fieldName: 'sent_at', defaultRaw: 'now()' },
  },
});

export const remindersEntities = [ReminderSentSchema];
