import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../../db/sql.js';
import { ShareLinkSchema, type ShareLink } from './share.entities.js';

/* The share module's data access: the share_link table. Reads pass `refresh: true` (see groups.repository.ts). */

/**
 * The entry's link: the one it has, else `token` stored as its new one. The unique constraint on the
 * entry decides a race: both requests answer the token that won.
 */
export async function findOrInsertShareLink(em: EntityManager, link: { participantId: string; groupId: number; token: string }): Promise<string> {
  // A link committed by a racing request after this statement's snapshot is not seen by its select:
  // the insert then did nothing and nothing is returned, and a second statement (a new snapshot) finds it.
  for (let attempt = 0; ; attempt++) {
    const [row] = await insertOrSelect(em, link);
    if (row || attempt > 0) return row!.token;
  }
}

function insertOrSelect(em: EntityManager, link: { participantId: string; groupId: number; token: string }) {
  // Raw: insert-or-select in one statement (a CTE), so two first requests agree on one token.
  return sql<{ token: string }>(
    em,
    `with inserted as (
       insert into share_link (participant_id, group_id, token) values ($1, $2, $3)
       on conflict (participant_id, group_id) do nothing
       returning token
     )
     select token from inserted
     union all
     select token from share_link where participant_id = $1 and group_id = $2
     limit 1`,
    [link.participantId, link.groupId, link.token],
  );
}

/** The link with this token, if there is one. */
export function findShareLink(em: EntityManager, token: string): Promise<ShareLink | null> {
  return em.findOne(ShareLinkSchema, { token }, { refresh: true });
}
