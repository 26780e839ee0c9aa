import { LockMode, raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { nameKeys } from '@first-round/shared/name-keys';
import { ParticipantSchema, type Participant } from './users.entities.js';

/*
 * The users module's data access: the participant table, and nothing else. Other modules ask here.
 *
 * Writes are native (nativeUpdate, the query builder), which the identity map does not see, so reads pass
 * `refresh: true`: an entity loaded earlier in the same procedure is read again, never served stale.
 */

/**
 * SQL for "another participant holds this name": either of its keys is either key of theirs (name-keys.ts:
 * 'Operator RT' is 'operatorrt', 'aIice' and 'аlice' are 'alice'), or, for names stored without keys
 * (before them, or by a tool), the same name case-insensitively. lower() on both sides, as that index:
 * JavaScript's toLowerCase differs from PostgreSQL's outside ASCII. The unique indexes hold each key
 * against the same key; a fold key against a glyph key is this check's to catch.
 */
const HOLDS_NAME = `(screen_name_key in (?, ?) or screen_name_glyph_key in (?, ?) or lower(screen_name) = lower(?))`;
const holdsNameParams = (screenName: string) => {
  const { fold, glyph } = nameKeys(screenName);
  return [fold, glyph, fold, glyph, screenName];
};
const holdsName = (screenName: string) => raw(HOLDS_NAME, holdsNameParams(screenName));

export function findParticipant(em: EntityManager, id: string): Promise<Participant | null> {
  return em.findOne(ParticipantSchema, id, { refresh: true });
}

/** Screen names of these participants (null for those without one), by id. */
export async function screenNamesOf(em: EntityManager, ids: readonly string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await em.find(ParticipantSchema, { id: { $in: [...ids] } }, { fields: ['id', 'screenName'], refresh: true });
  return new Map(rows.map((p) => [p.id, p.screenName]));
}

/** Whether another participant has this screen name, in any spelling with the same key (as the unique indexes compare). */
export async function isScreenNameTaken(em: EntityManager, screenName: string, exceptId?: string): Promise<boolean> {
  const qb = em.createQueryBuilder(ParticipantSchema).count().where(holdsName(screenName));
  if (exceptId !== undefined) qb.andWhere({ id: { $ne: exceptId } });
  const row: { count: number | string } = await qb.execute('get');
  return Number(row.count) > 0;
}

/**
 * Creates the participant, or refreshes the e-mail of an existing one (a null e-mail keeps the stored one).
 * A new participant gets `screenName` (and its keys) unless someone holds it already in any spelling; an
 * existing one keeps theirs. One statement, an upsert on the primary key, so two first calls of the same
 * user cannot both insert. A name taken between the check and the insert raises one of the unique
 * indexes (isScreenNameViolation in participants.service.ts).
 */
export async function upsertParticipant(em: EntityManager, p: { id: string; email: string | null; screenName: string | null }): Promise<Participant> {
  const keys = p.screenName === null ? null : nameKeys(p.screenName);
  const unlessHeld = (value: string | null) =>
    p.screenName === null
      ? null
      : raw(`case when exists (select 1 from participant where ${HOLDS_NAME}) then null else ? end`, [...holdsNameParams(p.screenName), value]);
  const row: Participant = await em
    .createQueryBuilder(ParticipantSchema)
    .insert({
      id: p.id,
      email: p.email,
      screenName: unlessHeld(p.screenName),
      screenNameKey: unlessHeld(keys?.fold ?? null),
      screenNameGlyphKey: unlessHeld(keys?.glyph ?? null),
    })
    .onConflict('id')
    .merge({ email: raw('coalesce(excluded.email, participant.email)'), updatedAt: raw('now()') })
    .returning(['id', 'email', 'screenName', 'screenNameKey', 'screenNameGlyphKey', 'isFirstLogin', 'emailReminders', 'createdAt', 'updatedAt'])
    .execute('get');
  return row;
}

/**
 * Sets the screen name and its keys; false when there is no such participant. A name another holds raises
 * one of the unique indexes (the fold key's, the glyph key's, or lower()'s).
 */
export async function setScreenName(em: EntityManager, id: string, screenName: string): Promise<boolean> {
  const { fold, glyph } = nameKeys(screenName);
  return (await em.nativeUpdate(ParticipantSchema, { id }, { screenName, screenNameKey: fold, screenNameGlyphKey: glyph, updatedAt: raw('now()') })) > 0;
}

/** Whether the participant wants e-mail before picks lock (false when there is no such participant). */
export async function wantsReminders(em: EntityManager, id: string): Promise<boolean> {
  const row = await em.findOne(ParticipantSchema, id, { fields: ['emailReminders'], refresh: true });
  return row?.emailReminders ?? false;
}

/** Switches reminders on or off; false when there is no such participant. */
export async function setReminders(em: EntityManager, id: string, on: boolean): Promise<boolean> {
  return (await em.nativeUpdate(ParticipantSchema, { id }, { emailReminders: on, updatedAt: raw('now()') })) > 0;
}

export async function setFirstLoginDone(em: EntityManager, id: string): Promise<void> {
  await em.nativeUpdate(ParticipantSchema, { id }, { isFirstLogin: false, updatedAt: raw('now()') });
}

/**
 * Locks the participant's row until the transaction ends (`for update`); false when there is none.
 * Whatever rewrites one participant's entries (saving picks, an account move) takes it first, so those
 * writes queue up instead of interleaving.
 */
export async function lockParticipant(tx: EntityManager, id: string): Promise<boolean> {
  return Boolean(await tx.findOne(ParticipantSchema, id, { fields: ['id'], lockMode: LockMode.PESSIMISTIC_WRITE }));
}

/** Deletes the participant; the database cascades to whatever still points at it. */
export async function deleteParticipant(em: EntityManager, id: string): Promise<void> {
  await em.nativeDelete(ParticipantSchema, { id });
}
