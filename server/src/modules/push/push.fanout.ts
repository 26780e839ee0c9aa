import type { EntityManager } from '@mikro-orm/postgresql';
import { bestPlace, finalText, pickText, type FinalPlace, type PushText } from '@first-round/shared/push-words';
import type { DraftChange } from '@first-round/shared/schemas';
import { isRoundOneComplete, type DraftSnapshot } from '@first-round/shared/scoring';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { readDraftState } from '../draft/draft.repository.js';
import {
  claimFanout,
  groupStandings,
  groupsOfSubscribers,
  insertDeliveries,
  pickStands,
  subscribedDevices,
  subscriberEntries,
  subscriberEntryDetails,
  type DeliveryRow,
  type SubscriberEntry,
} from './push.repository.js';

/**
 * What a draft change tells each subscribed player (shared/src/push-words.ts words it), written as one push
 * per device into push_delivery, due at `heardAt` + the device's delay. One transaction: the change is
 * claimed (push_fanout) with its pushes, so it is fanned out once, whichever sender hears it or catches up.
 * A pick tells its news, and the pick that fills round one the final result instead; the operator's
 * "round one complete" mark tells the final result. Answers the rows written, for the sender's queue.
 */
export async function fanOut(em: EntityManager, change: DraftChange, roundOnePicks: number, heardAt: number): Promise<DeliveryRow[]> {
  if (change.kind !== 'pick' && change.kind !== 'complete_round') return [];
  return em.transactional(async (tx) => {
    if (!(await claimFanout(tx, change.event_id))) return [];
    const devices = await subscribedDevices(tx);
    if (devices.length === 0) return [];
    const state = await readDraftState(tx);
    const after: DraftSnapshot = { roundOnePicks, filledSlots: state.picksMade, roundOneCompleteMarked: state.roundOneComplete };
    let texts: Map<string, PushText>;
    if (change.kind === 'pick') {
      if (!change.player || change.slot == null || !(await pickStands(tx, change.player.id, change.slot))) return [];
      // The pick that fills round one: its news is the final result. (Marked complete already: told then.)
      if (isRoundOneComplete(after) && !state.roundOneComplete) texts = await finalTexts(tx, roundOnePicks);
      else texts = await pickTexts(tx, change, state.teams.get(change.slot) ?? null, after);
    } else {
      // Told at the pick that filled round one already, or reopened since: nothing (more) to say.
      if (!state.roundOneComplete || state.picksMade >= roundOnePicks) return [];
      texts = await finalTexts(tx, roundOnePicks);
    }
    const pushes = devices.flatMap((device) => {
      const text = texts.get(device.participantId);
      return text ? [{ endpoint: device.endpoint, payload: text, dueAt: heardAt + device.delaySeconds * 1000 }] : [];
    });
    return insertDeliveries(tx, change.event_id, pushes);
  });
}

async function pickTexts(tx: EntityManager, change: DraftChange, team: string | null, after: DraftSnapshot): Promise<Map<string, PushText>> {
  const byPlayer = new Map<string, SubscriberEntry[]>();
  for (const entry of await subscriberEntries(tx, change.player!.id)) byPlayer.set(entry.participantId, [...(byPlayer.get(entry.participantId) ?? []), entry]);
  const texts = new Map<string, PushText>();
  for (const [participantId, entries] of byPlayer) {
    const text = pickText({ slot: change.slot!, team, playerName: change.player!.player_name }, entries, after);
    if (text) texts.set(participantId, text);
  }
  return texts;
}

/** Each subscribed player's best final place (bestPlace), ranked by each group's own standings. */
async function finalTexts(tx: EntityManager, roundOnePicks: number): Promise<Map<string, PushText>> {
  const details = new Map((await subscriberEntryDetails(tx)).map((d) => [`${d.participantId}:${d.groupId}`, d]));
  const places = new Map<string, FinalPlace[]>();
  for (const groupId of await groupsOfSubscribers(tx)) {
    const rows = await groupStandings(tx, groupId, roundOnePicks);
    for (const row of rows) {
      const detail = details.get(`${row.participant_id}:${groupId}`);
      if (!detail) continue;
      const place: FinalPlace = {
        groupId: groupId === GLOBAL_GROUP_ID ? null : groupId,
        groupName: detail.groupName,
        rank: row.rank,
        entries: rows.length,
        hits: detail.hits,
        picks: row.picks,
        busted: row.busted,
        missed: detail.missed,
      };
      places.set(row.participant_id, [...(places.get(row.participant_id) ?? []), place]);
    }
  }
  const texts = new Map<string, PushText>();
  for (const [participantId, list] of places) {
    const best = bestPlace(list);
    if (best) texts.set(participantId, finalText(best));
  }
  return texts;
}
