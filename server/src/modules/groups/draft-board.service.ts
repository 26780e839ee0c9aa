import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { buildDraftBoard, type BoardEntry } from '@first-round/shared/draft-board';
import { snapshotOf } from '@first-round/shared/draft-snapshot';
import { MESSAGES } from '@first-round/shared/messages';
import type { DraftBoard } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { conflict } from '../../errors.js';
import { playerIdsOfSets } from '../picks/pick-sets.js';
import { screenNamesOf } from '../users/participants.repository.js';
import type { MembershipRow } from './membership.js';
import * as repo from './groups.repository.js';
import { entrySetGroup } from '@first-round/shared/entries';

/**
 * A group's draft board (groups.draftBoard): round one's slots as they fill, who in the group had each
 * player, and the undrafted players alive entries are waiting on. The caller is a member (the procedure
 * checked it). Nothing before the start: 409. Each member's entry is their group picks, or their global
 * picks when they reuse them (the leaderboard's rule). Others' entries only where the group's picks are
 * public, as for reading one member's picks (picks.ofParticipant); otherwise the board counts every
 * member's entry but names only the caller (as the group's field share counts without names). The
 * global group's board is the caller's own entry alone.
 *
 * Not cached: a group is small, and the draft's state and the board come from their per-version caches,
 * so a read costs the group's flag, its memberships, their names and their pick sets (four indexed reads).
 */
export async function groupDraftBoard(
  deps: Pick<AppDeps, 'draftStatus' | 'players'>,
  em: EntityManager,
  membership: MembershipRow,
): Promise<DraftBoard> {
  if (!(await deps.draftStatus.hasStarted())) throw conflict(MESSAGES.draftBoardBeforeStart);
  const groupId = membership.group_id;
  const picksVisible = groupId !== GLOBAL_GROUP_ID && (await repo.findPicksPublic(em, groupId)) === true;
  // The global group's entries are every player's: its board is the caller's own. A group's counts every
  // member's entry, and names them only where picks are public.
  const members =
    groupId === GLOBAL_GROUP_ID
      ? [{ participantId: membership.participant_id, useGlobalPicks: membership.use_global_picks }]
      : (await repo.findMemberships(em, groupId)).map((m) => ({ participantId: m.participantId, useGlobalPicks: m.useGlobalPicks }));
  const sets = members.map((m) => ({ participantId: m.participantId, groupId: entrySetGroup(groupId, m.useGlobalPicks) }));
  const names = await screenNamesOf(
    em,
    members.map((m) => m.participantId),
  );
  const picks = await playerIdsOfSets(em, sets);
  const [status, players] = await Promise.all([deps.draftStatus.status(), deps.players.list()]);
  const entries: BoardEntry[] = members.map((m) => ({
    participant_id: m.participantId,
    participant_name: names.get(m.participantId) ?? m.participantId,
    player_ids: picks.get(m.participantId) ?? [],
  }));
  return buildDraftBoard({
    group_id: groupId,
    picks_visible: picksVisible,
    viewer: membership.participant_id,
    last_event_id: status.last_event_id,
    players,
    order: status.round_one_order,
    draft: snapshotOf(status, players),
    entries,
  });
}
