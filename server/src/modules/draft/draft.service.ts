import type { EntityManager } from '@mikro-orm/postgresql';
import type { DraftChange, DraftStatus, NextUndo } from '@first-round/shared/schemas';
import { findTeam } from '@first-round/shared/teams';
import type { Config } from '../../config.js';
import { badRequest, conflict, invalidInput, notFound } from '../../errors.js';
import type { Player } from '../players/players.entities.js';
import { clearDraftResults, findPlayer, lastRoundOneSelection, playerAtRoundOneSlot, setRoundOneResult, toPlayerDto } from '../players/players.repository.js';
import {
  appendDraftEvent,
  latestDraftEvents,
  latestEventId,
  readDraftState,
  recordDeadline,
  toAuditEntry,
  updateDraftState,
  type DraftStateRow,
} from './draft.repository.js';
import { publish } from '../../events/topic-bus.js';
import { deleteOrderChange, insertOrderChange, latestOrderChange, orderSlot, writeOrderSlot, type OrderChangeRow } from './order.repository.js';

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

/** docs/rules.md, "The draft's phases": started once the operator starts it or once the deadline has passed. */
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
    last_change_at: state.lastChangeAt?.toISOString() ?? null,
    round_one_order: Array.from({ length: settings.roundOnePicks }, (_, i) => ({ slot: i + 1, team: state.teams.get(i + 1) ?? null })),
  };
}

export async function isDraftStarted(em: EntityManager, settings: DraftSettings): Promise<boolean> {
  return hasStarted(await readDraftState(em), settings);
}

/** Logs the change, then announces it (heard by every instance once the transaction commits). */
async function logAndNotify(em: EntityManager, change: Omit<DraftChange, 'event_id' | 'at'>, actor: string): Promise<DraftChange> {
  const logged = await appendDraftEvent(em, change, actor);
  const full: DraftChange = { ...change, event_id: logged.id, at: logged.createdAt.toISOString() };
  await publish(em, 'draft', full);
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

function checkSlot(slot: number, settings: DraftSettings) {
  if (!Number.isInteger(slot) || slot < 1 || slot > settings.roundOnePicks) {
    throw badRequest(`Slot must be a whole number from 1 to ${settings.roundOnePicks}`);
  }
}

export function recordPick(em: EntityManager, settings: DraftSettings, actor: string, slot: number, playerId: number) {
  return mutate(em, async (tx, state) => {
    if (!hasStarted(state, settings)) throw conflict('The draft has not started yet: start it before recording picks');
    checkSlot(slot, settings);
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
 * Gives a round-one slot to another team (a traded pick; the operator's, or the feed's report): logged,
 * announced, and undone by undo while it is the last change (docs/decisions.md, "Teams on the clock").
 * Allowed before, during and after round one: the order is season data, corrected whenever it is wrong.
 */
export function setSlotTeam(em: EntityManager, settings: DraftSettings, actor: string, slot: number, team: string) {
  return mutate(em, async (tx) => {
    checkSlot(slot, settings);
    const known = findTeam(team);
    if (!known) throw invalidInput(`team "${team}" is not one of the 32 NFL teams (an abbreviation such as SEA)`);
    const current = await orderSlot(tx, slot);
    if (current?.team === known.abbreviation) throw conflict(`Pick ${slot} already belongs to ${known.abbreviation} (${known.name})`);
    const change = await logAndNotify(tx, { kind: 'team', slot, team: known.abbreviation, team_before: current?.team ?? null }, actor);
    await insertOrderChange(tx, { eventId: change.event_id, slot, teamBefore: current?.team ?? null, changedByBefore: current?.changedBy ?? null });
    await writeOrderSlot(tx, slot, known.abbreviation, change.event_id);
    return change;
  });
}

/** What undo takes back, decided in one place for the undo itself and the console's question. */
type UndoTarget = { kind: 'reopen_round' } | { kind: 'undo'; player: Player } | { kind: 'undo_team'; change: OrderChangeRow };

/**
 * The newest of: the manual "round one complete" mark, the pick at the highest filled slot (the latest
 * pick when the operator records in order), the latest team change since the last reset. A pick is
 * refused while the mark is set, so a pick is never newer than the mark; a team change can be.
 */
async function undoTarget(em: EntityManager, state: DraftStateRow): Promise<UndoTarget | null> {
  const team = await latestOrderChange(em);
  const newerThanTeam = async (kind: 'complete_round' | 'pick', slot?: number) => !team || (await latestEventId(em, kind, slot)) > team.eventId;
  if (state.roundOneComplete && (await newerThanTeam('complete_round'))) return { kind: 'reopen_round' };
  const last = await lastRoundOneSelection(em);
  if (last && (await newerThanTeam('pick', last.draftPick!))) return { kind: 'undo', player: last };
  return team ? { kind: 'undo_team', change: team } : null;
}

export const NOTHING_TO_UNDO = 'There is nothing to undo: no recorded pick, and no team change since the last reset';

/** Undoes the last change (undoTarget says which); a team change gives the slot back to the team before. */
export function undoLast(em: EntityManager, actor: string) {
  return mutate(em, async (tx, state) => {
    const target = await undoTarget(tx, state);
    if (!target) throw conflict(NOTHING_TO_UNDO);
    if (target.kind === 'reopen_round') {
      await updateDraftState(tx, { roundOneComplete: false });
      return logAndNotify(tx, { kind: 'reopen_round' }, actor);
    }
    if (target.kind === 'undo_team') {
      const { slot, teamBefore, changedByBefore, eventId } = target.change;
      const now = state.teams.get(slot) ?? null;
      const change = await logAndNotify(tx, { kind: 'undo_team', slot, team: teamBefore, team_before: now }, actor);
      await deleteOrderChange(tx, eventId);
      await writeOrderSlot(tx, slot, teamBefore, changedByBefore);
      return change;
    }
    // The event shows the player as he was taken (slot and all), before the result is cleared.
    const taken = toPlayerDto(target.player);
    setRoundOneResult(target.player, null);
    return logAndNotify(tx, { kind: 'undo', slot: taken.draft_pick ?? undefined, player: taken }, actor);
  });
}

/** What undo would take back now, for the operator to see before undoing (null: nothing). */
export async function nextUndo(em: EntityManager): Promise<NextUndo> {
  const fork = em.fork();
  const state = await readDraftState(fork);
  const target = await undoTarget(fork, state);
  if (!target) return null;
  if (target.kind === 'reopen_round') return { kind: 'reopen_round', slot: null, player_name: null, team: null, team_before: null };
  if (target.kind === 'undo') return { kind: 'undo', slot: target.player.draftPick, player_name: target.player.playerName, team: null, team_before: null };
  const { slot, teamBefore } = target.change;
  return { kind: 'undo_team', slot, player_name: null, team: teamBefore, team_before: state.teams.get(slot) ?? null };
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
