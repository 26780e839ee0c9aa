import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../errors.js';
import { publish } from '../../events/topic-bus.js';
import type { Participant } from './users.entities.js';
import * as repo from './participants.repository.js';

/** A participant as the caches, the authorization checks and the profile answers see it. */
export interface ParticipantRow {
  id: string;
  email: string | null;
  screen_name: string | null;
  is_first_login: boolean | null;
}

/** The users module's one mapper. A plain object: rows are kept in the participant cache, entities never. */
export const toParticipantRow = (p: Participant): ParticipantRow => ({
  id: p.id,
  email: p.email,
  screen_name: p.screenName,
  is_first_login: p.isFirstLogin,
});

/** Who is asking, and the EntityManager of their call. */
export interface UserCall {
  em: EntityManager;
  participantId: string;
}

/**
 * Holds the participant's row until the transaction ends: writes to one participant's entries (saving
 * picks) queue on it, and so do account merges that move those entries. False: no such participant.
 */
export const lockParticipant = repo.lockParticipant;

/**
 * A new screen name for the participant, inside the caller's transaction: false when another participant
 * holds it in any spelling (name-keys.ts), or there is no such participant. The unique indexes on the keys
 * decide between two players renaming at once (a unique violation thrown).
 */
export async function renameParticipant(tx: EntityManager, participantId: string, screenName: string): Promise<boolean> {
  if (await repo.isScreenNameTaken(tx, screenName, participantId)) return false;
  if (!(await repo.setScreenName(tx, participantId, screenName))) throw notFound('Participant not found');
  await publish(tx, 'participant', { kind: 'participant', participant_id: participantId });
  return true;
}

/** The participant goes (their rows in other modules moved first), inside the caller's transaction; every instance forgets them. */
export async function removeParticipant(tx: EntityManager, participantId: string): Promise<void> {
  await repo.deleteParticipant(tx, participantId);
  await publish(tx, 'participant', { kind: 'participant', participant_id: participantId });
}

export async function getFirstLoginStatus({ em, participantId }: Pick<UserCall, 'em' | 'participantId'>) {
  const participant = await repo.findParticipant(em, participantId);
  return { is_first_login: participant?.isFirstLogin ?? null };
}

/** Whether the caller gets e-mail before picks lock. */
export async function getReminders({ em, participantId }: Pick<UserCall, 'em' | 'participantId'>) {
  return { reminders: await repo.wantsReminders(em, participantId) };
}

/** Switches the caller's reminders on or off (the unsubscribe link in a reminder switches them off too). */
export async function setReminders({ em, participantId }: Pick<UserCall, 'em' | 'participantId'>, reminders: boolean) {
  await repo.setReminders(em, participantId, reminders);
  return { reminders };
}

export async function markFirstLoginDone({ em, participantId }: UserCall) {
  await em.transactional(async (tx) => {
    await repo.setFirstLoginDone(tx, participantId);
    await publish(tx, 'participant', { kind: 'participant', participant_id: participantId });
  });
  return { is_first_login: false };
}

