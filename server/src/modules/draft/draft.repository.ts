import { raw, type EntityManager } from '@mikro-orm/postgresql';
import type { DraftChange } from '@first-round/shared/schemas';
import { sql, sqlOne } from '../../db/sql.js';
import { playerSubselects, withBand, type PlayerRow } from '../players/players.repository.js';
import { DraftEventSchema, DraftStateSchema, type DraftEvent } from './draft.entities.js';
import { ORDER_SUBSELECT } from './order.repository.js';

/**
 * The draft module's data access: its state row and its audit log. The results themselves are written
 * on the board through the players module.
 */


/** What the draft's rules read: its state row, how many round-one slots are filled, the newest event, the order. */
export interface DraftStateRow {
  startedAt: Date | null;
  roundOneComplete: boolean;
  picksMade: number;
  lastEventId: number;
  /** When the newest event was recorded (null: none). */
  lastChangeAt: Date | null;
  /** Round one's order: slot → the team holding it now (slots without a known team are absent). */
  teams: ReadonlyMap<number, string>;
}

/**
 * The draft's state in one statement: the status cache loads it on every draft change and every lock check
 * reads it (plain SQL: through the query builder it took 2–3× as long, measured). `lock` takes the state
 * row for update: every operator change, the board import and the deadline's start queue on it. The order
 * (at most a few dozen rows) comes in the same statement, so a status never pairs one moment's picks with
 * another's teams.
 */
export async function readDraftState(em: EntityManager, options: { lock?: boolean } = {}): Promise<DraftStateRow> {
  // Raw: the state, its counts and the order in one statement, locked when asked (for update).
  const row = await sqlOne<{ started_at: string | null; round_one_complete: boolean; picks_made: number; last_event_id: number; last_change_at: string | null; teams: [number, string][] }>(
    em,
    `select s.started_at, s.round_one_complete, ${playerSubselects.roundOneFilled} as picks_made,
            (select coalesce(max(id), 0) from draft_event)::int as last_event_id,
            (select created_at from draft_event order by id desc limit 1) as last_change_at, ${ORDER_SUBSELECT} as teams
       from draft_state s where s.id = 1 ${options.lock ? 'for update of s' : ''}`,
  );
  if (!row) throw new Error('draft_state row 1 is missing: migrations have not run');
  return {
    // The driver hands timestamps over as text (MikroORM's setting); entities convert them, raw rows here.
    startedAt: row.started_at === null ? null : new Date(row.started_at),
    roundOneComplete: row.round_one_complete,
    picksMade: row.picks_made,
    lastEventId: row.last_event_id,
    lastChangeAt: row.last_change_at === null ? null : new Date(row.last_change_at),
    teams: new Map(row.teams),
  };
}

/** Changes the state row (`updated_at` from the database's clock, as every other timestamp). */
export async function updateDraftState(em: EntityManager, changes: { startedAt?: Date | null; roundOneComplete?: boolean }): Promise<void> {
  await em.nativeUpdate(DraftStateSchema, { id: 1 }, { ...changes, updatedAt: raw('now()') });
}

/** Records the configured deadline, writing only when it differs (every instance runs this at start). */
export async function recordDeadline(em: EntityManager, deadline: Date): Promise<void> {
  await em.nativeUpdate(DraftStateSchema, { id: 1, $or: [{ deadline: null }, { deadline: { $ne: deadline } }] }, { deadline });
}

/** Appends a change to the audit log, flushing the caller's other changes with it; id and time come back from the insert. */
export async function appendDraftEvent(em: EntityManager, change: Omit<DraftChange, 'event_id' | 'at'>, actor: string): Promise<DraftEvent> {
  const event = em.create(DraftEventSchema, {
    kind: change.kind,
    slot: change.slot ?? null,
    player: change.player?.id ?? null,
    actor,
    detail: change.player?.player_name ?? null,
    team: change.team ?? null,
    teamBefore: change.team_before ?? null,
  });
  await em.flush();
  return event;
}

/** The audit log, newest first, with each event's player as the board has him now. */
export async function latestDraftEvents(em: EntityManager, limit: number): Promise<DraftEvent[]> {
  return em.find(DraftEventSchema, {}, { populate: ['player'], orderBy: { id: 'desc' }, limit });
}

/**
 * Changes logged after `afterId`, oldest first, each with its player as the board has him now: what a
 * reconnecting stream catches up from (every open page after a network blip). Plain SQL, one round trip:
 * loading entities took several times as long (measured).
 */
export function draftChangesAfter(em: EntityManager, afterId: number, limit: number): Promise<DraftChange[]> {
  return draftChangesWhere(em, `e.id > $1 order by e.id limit $2`, [afterId, limit]);
}

/** The changes with these ids, oldest first, as `draftChangesAfter` gives them: one round trip for any number. */
export async function draftChangesByIds(em: EntityManager, ids: readonly number[]): Promise<DraftChange[]> {
  return ids.length === 0 ? [] : draftChangesWhere(em, `e.id = any($1::bigint[]) order by e.id`, [ids]);
}

/** Audit-log events as the live stream carries them, chosen by `where` (its condition and order). */
async function draftChangesWhere(em: EntityManager, where: string, params: readonly unknown[]): Promise<DraftChange[]> {
  // Raw: events joined with their players in the live stream's shape, by a caller's condition.
  const rows = await sql<DraftChangeRow>(
    em,
    `select e.id, e.kind, e.slot, e.team, e.team_before, e.created_at, ${playerSubselects.rowById('e.player_id')} as player
       from draft_event e where ${where}`,
    params,
  );
  return rows.map(toDraftChange);
}

// ---------------------------------------------------------------- rows and entities → DTOs

/** An event row as the driver returns it: bigint ids and timestamps as text. */
interface DraftChangeRow {
  id: string;
  kind: DraftChange['kind'];
  slot: number | null;
  team: string | null;
  team_before: string | null;
  created_at: string;
  player: PlayerRow | null;
}

/** An audit-log event as the live stream carries it. */
function toDraftChange(r: DraftChangeRow): DraftChange {
  const change: DraftChange = { event_id: Number(r.id), kind: r.kind, slot: r.slot ?? undefined, at: new Date(r.created_at).toISOString(), player: r.player ? withBand(r.player) : undefined };
  // Team changes carry their teams (as they went out live); other changes have none.
  return r.kind === 'team' || r.kind === 'undo_team' ? { ...change, team: r.team, team_before: r.team_before } : change;
}

/** An audit-log event as the operator console lists it: a player who left the board keeps his name. */
export function toAuditEntry(e: DraftEvent) {
  return {
    id: e.id,
    kind: e.kind,
    slot: e.slot,
    player_id: e.player?.id ?? null,
    player_name: e.player?.playerName ?? e.detail,
    team: e.team,
    team_before: e.teamBefore,
    actor: e.actor,
    created_at: e.createdAt.toISOString(),
  };
}

/** Empties the audit log (a new season: the closed one's log is archived first, seasons.repository.ts). */
export async function deleteDraftEvents(tx: EntityManager): Promise<void> {
  await tx.nativeDelete(DraftEventSchema, {});
}

/** The newest event of a kind (0: none): what undo compares a team change with ('complete_round', 'pick' at `slot`). */
export async function latestEventId(em: EntityManager, kind: DraftChange['kind'], slot?: number): Promise<number> {
  const row = await em.findOne(DraftEventSchema, { kind, ...(slot === undefined ? {} : { slot }) }, { fields: ['id'], orderBy: { id: 'desc' }, refresh: true });
  return row?.id ?? 0;
}
