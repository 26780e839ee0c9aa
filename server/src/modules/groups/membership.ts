import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { sqlOne } from '../../db/sql.js';
import { forbidden, notFound } from '../../errors.js';

export interface MembershipRow {
  group_id: number;
  participant_id: string;
  is_owner: boolean;
  use_global_picks: boolean;
}

/** The caller's membership; the global group has no rows and every participant takes part in it. */
export async function findMembership(em: EntityManager, groupId: number, participantId: string): Promise<MembershipRow | undefined> {
  if (groupId === GLOBAL_GROUP_ID) return { group_id: GLOBAL_GROUP_ID, participant_id: participantId, is_owner: false, use_global_picks: true };
  return sqlOne<MembershipRow>(
    em,
    `select group_id, participant_id, is_owner, use_global_picks from group_membership where group_id = $1 and participant_id = $2`,
    [groupId, participantId],
  );
}

export async function groupExists(em: EntityManager, groupId: number): Promise<boolean> {
  return Boolean(await sqlOne(em, `select 1 from groups where id = $1`, [groupId]));
}


/** The caller's membership, or 404 'Group not found' / 403 'You are not a member of this group'. */
export async function requireMembership(em: EntityManager, groupId: number, participantId: string): Promise<MembershipRow> {
  const membership = await findMembership(em, groupId, participantId);
  if (membership) return membership;
  throw (await groupExists(em, groupId)) ? forbidden(MESSAGES.notGroupMember) : notFound(MESSAGES.groupNotFound);
}
