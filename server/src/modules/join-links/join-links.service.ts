import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '@first-round/shared/messages';
import { isForeignKeyViolation, notFound } from '../../errors.js';
import { publish } from '../../events/topic-bus.js';
import { INVITE_CARD_NAMES } from '@first-round/shared/constants';
import { joinDraftState } from '@first-round/shared/join-words';
import type { DraftStatus, ResolvedJoinLink } from '@first-round/shared/schemas';
import { addMember, invitationSummary, joinAnswer } from '../groups/groups.service.js';
import { getDraftStatus, type DraftSettings } from '../draft/draft.service.js';
import { findGroupName } from '../groups/groups.repository.js';
import { invitersAmong, requireInviteRight } from '../groups/membership.js';
import { screenNamesOf } from '../users/participants.repository.js';
import * as repo from './join-links.repository.js';
import type { MaybePromise } from '../../cache/maybe-promise.js';

/** Only the hash is stored: a leaked database does not leak working invitations. */
const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** How many links to the group work now: unexpired, and made by someone who may still invite. */
async function countWorkingLinks(em: EntityManager, groupId: number, now: Date): Promise<number> {
  const makers = await repo.findLiveJoinLinkMakers(em, groupId, now);
  const { inviters } = await invitersAmong(em, groupId, [...new Set(makers)]);
  return makers.filter((id) => inviters.has(id)).length;
}

/**
 * A new invitation to the group by one who may invite (an owner; a member unless the owner turned member
 * invites off: 403 saying so), its procedure locks it at the start (draftOpenProcedure): for the hours
 * asked for, else until picks lock. The deadline is read as it is now: a link made for "until picks lock"
 * keeps that time if the deadline is moved later.
 */
export async function createJoinLink(
  { em, participantId, now, deadline }: { em: EntityManager; participantId: string; now: Date; deadline: Date },
  input: { group_id: number; expiration_hours?: number },
) {
  await requireInviteRight(em, input.group_id, participantId);
  const token = crypto.randomBytes(32).toString('base64url'); // 256 random bits
  const hours = input.expiration_hours;
  const expiresAt = hours === undefined ? deadline : new Date(now.getTime() + hours * 3_600_000);
  try {
    await repo.insertJoinLink(em, { groupId: input.group_id, tokenHash: hashToken(token), createdBy: participantId, expiresAt });
  } catch (error) {
    // The group was deleted (its last member left) while the link was being made.
    if (isForeignKeyViolation(error)) throw notFound(MESSAGES.groupNotFound);
    throw error;
  }
  return {
    token,
    group_id: input.group_id,
    expires_at: expiresAt.toISOString(),
    expiration_hours: hours ?? Math.ceil((expiresAt.getTime() - now.getTime()) / 3_600_000),
    until_picks_lock: hours === undefined,
    active_links: await countWorkingLinks(em, input.group_id, now),
  };
}

/**
 * Where a live link leads. Deleting a group deletes its links, so a live link's group exists (unless
 * deleted this instant). A link speaks for its maker: it works while they may invite, so one made by a
 * member who left leads nowhere, and one made by a member while the owner has member invites off says so.
 */
async function liveLink({ em, now }: { em: EntityManager; now: Date }, token: string) {
  const link = await repo.findLiveJoinLink(em, hashToken(token), now);
  const groupName = link ? await findGroupName(em, link.groupId) : undefined;
  if (!link || groupName === undefined) throw notFound(MESSAGES.joinLinkInvalid);
  const { inviters, members } = await invitersAmong(em, link.groupId, [link.createdBy]);
  if (!inviters.has(link.createdBy)) throw notFound(members.has(link.createdBy) ? MESSAGES.joinLinkTurnedOff : MESSAGES.joinLinkInvalid);
  return { group_id: link.groupId, group_name: groupName, created_by: link.createdBy, expires_at: link.expiresAt };
}

/** The draft as an invitation card tells it: when picks lock, whether they already have, whether round one is over. */
export interface InviteDraftState {
  deadline: Date;
  status: () => MaybePromise<Pick<DraftStatus, 'draftHasStarted' | 'round_one_complete'>>;
}

/**
 * The invitation card, for anyone holding the link (no sign-in): the group, who invited them, its size
 * and first members' screen names, and when picks lock. Nothing else: no e-mails, no ids, no picks.
 */
export async function resolveJoinLink(
  { em, now, draft }: { em: EntityManager; now: Date; draft: InviteDraftState },
  token: string,
): Promise<ResolvedJoinLink> {
  const link = await liveLink({ em, now }, token);
  const summary = await invitationSummary(em, link.group_id, INVITE_CARD_NAMES);
  if (!summary) throw notFound(MESSAGES.joinLinkInvalid);
  const inviter = (await screenNamesOf(em, [link.created_by])).get(link.created_by) ?? null;
  return {
    group_id: link.group_id,
    group_name: summary.name,
    expires_at: link.expires_at.toISOString(),
    invited_by: inviter,
    member_count: summary.memberCount,
    member_names: summary.memberNames,
    pick_deadline: draft.deadline.toISOString(),
    ...joinDraftState(await draft.status()),
  };
}

/** The link stands in for the password; joining twice is a success. After the start the member gets no entry (joinAnswer says so). */
export async function joinWithLink(
  { em, participantId, now, draft }: { em: EntityManager; participantId: string; now: Date; draft: DraftSettings },
  token: string,
) {
  const link = await liveLink({ em, now }, token);
  return em.transactional(async (tx) => {
    const added = await addMember(tx, link.group_id, participantId);
    if (added) await publish(tx, 'group', { kind: 'group', group_id: link.group_id });
    return joinAnswer(link.group_id, added, await getDraftStatus(tx, draft));
  });
}

/** An account fix: the links `fromId` made are `toId`'s, inside the caller's transaction. */
export async function moveJoinLinks(tx: EntityManager, fromId: string, toId: string): Promise<void> {
  await repo.reassignJoinLinkCreator(tx, fromId, toId);
}
