import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { draftLocked, forbidden, notFound, unprocessable } from '../../errors.js';
import { isDraftStarted, type DraftSettings } from '../draft/draft.service.js';
import { publish } from '../../events/topic-bus.js';
import { findMembership, groupPicksPublic, lockGroupShared, refusalForNonMember, requireMembership, stopReusingGlobalPicks } from './membership.js';
import { existingPlayerIds } from '../players/players.repository.js';
import { lockParticipant } from '../users/participants.service.js';
import { entryPlayerIds, groupsShowingPicks, replaceEntry } from '../picks/picks.repository.js';
import { entrySetGroup } from '@first-round/shared/entries';
import type { MyPicks } from '@first-round/shared/odds-schemas';
import type { DraftStatus, PlayerDto } from '@first-round/shared/schemas';
import { entryOddsOf } from './entry-odds.js';

/** Who asks, on which EntityManager. */
interface Caller {
  em: EntityManager;
  participantId: string;
}

/** The caller's entry in a group: their My Picks while the membership is linked, else the group's own picks. */
export async function myPicks({ em, participantId }: Caller, groupId: number = GLOBAL_GROUP_ID) {
  const m = await requireMembership(em, groupId, participantId);
  const source = entrySetGroup(groupId, m.use_global_picks);
  return { picks: await entryPlayerIds(em, participantId, source), group_id: groupId, use_global_picks: groupId !== GLOBAL_GROUP_ID && m.use_global_picks };
}

/** Where the odds read the board and the draft (the app's caches of both). */
export interface OddsSources {
  players: { list(): PlayerDto[] | Promise<PlayerDto[]> };
  draftStatus: { status(): DraftStatus | Promise<DraftStatus> };
}

/** `myPicks` with the entry's odds (docs/rules.md, "Odds"): null once round one is complete, or without picks. */
export async function myPicksWithOdds(caller: Caller, sources: OddsSources, groupId: number = GLOBAL_GROUP_ID): Promise<MyPicks> {
  const [mine, players, status] = await Promise.all([myPicks(caller, groupId), sources.players.list(), sources.draftStatus.status()]);
  return { ...mine, odds: entryOddsOf(players, status, mine.picks) };
}

/**
 * Replaces the caller's picks in a group with `playerIds`, whole: validated first, then deleted and
 * inserted in one transaction that holds the participant's row lock, so concurrent saves queue up and the
 * result is always exactly one of the saved sets. Who may save here and the draft lock come first, in
 * the procedure (picks.save); both are checked again under the lock. The change is published on the
 * topic bus as it commits: every instance forgets the rankings made from the old picks (leaderboard.cache.ts).
 */
export async function savePicks(
  { em, draft, participantId }: Caller & { draft: DraftSettings },
  input: { picks: number[]; group_id?: number },
) {
  const groupId = input.group_id ?? GLOBAL_GROUP_ID;
  // How many (1 to 32) the input's schema has said already (picksSchema, shared with the client).
  const distinct = [...new Set(input.picks)];
  if (distinct.length !== input.picks.length) throw unprocessable('Each player can be picked only once');
  const known = await existingPlayerIds(em, distinct);
  if (known.size !== distinct.length) {
    throw unprocessable(`Unknown player id(s): ${distinct.filter((id) => !known.has(id)).join(', ')}`);
  }
  await em.transactional(async (tx) => {
    await lockParticipant(tx, participantId);
    // Re-checked under the lock: the draft may have started while this request waited.
    if (await isDraftStarted(tx, draft)) throw draftLocked(MESSAGES.picksLocked);
    if (groupId !== GLOBAL_GROUP_ID) {
      // Leaving locks the group row for update, so a save and a leave take turns: picks are never stored
      // for someone who has just left, nor into a group its last member has just deleted.
      if (!(await lockGroupShared(tx, groupId))) throw notFound(MESSAGES.groupNotFound);
      if (!(await findMembership(tx, groupId, participantId))) throw await refusalForNonMember(tx, groupId);
    }
    await replaceEntry(tx, participantId, groupId, distinct);
    // Saving group picks makes them the entry (docs/rules.md, "Entries and picks"): stop reusing the global ones.
    if (groupId !== GLOBAL_GROUP_ID) await stopReusingGlobalPicks(tx, groupId, participantId);
    await publish(tx, 'picks', { participant_id: participantId, group_ids: await groupsShowingPicks(tx, participantId, groupId) });
  });
  return { success: true, picks: await entryPlayerIds(em, participantId, groupId), group_id: groupId };
}

/**
 * Another participant's entry. Before the start nobody sees anybody else's picks. After it, members of a
 * group with public picks see each other's entries; otherwise only their own.
 */
export async function participantPicks({ em, draft, participantId: callerId }: Caller & { draft: DraftSettings }, input: { group_id: number; participant_id: string }) {
  if (input.participant_id === callerId) return myPicks({ em, participantId: callerId }, input.group_id);
  const hidden = forbidden("This participant's picks are not visible to you");
  if (!(await isDraftStarted(em, draft))) throw hidden;
  if (input.group_id === GLOBAL_GROUP_ID) throw hidden;
  const picksPublic = await groupPicksPublic(em, input.group_id);
  if (picksPublic === undefined) throw notFound(MESSAGES.groupNotFound);
  await requireMembership(em, input.group_id, callerId);
  if (!picksPublic) throw hidden;
  if (!(await findMembership(em, input.group_id, input.participant_id))) throw notFound('That participant is not a member of this group');
  return myPicks({ em, participantId: input.participant_id }, input.group_id);
}
