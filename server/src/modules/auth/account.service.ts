import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '@first-round/shared/messages';
import { isReservedName } from '@first-round/shared/name-keys';
import { usernameSchema } from '@first-round/shared/schemas';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../errors.js';
import { publish } from '../../events/topic-bus.js';
import { moveMemberships } from '../groups/groups.service.js';
import { moveJoinLinks } from '../join-links/join-links.service.js';
import { copyPickSets } from '../picks/pick-sets.js';
import type { ParticipantCache } from '../users/participant.cache.js';
import * as repo from '../users/participants.repository.js';
import { lockParticipant, removeParticipant, renameParticipant, toParticipantRow, type ParticipantRow, type UserCall } from '../users/participants.service.js';
import type { Identity } from './bearer.js';
import { findUser, isUsernameTaken, setUsername } from './identity.repository.js';

/*
 * A player's account across the modules: the participant row a verified identity gets, the screen name
 * that is also the built-in provider's username, and the account fix that moves a temporary participant's
 * entries onto the caller. Each module's rows move through that module's own function, in one transaction.
 */

/** Where a Clerk user's e-mail and username come from: Clerk's backend API, or the token's claims in tests. */
export type ClerkUserLookup = (userId: string) => Promise<{ email: string | null; username: string | null }>;

/**
 * The participant row for a verified identity, created (or refreshed) on its first authenticated call so
 * that picks and memberships always have a participant to point at. Callers look in the participant
 * cache first (`signedIn`); this remembers the row there.
 */
export async function ensureParticipant(
  em: EntityManager,
  identity: Identity,
  cache: ParticipantCache,
  clerkLookup?: ClerkUserLookup,
): Promise<ParticipantRow> {
  // Taken before the row is read: a change to it announced meanwhile keeps what is read out of the cache.
  const mark = cache.mark();
  const found = await repo.findParticipant(em, identity.userId);
  const existing = found ? toParticipantRow(found) : undefined;
  if (existing && cache.wasRefreshed(identity.userId)) {
    cache.remember(existing, mark);
    return existing;
  }

  let profile: { email: string | null; username: string | null };
  if (identity.provider === 'local') {
    const user = await findUser(em, identity.userId);
    profile = { email: user?.email ?? null, username: user?.username ?? null };
  } else if (existing) {
    profile = { email: existing.email, username: existing.screen_name };
  } else {
    profile = clerkLookup
      ? await clerkLookup(identity.userId)
      : {
          email: typeof identity.claims.email === 'string' ? identity.claims.email : null,
          username: typeof identity.claims.username === 'string' ? identity.claims.username : null,
        };
  }

  // Nothing to bring up to date (the merge below only ever changes the e-mail): no write. A restarted
  // instance meets every signed-in player's first call at once (5,000 pages reconnecting), and rewriting
  // each unchanged row cost the database a write apiece and the next ranking a re-read of every name
  // (global-standings.ts reads the rows written since its last read).
  if (existing && (profile.email === null || profile.email === existing.email)) {
    cache.remember(existing, mark);
    return existing;
  }

  const upsert = async (screenName: string | null) => toParticipantRow(await repo.upsertParticipant(em, { id: identity.userId, email: profile.email, screenName }));
  // A name the provider hands over is not checked by our forms (Clerk's dashboard, a username set there):
  // one a reference entry has, or one that is no valid name here, is not taken as the screen name.
  const parsed = profile.username === null ? undefined : usernameSchema.safeParse(profile.username);
  const offered = parsed?.success && !isReservedName(parsed.data) ? parsed.data : null;
  let row: ParticipantRow;
  try {
    row = await upsert(offered);
  } catch (error) {
    // Another new user took the same name between the check and the insert: this one starts without a
    // screen name (as when the name was taken earlier) instead of failing its first call.
    if (!offered || !isScreenNameViolation(error)) throw error;
    row = await upsert(null);
  }
  cache.remember(row, mark);
  return row;
}

/** A screen name another participant holds, caught by one of the unique indexes (a key's, or lower()'s). */
const isScreenNameViolation = (error: unknown) =>
  ['participant_screen_name_key_unique', 'participant_screen_name_glyph_key_unique', 'participant_screen_name_unique'].some((index) => isUniqueViolation(error, index));

/**
 * A new screen name: refused (409) when it would pass for a reference entry's, or another participant
 * holds it in any spelling or look-alike letters with the same keys (name-keys.ts: an operator's
 * 'operatorrt' holds 'Operator RT', 'alice' holds 'аlice' and 'aIice'). The unique indexes on the keys
 * decide between two players renaming at once.
 */
export async function updateScreenName({ em, participantId }: UserCall, screenName: string): Promise<ParticipantRow> {
  if (isReservedName(screenName)) throw conflict(MESSAGES.usernameReserved);
  try {
    return await em.transactional(async (tx) => {
      if ((await isUsernameTaken(tx, screenName, participantId)) || !(await renameParticipant(tx, participantId, screenName))) {
        throw conflict(MESSAGES.usernameTaken);
      }
      // The built-in provider's username and the screen name are one namespace: keep them equal.
      await setUsername(tx, participantId, screenName);
      return toParticipantRow((await repo.findParticipant(tx, participantId))!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(MESSAGES.usernameTaken);
    throw error;
  }
}

/**
 * Account fix: moves a temporary participant's picks, memberships and links onto the caller's own id, in
 * one transaction. Duplicates (the caller already has the same pick or membership) are merged, not doubled.
 * Each module moves its own rows; deleting the temporary participant then drops what is left of it.
 *
 * Only the caller's own temporary account moves. This server never issues temp_ ids (they are rows from
 * before an account had its provider's id), so no token or session can vouch for one; what shows whose it
 * is, is the e-mail address it was made with, which must be the caller's (verified by the identity
 * provider, compared without regard to case). One with another address, or none, is refused (403): else
 * anyone could take over any temp_ account's groups, ownership included, by naming its id.
 */
export async function migrateParticipant({ em, participantId: callerId }: UserCall, input: { temp_id: string; clerk_id: string }) {
  if (input.clerk_id !== callerId) throw forbidden('You can only move an account onto your own user id');
  if (!input.temp_id.startsWith('temp_')) throw badRequest('The temporary id must start with temp_');
  return em.transactional(async (tx) => {
    if (!(await lockParticipant(tx, input.temp_id))) throw notFound(`No participant with id ${input.temp_id}`);
    const [temp, caller] = [await repo.findParticipant(tx, input.temp_id), await repo.findParticipant(tx, callerId)];
    const sameAddress = (a: string | null | undefined, b: string | null | undefined) => Boolean(a && b && a.trim().toLowerCase() === b.trim().toLowerCase());
    if (!sameAddress(temp?.email, caller?.email)) throw forbidden(MESSAGES.accountFixNotYours);
    const picks = await copyPickSets(tx, input.temp_id, callerId);
    const memberships = await moveMemberships(tx, input.temp_id, callerId);
    await moveJoinLinks(tx, input.temp_id, callerId);
    await removeParticipant(tx, input.temp_id);
    // Entries moved between participants: every instance re-reads both and re-ranks.
    await publish(tx, 'participant', { kind: 'participant', participant_id: callerId });
    return {
      success: true,
      message: `Moved ${picks} picks and ${memberships} group memberships to your account`,
      moved_picks: picks,
      moved_memberships: memberships,
    };
  });
}

