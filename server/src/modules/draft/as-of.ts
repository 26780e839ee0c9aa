import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { draftStatusOutput, playersOutput, type DraftChange, type DraftStatus, type PlayerDto } from '@first-round/shared/schemas';
import { CappedCache } from '../../cache/capped.js';
import type { VersionSource } from '../../cache/versioned.js';
import type { Orm } from '../../db/orm.js';
import { sql, sqlOne } from '../../db/sql.js';
import { badRequest, conflict } from '../../errors.js';
import { prepareJson } from '../../responses/json-body.js';
import type { PlayersCache } from '../players/players.cache.js';
import { readDraftState, type DraftStateRow } from './draft.repository.js';
import { statusOf, type DraftSettings } from './draft.service.js';

/*
 * The draft as it was: its state after a given change of the audit log (a "moment"), for a page loaded
 * with a viewing delay, which shows at once what is older than the delay (docs/decisions.md, "No
 * spoilers"). Nothing more is stored: a moment is the draft as it is now with every change logged after
 * it taken back, newest first, from what each event records (a pick's player and slot, an undo's, a team
 * change's team before, the start, the "complete" mark). A reset records nothing of what it cleared, so a
 * moment before a reset that followed it is refused. Later rounds are not in the log: they stay as now.
 */

/** A read asked for the draft as it was (`before`) at a moment still to come, by the server's clock. */
export const BEFORE_IN_FUTURE = 'before must not be later than now: only the draft as it was can be read';
/** A read asked for the draft as it was before a reset that followed: what a reset cleared is not kept. */
export const BEFORE_RESET = 'The draft was reset since that moment: only its state after the reset can be read';

/** The draft after change `eventId` (0: before any change the log holds). */
export interface DraftMoment {
  eventId: number;
  /** When that change was recorded (null: no change). */
  at: Date | null;
  /** The state row, counts and order as they were then. */
  state: DraftStateRow;
  /** Round one's results then: player id → slot. */
  roundOne: ReadonlyMap<number, number>;
}

type EventRow = { id: string; kind: DraftChange['kind']; slot: number | null; player_id: number | null; team_before: string | null };

/** The draft after change `eventId`, read in one snapshot: the state now, less every change since. */
export async function readDraftMoment(em: EntityManager, eventId: number): Promise<DraftMoment> {
  return em.fork().transactional(
    async (tx) => {
      const now = await readDraftState(tx);
      // Raw: round one's results and the log since, as rows, in this snapshot.
      const results = await sql<{ id: number; draft_pick: number }>(tx, `select id, draft_pick from player where draft_round = 1`);
      const since = await sql<EventRow>(tx, `select id, kind, slot, player_id, team_before from draft_event where id > $1 order by id desc`, [eventId]);
      const at = eventId === 0 ? undefined : await sqlOne<{ created_at: string }>(tx, `select created_at from draft_event where id = $1`, [eventId]);
      const roundOne = new Map(results.map((r) => [r.id, r.draft_pick]));
      const teams = new Map(now.teams);
      let startedAt = now.startedAt;
      let roundOneComplete = now.roundOneComplete;
      for (const e of since) {
        if (e.kind === 'reset') throw conflict(BEFORE_RESET);
        if (e.kind === 'pick' && e.player_id !== null) roundOne.delete(e.player_id);
        else if (e.kind === 'undo' && e.player_id !== null && e.slot !== null) roundOne.set(e.player_id, e.slot);
        else if (e.kind === 'start' || e.kind === 'auto_start') startedAt = null;
        else if (e.kind === 'complete_round') roundOneComplete = false;
        else if (e.kind === 'reopen_round') roundOneComplete = true;
        else if ((e.kind === 'team' || e.kind === 'undo_team') && e.slot !== null) {
          if (e.team_before === null) teams.delete(e.slot);
          else teams.set(e.slot, e.team_before);
        }
      }
      const changedAt = at ? new Date(at.created_at) : null;
      const state: DraftStateRow = { startedAt, roundOneComplete, picksMade: roundOne.size, lastEventId: eventId, lastChangeAt: changedAt, teams };
      return { eventId, at: changedAt, state, roundOne };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}

/** The last change recorded before `before` (0: none). */
export async function lastEventBefore(em: EntityManager, before: Date): Promise<number> {
  // Raw: one id; the log is hundreds of rows, read newest first.
  const row = await sqlOne<{ id: string }>(em, `select id from draft_event where created_at < $1 order by id desc limit 1`, [before]);
  return row ? Number(row.id) : 0;
}

/** Moments kept: draft night's first visitors within one delay all ask for one or two of them. */
const MAX_MOMENTS = 16;

/**
 * Moments by change, each read once however many pages ask (kept while the board is the same: a board
 * import may renumber what a moment names), with the answers made of them (draft.status, players.list),
 * validated and serialised once per moment.
 */
export class DraftAsOfCache {
  private readonly moments = new CappedCache<number, { board: number; moment: Promise<DraftMoment> }>(MAX_MOMENTS);
  private readonly statuses = new WeakMap<DraftMoment, DraftStatus>();
  private readonly boards = new WeakMap<DraftMoment, { now: PlayerDto[]; then: PlayerDto[] }>();

  constructor(
    private readonly orm: Orm,
    private readonly settings: DraftSettings,
    private readonly players: Pick<PlayersCache, 'list'>,
    private readonly events: VersionSource,
  ) {}

  /**
   * The draft as of its last change before `before` (an ISO date-time, checked by the schema). A moment
   * later than the server's clock is refused: only what already happened can be read.
   */
  async moment(before: string): Promise<DraftMoment> {
    const when = new Date(before);
    if (when.getTime() > this.settings.now().getTime()) throw badRequest(BEFORE_IN_FUTURE);
    const eventId = await lastEventBefore(this.orm.em.fork(), when);
    const board = this.events.versionOf(['board']);
    const kept = this.moments.get(eventId);
    if (kept && kept.board === board) return kept.moment;
    const moment = readDraftMoment(this.orm.em, eventId);
    this.moments.set(eventId, { board, moment });
    // A failed read is not kept: the next asks again.
    void moment.catch(() => this.moments.get(eventId)?.moment === moment && this.moments.delete(eventId));
    return moment;
  }

  /** draft.status as it was at the last change before `before`. */
  async statusBefore(before: string): Promise<DraftStatus> {
    return this.status(await this.moment(before));
  }

  /** players.list as it was at the last change before `before`. */
  async boardBefore(before: string): Promise<PlayerDto[]> {
    return this.board(await this.moment(before));
  }

  /** draft.status as it was then; `draftHasStarted` by the deadline as of that change. */
  status(moment: DraftMoment): DraftStatus {
    let status = this.statuses.get(moment);
    if (!status) {
      const then = moment.at ?? this.settings.now();
      status = prepareJson(draftStatusOutput.parse(statusOf(moment.state, { ...this.settings, now: () => then })));
      this.statuses.set(moment, status);
    }
    return status;
  }

  /** players.list as it was then: the board as now, with round one's results of that moment. */
  async board(moment: DraftMoment): Promise<PlayerDto[]> {
    const now = await this.players.list();
    const made = this.boards.get(moment);
    if (made?.now === now) return made.then;
    const then = prepareJson(playersOutput.parse(now.map((p) => roundOneAsOf(p, moment))));
    this.boards.set(moment, { now, then });
    return then;
  }
}

/** A player as the board showed him at `moment`: his round-one slot then, or undrafted if he went in it since. */
function roundOneAsOf(p: PlayerDto, moment: DraftMoment): PlayerDto {
  const slot = moment.roundOne.get(p.id);
  if (slot !== undefined) return { ...p, draft_round: 1, draft_pick: slot };
  return p.draft_round === 1 ? { ...p, draft_round: null, draft_pick: null } : p;
}
