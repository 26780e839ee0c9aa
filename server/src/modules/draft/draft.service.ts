import type { EntityManager } from '@mikro-orm/postgresql';
import type { DraftChange, DraftStatus } from '@first-round/shared/schemas';
import { badRequest, conflict, notFound } from '../../errors.js';
import { sql, sqlOne } from '../../db/sql.js';

/** Everything the draft rules need to know about the world: the configured deadline, slots, and a clock. */
export interface DraftSettings {
  deadline: Date;
  roundOnePicks: number;
  now: () => Date;
}

export const DRAFT_CHANNEL = 'draft_changes';

export interface StateRow {
  last_event_id: number;
  /** A string from the driver (MikroORM keeps timestamps as text); read through `new Date()`. */
  started_at: Date | string | null;
  round_one_complete: boolean;
  picks_made: number;
}

export async function readState(em: EntityManager, lock = false): Promise<StateRow> {
  const row = await sqlOne<StateRow>(
    em,
    `select s.started_at, s.round_one_complete,
            (select count(*) from player where draft_round = 1)::int as picks_made,
            (select coalesce(max(id), 0) from draft_event)::int as last_event_id
       from draft_state s where s.id = 1 ${lock ? 'for update of s' : ''}`,
  );
  if (!row) throw new Error('draft_state row 1 is missing: migrations have not run');
  return row;
}

/** DESIGN: started once the operator starts it or once the deadline has passed. */
export function hasStarted(state: Pick<StateRow, 'started_at'>, settings: DraftSettings): boolean {
  return state.started_at !== null || settings.now().getTime() >= settings.deadline.getTime();
}

export async function getDraftStatus(em: EntityManager, settings: DraftSettings): Promise<DraftStatus> {
  return statusOf(await readState(em), settings);
}

export function statusOf(state: StateRow, settings: DraftSettings): DraftStatus {
  return {
    draftHasStarted: hasStarted(state, settings),
    deadline: settings.deadline.toISOString(),
    started_at: state.started_at ? new Date(state.started_at).toISOString() : null,
    picks_made: state.picks_made,
    round_one_complete: state.round_one_complete || state.picks_made >= settings.roundOnePicks,
    round_one_picks: settings.roundOnePicks,
    last_event_id: state.last_event_id,
  };
}

export async function isDraftStarted(em: EntityManager, settings: DraftSettings): Promise<boolean> {
  return hasStarted(await readState(em), settings);
}

async function logAndNotify(
  em: EntityManager,
  change: Omit<DraftChange, 'event_id' | 'at'>,
  actor: string,
): Promise<DraftChange> {
  const logged = await sqlOne<{ id: string; created_at: Date | string }>(
    em,
    `insert into draft_event (kind, slot, player_id, actor, detail) values ($1, $2, $3, $4, $5) returning id, created_at`,
    [change.kind, change.slot ?? null, change.player?.id ?? null, actor, change.player ? change.player.player_name : null],
  );
  const full: DraftChange = { ...change, event_id: Number(logged?.id), at: new Date(logged?.created_at ?? Date.now()).toISOString() };
  // NOTIFY inside the transaction: listeners (every server instance) hear it only once it commits.
  await sql(em, `select pg_notify($1, $2)`, [DRAFT_CHANNEL, JSON.stringify(full)]);
  return full;
}

type Mutation = (em: EntityManager, state: StateRow) => Promise<DraftChange>;

/** Every operator change runs serialised on the locked draft_state row, in one transaction. */
async function mutate(em: EntityManager, run: Mutation): Promise<DraftChange> {
  return em.transactional(async (tx) => run(tx, await readState(tx, true)));
}

export function startDraft(em: EntityManager, settings: DraftSettings, actor: string, kind: 'start' | 'auto_start' = 'start') {
  return mutate(em, async (tx, state) => {
    if (state.started_at) throw conflict('The draft has already started');
    await sql(tx, `update draft_state set started_at = $1, updated_at = now() where id = 1`, [settings.now()]);
    return logAndNotify(tx, { kind }, actor);
  });
}

interface PlayerRow {
  id: number;
  rank: number;
  player_name: string;
  position: string;
  school: string;
  draft_round: number | null;
  draft_pick: number | null;
}

export function recordPick(em: EntityManager, settings: DraftSettings, actor: string, slot: number, playerId: number) {
  return mutate(em, async (tx, state) => {
    if (!hasStarted(state, settings)) throw conflict('The draft has not started yet: start it before recording picks');
    if (!Number.isInteger(slot) || slot < 1 || slot > settings.roundOnePicks) {
      throw badRequest(`Slot must be a whole number from 1 to ${settings.roundOnePicks}`);
    }
    if (state.round_one_complete) throw conflict('Round one is marked complete: undo that before recording more picks');
    const taken = await sqlOne<PlayerRow>(tx, `select * from player where draft_round = 1 and draft_pick = $1`, [slot]);
    if (taken) throw conflict(`Slot ${slot} is already filled by ${taken.player_name}`);
    const player = await sqlOne<PlayerRow>(tx, `select * from player where id = $1`, [playerId]);
    if (!player) throw notFound(`No player with id ${playerId}`);
    if (player.draft_round !== null) {
      throw conflict(`${player.player_name} was already drafted (round ${player.draft_round}, pick ${player.draft_pick})`);
    }
    await sql(tx, `update player set draft_round = 1, draft_pick = $1 where id = $2`, [slot, playerId]);
    return logAndNotify(tx, { kind: 'pick', slot, player: publicPlayer({ ...player, draft_round: 1, draft_pick: slot }) }, actor);
  });
}

/**
 * Undoes the last change: a manual "round one complete" mark first, otherwise the latest filled slot
 * (the highest one, which is the last recorded when the operator records in order).
 */
export function undoLast(em: EntityManager, _settings: DraftSettings, actor: string) {
  return mutate(em, async (tx, state) => {
    if (state.round_one_complete) {
      await sql(tx, `update draft_state set round_one_complete = false, updated_at = now() where id = 1`);
      return logAndNotify(tx, { kind: 'reopen_round' }, actor);
    }
    const last = await sqlOne<PlayerRow>(
      tx,
      `select * from player where draft_round = 1 order by draft_pick desc limit 1`,
    );
    if (!last) throw conflict('There is no recorded pick to undo');
    await sql(tx, `update player set draft_round = null, draft_pick = null where id = $1`, [last.id]);
    return logAndNotify(tx, { kind: 'undo', slot: last.draft_pick ?? undefined, player: publicPlayer(last) }, actor);
  });
}

export function completeRoundOne(em: EntityManager, settings: DraftSettings, actor: string) {
  return mutate(em, async (tx, state) => {
    if (!hasStarted(state, settings)) throw conflict('The draft has not started yet');
    if (state.round_one_complete) throw conflict('Round one is already marked complete');
    await sql(tx, `update draft_state set round_one_complete = true, updated_at = now() where id = 1`);
    return logAndNotify(tx, { kind: 'complete_round' }, actor);
  });
}

/** Back to before the draft: no results, not started. For demos and rehearsals; the audit log keeps it. */
export function resetDraft(em: EntityManager, _settings: DraftSettings, actor: string) {
  return mutate(em, async (tx) => {
    await sql(tx, `update player set draft_round = null, draft_pick = null where draft_round is not null`);
    await sql(tx, `update draft_state set started_at = null, round_one_complete = false, updated_at = now() where id = 1`);
    return logAndNotify(tx, { kind: 'reset' }, actor);
  });
}

/** The audit log, newest first: who changed the draft, when, and what. */
export async function recentDraftEvents(em: EntityManager, limit = 100) {
  const rows = await sql<{ id: string; kind: string; slot: number | null; player_id: number | null; player_name: string | null; actor: string; created_at: Date }>(
    em,
    `select e.id, e.kind, e.slot, e.player_id, coalesce(p.player_name, e.detail) as player_name, e.actor, e.created_at
       from draft_event e left join player p on p.id = e.player_id
      order by e.id desc limit $1`,
    [limit],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), created_at: new Date(r.created_at).toISOString() }));
}

function publicPlayer(p: PlayerRow) {
  return {
    id: p.id,
    rank: p.rank,
    player_name: p.player_name,
    position: p.position,
    school: p.school,
    draft_round: p.draft_round,
    draft_pick: p.draft_pick,
  };
}

/** Records the configured deadline in the draft state, so every process and query sees the same one. */
export async function syncDeadline(em: EntityManager, settings: DraftSettings): Promise<void> {
  await sql(em, `update draft_state set deadline = $1 where id = 1 and deadline is distinct from $1`, [settings.deadline]);
}
