import type { EntityManager } from '@mikro-orm/postgresql';
import { JoinLinkSchema, type JoinLink } from './join-links.entities.js';

/* The join-links module's data access: the join_link table. Reads pass `refresh: true` (see groups.repository.ts). */

/** Stores a link; a group deleted meanwhile raises a foreign-key violation. */
export async function insertJoinLink(em: EntityManager, link: { groupId: number; tokenHash: string; createdBy: string; expiresAt: Date }): Promise<void> {
  await em.insert<JoinLink>(JoinLinkSchema, link);
}

/** The link with this token hash, if it has not expired by `now`. */
export function findLiveJoinLink(em: EntityManager, tokenHash: string, now: Date): Promise<JoinLink | null> {
  return em.findOne(JoinLinkSchema, { tokenHash, expiresAt: { $gt: now } }, { refresh: true });
}

/** Who made each link to the group that has not expired by `now` (one id per link). */
export async function findLiveJoinLinkMakers(em: EntityManager, groupId: number, now: Date): Promise<string[]> {
  const links = await em.find(JoinLinkSchema, { groupId, expiresAt: { $gt: now } }, { fields: ['createdBy'], refresh: true });
  return links.map((l) => l.createdBy);
}

/** Links made by `fromId` are credited to `toId` (an account move). */
export async function reassignJoinLinkCreator(tx: EntityManager, fromId: string, toId: string): Promise<void> {
  await tx.nativeUpdate(JoinLinkSchema, { createdBy: fromId }, { createdBy: toId });
}
