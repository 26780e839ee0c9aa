import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '@first-round/shared/messages';
import type { AppDeps } from '../../deps.js';
import { draftLocked, isForeignKeyViolation, notFound } from '../../errors.js';
import { sqlOne } from '../../db/sql.js';
import { isDraftStarted } from '../draft/draft.service.js';
import { announceChange } from '../../cache/invalidation.js';
import { addMember } from '../groups/groups.service.js';

/** Only the hash is stored: a leaked database does not leak working invitations. */
const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export async function createJoinLink(em: EntityManager, deps: AppDeps, participantId: string, input: { group_id: number; expiration_hours: number }) {
  if (await isDraftStarted(em, deps.draft)) throw draftLocked(MESSAGES.joinLinksLocked);
  const token = crypto.randomBytes(32).toString('base64url'); // 256 random bits
  const expiresAt = new Date(deps.draft.now().getTime() + input.expiration_hours * 3_600_000);
  try {
    await sqlOne(em, `insert into join_link (group_id, token_hash, created_by, expires_at) values ($1, $2, $3, $4)`, [
      input.group_id,
      hashToken(token),
      participantId,
      expiresAt,
    ]);
  } catch (error) {
    // The group was deleted (its last member left) while the link was being made.
    if (isForeignKeyViolation(error)) throw notFound(MESSAGES.groupNotFound);
    throw error;
  }
  return { token, group_id: input.group_id, expires_at: expiresAt.toISOString(), expiration_hours: input.expiration_hours };
}

export async function resolveJoinLink(em: EntityManager, deps: AppDeps, token: string) {
  const link = await sqlOne<{ group_id: number; group_name: string; expires_at: Date }>(
    em,
    `select l.group_id, g.name as group_name, l.expires_at from join_link l join groups g on g.id = l.group_id
      where l.token_hash = $1 and l.expires_at > $2`,
    [hashToken(token), deps.draft.now()],
  );
  if (!link) throw notFound(MESSAGES.joinLinkInvalid);
  return { group_id: link.group_id, group_name: link.group_name, expires_at: new Date(link.expires_at).toISOString() };
}

/** The link stands in for the password; joining twice is a success. */
export async function joinWithLink(em: EntityManager, deps: AppDeps, participantId: string, token: string) {
  const link = await resolveJoinLink(em, deps, token);
  const added = await em.transactional(async (tx) => {
    const inserted = await addMember(tx, link.group_id, participantId);
    if (inserted) await announceChange(tx, deps.events, { kind: 'group', group_id: link.group_id });
    return inserted;
  });
  return {
    success: true,
    group_id: link.group_id,
    already_member: !added,
    message: added ? 'You have joined the group' : 'You are already a member of this group',
  };
}
