import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '@first-round/shared/messages';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../errors.js';
import { sql, sqlOne } from '../../db/sql.js';
import type { Identity } from '../auth/bearer.js';
import { announceChange, type InvalidationSink } from '../../cache/invalidation.js';
import type { ParticipantCache } from './participant.cache.js';

export interface ParticipantRow {
  id: string;
  email: string | null;
  screen_name: string | null;
  is_first_login: boolean | null;
}

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
  const existing = await sqlOne<ParticipantRow>(em, `select id, email, screen_name, is_first_login from participant where id = $1`, [identity.userId]);
  if (existing && cache.wasRefreshed(identity.userId)) {
    cache.remember(existing);
    return existing;
  }

  let profile: { email: string | null; username: string | null };
  if (identity.provider === 'local') {
    const user = await sqlOne<{ email: string; username: string | null }>(em, `select email, username from idp_user where id = $1`, [identity.userId]);
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

  const upsert = (screenName: string | null) =>
    sqlOne<ParticipantRow>(
      em,
      `insert into participant (id, email, screen_name)
       values ($1, $2, case when exists (select 1 from participant where lower(screen_name) = lower($3)) then null else $3 end)
       on conflict (id) do update set email = coalesce(excluded.email, participant.email), updated_at = now()
       returning id, email, screen_name, is_first_login`,
      [identity.userId, profile.email, screenName],
    );
  let row: ParticipantRow | undefined;
  try {
    row = await upsert(profile.username);
  } catch (error) {
    // Another new user took the same name between the check and the insert: this one starts without a
    // screen name (as when the name was taken earlier) instead of failing its first call.
    if (!profile.username || !isUniqueViolation(error, 'participant_screen_name_unique')) throw error;
    row = await upsert(null);
  }
  cache.remember(row!);
  return row!;
}

export async function updateScreenName(em: EntityManager, sink: InvalidationSink, participantId: string, screenName: string): Promise<ParticipantRow> {
  try {
    return await em.transactional(async (tx) => {
      const taken = await sqlOne(tx, `select 1 from idp_user where lower(username) = lower($1) and id <> $2`, [screenName, participantId]);
      if (taken) throw conflict(MESSAGES.usernameTaken);
      const row = await sqlOne<ParticipantRow>(
        tx,
        `update participant set screen_name = $2, updated_at = now() where id = $1 returning id, email, screen_name, is_first_login`,
        [participantId, screenName],
      );
      if (!row) throw notFound('Participant not found');
      // The built-in provider's username and the screen name are one namespace: keep them equal.
      await sql(tx, `update idp_user set username = $2 where id = $1`, [participantId, screenName]);
      await announceChange(tx, sink, { kind: 'participant', participant_id: participantId });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(MESSAGES.usernameTaken);
    throw error;
  }
}

export async function getFirstLoginStatus(em: EntityManager, participantId: string) {
  const row = await sqlOne<{ is_first_login: boolean | null }>(em, `select is_first_login from participant where id = $1`, [participantId]);
  return { is_first_login: row?.is_first_login ?? null };
}

export async function markFirstLoginDone(em: EntityManager, sink: InvalidationSink, participantId: string) {
  await em.transactional(async (tx) => {
    await sql(tx, `update participant set is_first_login = false, updated_at = now() where id = $1`, [participantId]);
    await announceChange(tx, sink, { kind: 'participant', participant_id: participantId });
  });
  return { is_first_login: false };
}

/**
 * Account fix: moves a temporary participant's picks, memberships and links onto the caller's own id, in
 * one transaction. Duplicates (the caller already has the same pick or membership) are merged, not doubled.
 */
export async function migrateParticipant(em: EntityManager, sink: InvalidationSink, callerId: string, input: { temp_id: string; clerk_id: string }) {
  if (input.clerk_id !== callerId) throw forbidden('You can only move an account onto your own user id');
  if (!input.temp_id.startsWith('temp_')) throw badRequest('The temporary id must start with temp_');
  return em.transactional(async (tx) => {
    const temp = await sqlOne(tx, `select id from participant where id = $1 for update`, [input.temp_id]);
    if (!temp) throw notFound(`No participant with id ${input.temp_id}`);
    const picks = await sqlOne<{ n: number }>(
      tx,
      `with moved as (
         insert into pick (participant_id, group_id, player_id, created_at)
         select $2, group_id, player_id, created_at from pick where participant_id = $1
         on conflict do nothing returning 1)
       select count(*)::int as n from moved`,
      [input.temp_id, callerId],
    );
    const memberships = await sqlOne<{ n: number }>(
      tx,
      `with moved as (
         insert into group_membership (group_id, participant_id, is_owner, use_global_picks, joined_at)
         select group_id, $2, is_owner, use_global_picks, joined_at from group_membership where participant_id = $1
         on conflict (group_id, participant_id) do update set is_owner = group_membership.is_owner or excluded.is_owner
         returning 1)
       select count(*)::int as n from moved`,
      [input.temp_id, callerId],
    );
    await sql(tx, `update join_link set created_by = $2 where created_by = $1`, [input.temp_id, callerId]);
    await sql(tx, `update groups set created_by = $2 where created_by = $1`, [input.temp_id, callerId]);
    await sql(tx, `delete from participant where id = $1`, [input.temp_id]);
    // Entries moved between participants: every instance re-reads both and re-ranks.
    await announceChange(tx, sink, { kind: 'participant', participant_id: input.temp_id });
    await announceChange(tx, sink, { kind: 'participant', participant_id: callerId });
    return {
      success: true,
      message: `Moved ${picks?.n ?? 0} picks and ${memberships?.n ?? 0} group memberships to your account`,
      moved_picks: picks?.n ?? 0,
      moved_memberships: memberships?.n ?? 0,
    };
  });
}
