import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { forbidden, notFound, type DomainError } from '../../errors.js';
import * as repo from './groups.repository.js';

/** A membership as the authorization checks and other modules see it. */
export interface MembershipRow {
  group_id: number;
  participant_id: string;
  is_owner: boolean;
  use_global_picks: boolean;
}

/** The caller's membership; the global group has no rows and every participant takes part in it. */
export async function findMembership(em: EntityManager, groupId: number, participantId: string): Promise<MembershipRow | undefined> {
  if (groupId === GLOBAL_GROUP_ID) return { group_id: GLOBAL_GROUP_ID, participant_id: participantId, is_owner: false, use_global_picks: true };
  const m = await repo.findMembershipFlags(em, groupId, participantId);
  return m ? { group_id: groupId, participant_id: participantId, is_owner: m.isOwner, use_global_picks: m.useGlobalPicks } : undefined;
}

/**
 * What a caller who is not in the group hears. A private group answers exactly as an id that names no
 * group does (404 'Group not found': the same status, kind, message and bytes), so private group ids
 * cannot be found by probing. A public group is listed for every signed-in player anyway: 403 'You are
 * not a member of this group' tells nothing there, and says what to do.
 */
export async function refusalForNonMember(em: EntityManager, groupId: number): Promise<DomainError> {
  return (await repo.findIsPublic(em, groupId)) ? forbidden(MESSAGES.notGroupMember) : notFound(MESSAGES.groupNotFound);
}

/** The caller's membership, or the refusal of a non-member (above): 404 for a private group or none, 403 for a public one. */
export async function requireMembership(em: EntityManager, groupId: number, participantId: string): Promise<MembershipRow> {
  const membership = await findMembership(em, groupId, participantId);
  if (membership) return membership;
  throw await refusalForNonMember(em, groupId);
}

/**
 * Takes the group's row in share mode until the transaction ends (false: there is no such group). Leaving
 * locks it for update, so a write into the group and a member leaving (or the group going) take turns.
 */
export async function lockGroupShared(tx: EntityManager, groupId: number): Promise<boolean> {
  return repo.lockGroup(tx, groupId, 'share');
}

/**
 * Who among `participantIds` may invite to the group now: its owner always; other members while the owner
 * lets members invite (the default). An invite link works only while its maker may invite, so a member's
 * links stop when the owner turns member invites off (and work again once it is back on, if unexpired).
 * `membersCanInvite` is undefined when there is no such group.
 */
export async function invitersAmong(em: EntityManager, groupId: number, participantIds: string[]) {
  const { membersCanInvite, owners, members } = await repo.findInviteFlags(em, groupId, participantIds);
  const inviters = new Set([...members].filter((id) => owners.has(id) || membersCanInvite));
  return { inviters, members, membersCanInvite };
}

/** The caller may make an invite link (an owner, or a member while members may invite): else 403 saying why. */
export async function requireInviteRight(em: EntityManager, groupId: number, participantId: string): Promise<void> {
  const { inviters, members } = await invitersAmong(em, groupId, [participantId]);
  if (inviters.has(participantId)) return;
  throw forbidden(members.has(participantId) ? MESSAGES.membersCannotInvite : MESSAGES.notGroupMember);
}

/** Whether the group's members may see each other's picks after the start; undefined: no such group. */
export async function groupPicksPublic(em: EntityManager, groupId: number): Promise<boolean | undefined> {
  return repo.findPicksPublic(em, groupId);
}

/** The member's entry becomes their own group picks (saving group picks does this: docs/rules.md, "Entries and picks"). */
export async function stopReusingGlobalPicks(tx: EntityManager, groupId: number, participantId: string): Promise<void> {
  await repo.setUseGlobalPicks(tx, groupId, participantId, false);
}
