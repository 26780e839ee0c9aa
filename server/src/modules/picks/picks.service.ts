import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID, MAX_PICKS, MIN_PICKS } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import type { AppDeps } from '../../deps.js';
import { draftLocked, forbidden, notFound, unprocessable } from '../../errors.js';
import { sql, sqlOne } from '../../db/sql.js';
import { isDraftStarted } from '../draft/draft.service.js';
import { requireMembership } from '../groups/membership.js';

async function picksIn(em: EntityManager, participantId: string, groupId: number): Promise<number[]> {
  const rows = await sql<{ player_id: number }>(
    em,
    `select k.player_id from pick k join player p on p.id = k.player_id where k.participant_id = $1 and k.group_id = $2 order by p.rank`,
    [participantId, groupId],
  );
  return rows.map((r) => r.player_id);
}

/** The caller's entry in a group: the group's own picks, or the global ones while the membership reuses them. */
export async function myPicks(em: EntityManager, participantId: string, groupId: number = GLOBAL_GROUP_ID) {
  const m = await requireMembership(em, groupId, participantId);
  const source = groupId === GLOBAL_GROUP_ID || m.use_global_picks ? GLOBAL_GROUP_ID : groupId;
  return { picks: await picksIn(em, participantId, source), group_id: groupId, use_global_picks: groupId !== GLOBAL_GROUP_ID && m.use_global_picks };
}

/**
 * Replaces the caller's picks in a group with `playerIds`, whole: validated first, then deleted and
 * inserted in one transaction that holds the participant's row lock, so concurrent saves queue up and the
 * result is always exactly one of the saved sets.
 */
export async function savePicks(em: EntityManager, deps: AppDeps, participantId: string, input: { picks: number[]; group_id?: number }) {
  const groupId = input.group_id ?? GLOBAL_GROUP_ID;
  // Who may save here comes first (as for every other group call), then the draft lock, then the picks.
  await requireMembership(em, groupId, participantId);
  if (await isDraftStarted(em, deps.draft)) throw draftLocked(MESSAGES.picksLocked);
  if (input.picks.length < MIN_PICKS || input.picks.length > MAX_PICKS) {
    throw unprocessable(`Number of picks must be between ${MIN_PICKS} and ${MAX_PICKS} (got ${input.picks.length})`);
  }
  const distinct = [...new Set(input.picks)];
  if (distinct.length !== input.picks.length) throw unprocessable('Each player can be picked only once');
  const known = await sql<{ id: number }>(em, `select id from player where id = any($1::int[])`, [distinct]);
  if (known.length !== distinct.length) {
    const found = new Set(known.map((k) => k.id));
    throw unprocessable(`Unknown player id(s): ${distinct.filter((id) => !found.has(id)).join(', ')}`);
  }
  await em.transactional(async (tx) => {
    await sql(tx, `select 1 from participant where id = $1 for update`, [participantId]);
    // Re-checked under the lock: the draft may have started while this request waited.
    if (await isDraftStarted(tx, deps.draft)) throw draftLocked(MESSAGES.picksLocked);
    if (groupId !== GLOBAL_GROUP_ID) {
      // Leaving locks the group row for update, so a save and a leave take turns: picks are never stored
      // for someone who has just left, nor into a group its last member has just deleted.
      if (!(await sqlOne(tx, `select 1 from groups where id = $1 for share`, [groupId]))) throw notFound(MESSAGES.groupNotFound);
      const stillMember = await sqlOne(tx, `select 1 from group_membership where group_id = $1 and participant_id = $2`, [groupId, participantId]);
      if (!stillMember) throw forbidden(MESSAGES.notGroupMember);
    }
    await sql(tx, `delete from pick where participant_id = $1 and group_id = $2`, [participantId, groupId]);
    await sql(tx, `insert into pick (participant_id, group_id, player_id) select $1, $2, unnest($3::int[])`, [participantId, groupId, distinct]);
    if (groupId !== GLOBAL_GROUP_ID) {
      // Saving group picks makes them the entry (DESIGN): stop reusing the global ones.
      await sql(tx, `update group_membership set use_global_picks = false where group_id = $1 and participant_id = $2`, [groupId, participantId]);
    }
  });
  deps.leaderboards.invalidate(groupId);
  return { success: true, picks: await picksIn(em, participantId, groupId), group_id: groupId };
}

/**
 * Another participant's entry. Before the start nobody sees anybody else's picks. After it, members of a
 * group with public picks see each other's entries; otherwise only their own.
 */
export async function participantPicks(em: EntityManager, deps: AppDeps, callerId: string, input: { group_id: number; participant_id: string }) {
  if (input.participant_id === callerId) return myPicks(em, callerId, input.group_id);
  const hidden = forbidden("This participant's picks are not visible to you");
  if (!(await isDraftStarted(em, deps.draft))) throw hidden;
  if (input.group_id === GLOBAL_GROUP_ID) throw hidden;
  const group = await sqlOne<{ picks_public: boolean }>(em, `select picks_public from groups where id = $1`, [input.group_id]);
  if (!group) throw notFound(MESSAGES.groupNotFound);
  await requireMembership(em, input.group_id, callerId);
  if (!group.picks_public) throw hidden;
  const theirs = await sqlOne(em, `select 1 from group_membership where group_id = $1 and participant_id = $2`, [input.group_id, input.participant_id]);
  if (!theirs) throw notFound('That participant is not a member of this group');
  return myPicks(em, input.participant_id, input.group_id);
}
