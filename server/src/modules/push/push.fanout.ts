import type { EntityManager } from '@mikro-orm/postgresql';
import { bestPlace, finalText, pickText, type EntryAtPick, type FinalPlace, type PushText } from '@first-round/shared/push-words';
import type { DraftChange } from '@first-round/shared/schemas';
import { entrySetGroup } from '@first-round/shared/entries';
import { isRoundOneComplete, pickOutcome, type DraftSnapshot } from '@first-round/shared/scoring';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { readDraftState } from '../draft/draft.repository.js';
import type { EntryBook } from '../standings/entry-book.js';
import type { LeaderboardCache } from '../leaderboard/leaderboard.cache.js';
import { claimFanout, insertDeliveries, pickStands, playerNames, subscribedDevices, subscriberMemberships, type DeliveryRow } from './push.repository.js';

/** Where the fan-out reads entries and standings: the instance's entry book and rankings (the standings' own). */
export interface FanOutStandings {
  book: Pick<EntryBook, 'sync'>;
  leaderboards: Pick<LeaderboardCache, 'get'>;
}

/**
 * What a draft change tells each subscribed player (shared/src/push-words.ts words it), written as one push
 * per device into push_delivery, due at `heardAt` + the device's delay. One transaction: the change is
 * claimed (push_fanout) with its pushes, so it is fanned out once, whichever sender hears it or catches up.
 * A pick tells its news, and the pick that fills round one the final result instead; the operator's
 * "round one complete" mark tells the final result. Answers the rows written, for the sender's queue.
 */
export async function fanOut(em: EntityManager, change: DraftChange, roundOnePicks: number, heardAt: number, standings: FanOutStandings): Promise<DeliveryRow[]> {
  if (change.kind !== 'pick' && change.kind !== 'complete_round') return [];
  return em.transactional(async (tx) => {
    if (!(await claimFanout(tx, change.event_id))) return [];
    const devices = await subscribedDevices(tx);
    if (devices.length === 0) return [];
    const state = await readDraftState(tx);
    const after: DraftSnapshot = { roundOnePicks, filledSlots: state.picksMade, roundOneCompleteMarked: state.roundOneComplete };
    let texts: Map<string, PushText>;
    // The final result and busted news go to the players who keep them on (push_preference).
    let final = true;
    if (change.kind === 'pick') {
      if (!change.player || change.slot == null || !(await pickStands(tx, change.player.id, change.slot))) return [];
      // The pick that fills round one: its news is the final result. (Marked complete already: told then.)
      final = isRoundOneComplete(after) && !state.roundOneComplete;
      if (final) texts = await finalTexts(tx, devices.filter((d) => d.final), standings);
      else texts = await pickTexts(devices, change, state.teams.get(change.slot) ?? null, after, standings);
    } else {
      // Told at the pick that filled round one already, or reopened since: nothing (more) to say.
      if (!state.roundOneComplete || state.picksMade >= roundOnePicks) return [];
      texts = await finalTexts(tx, devices.filter((d) => d.final), standings);
    }
    const pushes = devices.flatMap((device) => {
      const text = texts.get(device.participantId);
      return text && (!final || device.final) ? [{ endpoint: device.endpoint, payload: text, dueAt: heardAt + device.delaySeconds * 1000 }] : [];
    });
    return insertDeliveries(tx, change.event_id, pushes);
  });
}

/** Each subscribed player's pick sets from the book, as the pick left them: their counts, and whether each holds the player. */
async function pickTexts(
  devices: readonly { participantId: string; busted: boolean }[],
  change: DraftChange,
  team: string | null,
  after: DraftSnapshot,
  standings: FanOutStandings,
): Promise<Map<string, PushText>> {
  const book = await standings.book.sync();
  const taken = book.board.index.get(change.player!.id) ?? -1;
  const texts = new Map<string, PushText>();
  const tellsBusted = new Map(devices.map((d) => [d.participantId, d.busted]));
  for (const [participantId, busted] of tellsBusted) {
    const p = book.participants.index.get(participantId);
    if (p === undefined) continue;
    const entries: EntryAtPick[] = book.setsOf(p).map(({ groupId, table, set }) => ({
      groupId: groupId === GLOBAL_GROUP_ID ? null : groupId,
      picks: table.counts.picks[set]!,
      hits: table.counts.hits[set]!,
      laterRound: table.counts.laterRound[set]!,
      maxHitRank: table.counts.maxHitRank[set]! || null,
      holds: table.holds(set, taken),
    }));
    const text = pickText({ slot: change.slot!, team, playerName: change.player!.player_name }, entries, after, { busted });
    if (text) texts.set(participantId, text);
  }
  return texts;
}

/**
 * Each subscribed player's best final place (bestPlace), in every standings they have an entry in (the
 * global one, and each group's: the rankings every page reads), with that entry's hits and the picks round
 * one ended without, from the book.
 */
async function finalTexts(tx: EntityManager, devices: readonly { participantId: string }[], standings: FanOutStandings): Promise<Map<string, PushText>> {
  const [book, memberships, names] = await Promise.all([standings.book.sync(), subscriberMemberships(tx), playerNames(tx)]);
  const scopes = [
    ...[...new Set(devices.map((d) => d.participantId))].map((participantId) => ({ participantId, groupId: GLOBAL_GROUP_ID, groupName: null, useGlobalPicks: true })),
    ...memberships,
  ];
  const places = new Map<string, FinalPlace[]>();
  for (const scope of scopes) {
    const ranked = await standings.leaderboards.get(scope.groupId);
    const row = ranked.byParticipant.get(scope.participantId);
    const entry = book.entrySet(scope.participantId, entrySetGroup(scope.groupId, scope.useGlobalPicks));
    if (!row || !entry) continue;
    const { columns } = book.board;
    const missed = [...entry.table.playersOf(entry.set)]
      .filter((i) => pickOutcome({ rank: columns.rank[i]!, draftRound: columns.round[i] || null }, book.draft) !== 'hit')
      .sort((a, b) => columns.rank[a]! - columns.rank[b]!)
      .map((i) => names.get(book.board.ids[i]!) ?? '');
    const place: FinalPlace = {
      groupId: scope.groupId === GLOBAL_GROUP_ID ? null : scope.groupId,
      groupName: scope.groupName,
      rank: row.rank,
      entries: ranked.rankings.length,
      hits: entry.table.counts.hits[entry.set]!,
      picks: row.picks,
      busted: row.busted,
      missed,
    };
    places.set(scope.participantId, [...(places.get(scope.participantId) ?? []), place]);
  }
  const texts = new Map<string, PushText>();
  for (const [participantId, list] of places) {
    const best = bestPlace(list);
    if (best) texts.set(participantId, finalText(best));
  }
  return texts;
}
