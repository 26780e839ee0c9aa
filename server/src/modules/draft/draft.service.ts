import type { EntityManager } from '@mikro-orm/postgresql';
import type { DraftChange, DraftStatus } from '@first-round/shared/schemas';
import type { Config } from '../../config.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { clearDraftResults, findPlayer, lastRoundOneSelection, playerAtRoundOneSlot, setRoundOneResult, toPlayerDto } from '../players/players.repository.js';
import {
  appendDraftEvent,
  DRAFT_CHANNEL,
  latestDraftEvents,
  notifyDraftChange,
  readDraftState,
  recordDeadline,
  toAuditEntry,
  updateDraftState,
  type DraftStateRow,
} from './draft.repository.js';

/** Everything the draft rules need to know about the world: the configured deadline, slots, and a clock. */
export interface DraftSettings {
  deadline: Date;
  roundOnePicks: number;
  now: () => Date;
}

/** The draft's settings from the configuration: the server, the operator command and the demo build them here. */
export function draftSettings(config: Pick<Config, 'deadline' | 'ROUND_ONE_PICKS'>, now: () => Date = () => new Date()): DraftSettings {
  return { deadline: config.deadline, roundOnePicks: config.ROUND_ONE_PICKS, now };
}

/** The NOTIFY channel of draft changes (draft.events.ts listens on it). */
export { DRAFT_CHANNEL };

/** DESIGN: started once the operator starts it or once the deadline has passed. */
export function hasStarted(state: Pick<DraftStateRow, 'startedAt'>, settings: DraftSettings): boolean {
  return state.startedAt !== null || settings.now().getTime() >= settings.deadline.getTime();
}

export async function getDraftStatus(em: EntityManager, settings: DraftSettings): Promise<DraftStatus> {
  return statusOf(await readDraftState(em), settings);
}

export function statusOf(state: DraftStateRow, settings: DraftSettings): DraftStatus {
  return {
    draftHasStarted: hasStarted(state, settings),
    deadline: settings.deadline.toISOString(),
    started_at: state.startedAt?.toISOString() ?? null,
    picks_made: state.picksMade,
    round_one_complete: state.roundOneComplete || state.picksMade >= settings.roundOnePicks,
    round_one_picks: settings.roundOnePicks,
    last_event_id: state.lastEventId,
  };
}

export async function isDraftStarted(em: EntityManager, settings: DraftSettings): Promise<boolean> {
  return hasStarted(await readDraftState(em), settings);
}

/** Logs the change, then announces it (heard by every instance once the transaction commits). */
async function logAndNotify(em: EntityManager, change: Omit<DraftChange, 'event_id' | 'at'>, actor: string): Promise<DraftChange> {
  const logged = await appendDraftEvent(em, change, actor);
  const full: DraftChange = { ...change, event_id: logged.id, at: logged.createdAt.toISOString() };
  await notifyDraftChange(em, full);
  return full;
}

type Mutation = (em: EntityManager, state: DraftStateRow) => Promise<DraftChange>;

/**
 * Every operator change runs serialised on the locked draft_state row, in one transaction. Its reads come
 * from the database, never from what the caller's EntityManager loaded before (the operator command
 * drives many changes through one).
 */
async function mutate(em: EntityManager, run: Mutation): Promise<DraftChange> {
  return em.transactional(async (tx) => run(tx, await readDraftState(tx, { lock: true })), { clear: true });
}

export function startDraft(em: EntityManager, settings: DraftSettings, actor: string, kind: 'start' | 'auto_start' = 'start') {
  return mutate(em, async (tx, state) => {
    if (state.startedAt) throw conflict('The draft has already started');
    await updateDraftState(tx, { startedAt: settings.now() });
    return logAndNotify(tx, { kind }, actor);
  });
}

export function recordPick(em: EntityManager, settings: DraftSettings, actor: string, slot: number, playerId: number) {
  return mutate(em, async (tx, state) => {
    if (!hasStarted(state, settings)) throw conflict('The draft has not started yet: start it before recording picks');
    if (!Number.isInteger(slot) || slot < 1 || slot > settings.roundOnePicks) {
      throw badRequest(`Slot must be a whole number from 1 to ${settings.roundOnePicks}`);
    }
    if (state.roundOneComplete) throw conflict('Round one is marked complete: undo that before recording more picks');
    const taken = await playerAtRoundOneSlot(tx, slot);
    if (taken) throw conflict(`Slot ${slot} is already filled by ${taken.playerName}`);
    const player = await findPlayer(tx, playerId);
    if (!player) throw notFound(`No player with id ${playerId}`);
    if (player.draftRound !== null) {
      throw conflict(`${player.playerName} was already drafted (round ${player.draftRound}, pick ${player.draftPick})`);
    }
    setRoundOneResult(player, slot);
    return logAndNotify(tx, { kind: 'pick', slot, player: toPlayerDto(player) }, actor);
  });
}

/**
 * Undoes the last change: a manual "round one complete" mark first, otherwise the latest filled slot
 * (the highest one, which is the last recorded when the operator records in order).
 */
export function undoLast(em: EntityManager, actor: string) {
  return mutate(em, async (tx, state) => {
    if (state.roundOneComplete) {
      await updateDraftState(tx, { roundOneComplete: false });
      return logAndNotify(tx, { kind: 'reopen_round' }, actor);
    }
    const last = await lastRoundOneSelection(tx);
    if (!last) throw conflict('There is no recorded pick to undo');
    // The event shows the player as he was taken (slot and all), before the result is cleared.
    const taken = toPlayerDto(last);
    setRoundOneResult(last, null);
    return logAndNotify(tx, { kind: 'undo', slot: taken.draft_pick ?? undefined, player: taken }, actor);
  });
}

export function completeRoundOne(em: EntityManager, settings: DraftSettings, actor: string) {
  return mutate(em, async (tx, state) => {
    if (!hasStarted(state, settings)) throw conflict('The draft has not started yet');
    if (state.roundOneComplete) throw conflict('Round one is already marked complete');
    await updateDraftState(tx, { roundOneComplete: true });
    return logAndNotify(tx, { kind: 'complete_round' }, actor);
  });
}

/** Back to before the draft: no results, not started. For demos and rehearsals; the audit log keeps it. */
export function resetDraft(em: EntityManager, actor: string) {
  return mutate(em, async (tx) => {
    await clearDraftResults(tx);
    await updateDraftState(tx, { startedAt: null, roundOneComplete: false });
    return logAndNotify(tx, { kind: 'reset' }, actor);
  });
}

/** The audit log, newest first: who changed the draft, when, and what. */
export async function recentDraftEvents(em: EntityManager, limit = 100) {
  return (await latestDraftEvents(em, limit)).map(toAuditEntry);
}

/** Records the configured deadline in the draft state, so every process and query sees the same one. */
export async function syncDeadline(em: EntityManager, settings: DraftSettings): Promise<void> {
  await recordDeadline(em, settings.deadline);
}
