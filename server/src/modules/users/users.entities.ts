import { EntitySchema, type OptionalProps } from '@mikro-orm/core';

/** A player of the game, keyed by the identity provider's user id (Clerk's or the built-in one's). */
export interface Participant {
  [OptionalProps]?: 'isFirstLogin' | 'emailReminders' | 'createdAt' | 'updatedAt';
  id: string;
  email: string | null;
  screenName: string | null;
  /**
   * What the screen name is compared by (shared/src/name-keys.ts, `nameKeys`): the fold key and the glyph
   * key, each unique, set with every name the service writes. Null without a name, and for a name stored
   * before the keys that an older participant's name passed for (kept, not renamed).
   */
  screenNameKey: string | null;
  screenNameGlyphKey: string | null;
  isFirstLogin: boolean | null;
  /** E-mail me before picks lock (Settings, or the unsubscribe link in a reminder). */
  emailReminders: boolean;
  createdAt: Date;
  updatedAt: Date;
}

// Defaults are the database's (`defaultRaw`): an insert leaves them out and reads them back.
export const ParticipantSchema = new EntitySchema<Participant>({
  name: 'Participant',
  tableName: 'participant',
  properties: {
    id: { type: 'text', primary: true },
    email: { type: 'text', nullable: true },
    screenName: { type: 'text', nullable: true, fieldName: 'screen_name' },
    screenNameKey: { type: 'text', nullable: true, fieldName: 'screen_name_key' },
    screenNameGlyphKey: { type: 'text', nullable: true, fieldName: 'screen_name_glyph_key' },
    isFirstLogin: { type: 'boolean', nullable: true, fieldName: 'is_first_login', defaultRaw: 'true' },
    emailReminders: { type: 'boolean', fieldName: 'email_reminders', defaultRaw: 'true' },
    createdAt: { type: 'Date', fieldName: 'created_at', defaultRaw: 'now()' },
    updatedAt: { type: 'Date', fieldName: 'updated_at', defaultRaw: 'now()' },
  },
});

export const usersEntities = [ParticipantSchema];
