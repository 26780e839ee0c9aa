import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { bandForRank, type RiskBand } from '@first-round/shared/risk-bands';
import type { PlayerDto } from '@first-round/shared/schemas';
import type { BoardRow } from '@first-round/shared/players-csv';
import { sql } from '../../db/sql.js';
import { PlayerSchema, type Player } from './players.entities.js';

/**
 * The players module's data access: the big board and the draft results recorded on it. Other modules
 * (the draft, picks, the operator command) reach the `player` table only through these functions.
 */

/** A player as SQL reads him: `band` is null unless the board named it. */
export type PlayerRow = Omit<PlayerDto, 'band'> & { band: RiskBand | null };

/** The band a player shows: the board's own, else the one his rank falls in. */
export function withBand(row: PlayerRow): PlayerDto {
  return { ...row, band: row.band ?? bandForRank(row.rank) };
}

/** The one row→DTO mapping of a player (the board, draft changes, the audit log). */
export function toPlayerDto(p: Player): PlayerDto {
  return withBand({
    id: p.id,
    rank: p.rank,
    player_name: p.playerName,
    position: p.position,
    school: p.school,
    draft_round: p.draftRound,
    draft_pick: p.draftPick,
    band: p.band,
  });
}

/**
 * The big board, best first, with draft results once recorded: the players cache's loader. Plain SQL whose
 * columns are the DTO's: hydrating 200 entities took ~5× as long (measured), on every draft change.
 */
export async function listBoard(em: EntityManager): Promise<PlayerDto[]> {
  // Raw: the DTO's columns as they are, without hydrating 200 entities per draft change.
  const rows = await sql<PlayerRow>(em, `select id, rank, player_name, position, school, draft_round, draft_pick, band from player order by rank`);
  return rows.map(withBand);
}

/**
 * Sub-selects for other modules' hot statements, which read a player in the same round trip as their own
 * rows (the draft's state on every status read and lock check, the event log a reconnecting stream
 * catches up from). Only this module names its table; the others embed these.
 */
export const playerSubselects = {
  /** How many round-one slots are filled (an int). */
  roundOneFilled: `(select count(*)::int from player where draft_round = 1)`,
  /** The player whose id is `idColumn` as a PlayerRow (json; map it with withBand), or null. */
  rowById: (idColumn: string) =>
    `(select json_build_object('id', p.id, 'rank', p.rank, 'player_name', p.player_name, 'position', p.position, 'school', p.school,
                               'draft_round', p.draft_round, 'draft_pick', p.draft_pick, 'band', p.band)
        from player p where p.id = ${idColumn})`,
};

export async function countPlayers(em: EntityManager): Promise<number> {
  return em.count(PlayerSchema);
}

/** Which of `ids` name a player on the board. */
export async function existingPlayerIds(em: EntityManager, ids: readonly number[]): Promise<Set<number>> {
  const found = await em.find(PlayerSchema, { id: { $in: [...ids] } }, { fields: ['id'] });
  return new Set(found.map((p) => p.id));
}

/** Players whose name is one of `names`, compared case-insensitively as the board's unique index does. */
export async function playersNamed(em: EntityManager, names: readonly string[]): Promise<Player[]> {
  if (names.length === 0) return [];
  return em.find(PlayerSchema, { [raw('lower(player_name)')]: { $in: names.map((n) => n.toLowerCase()) } });
}

/** The operator command's lookup: players whose name or school contains `text`, best first. */
export async function searchPlayers(em: EntityManager, text: string, limit = 25): Promise<Player[]> {
  const like = `%${text}%`;
  return em.find(PlayerSchema, { $or: [{ playerName: { $ilike: like } }, { school: { $ilike: like } }] }, { orderBy: { rank: 'asc' }, limit });
}

// ---------------------------------------------------------------- draft results (written by the draft module)

export async function findPlayer(em: EntityManager, id: number): Promise<Player | null> {
  return em.findOne(PlayerSchema, { id });
}

/** The player taken at `slot` of round one, if any. */
/** Every player on the board, as entities (the season archive copies them). */
export function allPlayers(em: EntityManager): Promise<Player[]> {
  return em.find(PlayerSchema, {}, { orderBy: { rank: 'asc' }, refresh: true });
}

/** Whether `playerId` is the round-one pick at `slot` now. */
export async function isRoundOnePick(em: EntityManager, playerId: number, slot: number): Promise<boolean> {
  return (await em.count(PlayerSchema, { id: playerId, draftRound: 1, draftPick: slot })) > 0;
}

export async function playerAtRoundOneSlot(em: EntityManager, slot: number): Promise<Player | null> {
  return em.findOne(PlayerSchema, { draftRound: 1, draftPick: slot });
}

/** Round one's filled slots, in slot order. */
export async function roundOneSelections(em: EntityManager): Promise<Player[]> {
  return em.find(PlayerSchema, { draftRound: 1 }, { orderBy: { draftPick: 'asc' } });
}

/** The highest filled slot of round one (the last recorded when the operator records in order). */
export async function lastRoundOneSelection(em: EntityManager): Promise<Player | null> {
  return em.findOne(PlayerSchema, { draftRound: 1 }, { orderBy: { draftPick: 'desc' } });
}

/**
 * Records (slot) or clears (null) a loaded player's round-one result; written by the caller's next flush
 * (the draft's change and its audit-log entry go in one): nothing else is written, whoever holds him.
 */
export function setRoundOneResult(player: Player, slot: number | null): void {
  player.draftRound = slot === null ? null : 1;
  player.draftPick = slot;
}

/** Clears every recorded result in one statement (one trigger run for the whole board). */
export async function clearDraftResults(em: EntityManager): Promise<void> {
  await em.nativeUpdate(PlayerSchema, { draftRound: { $ne: null } }, { draftRound: null, draftPick: null });
}

// ---------------------------------------------------------------- board import

/**
 * Upserts the board's rows by name (case-insensitive) in one statement, so ids (and the picks and results
 * that hang on them) survive. Set-based SQL: one statement instead of a round trip per player, with the
 * rows as one JSON bind parameter. Run it with the rank constraint deferred (`deferRankUniqueness`).
 */
export async function upsertBoardRows(tx: EntityManager, rows: readonly BoardRow[]): Promise<{ inserted: number; updated: number }> {
  // Raw: the whole board upserted in one statement, counting inserts and updates.
  const [counts] = await sql<{ inserted: number; updated: number }>(
    tx,
    `with incoming as (
       select * from jsonb_to_recordset($1::jsonb) as r(rank int, player_name text, position text, school text, band text)
     ), upd as (
       update player p set rank = i.rank, player_name = i.player_name, position = i.position, school = i.school, band = i.band
         from incoming i where lower(p.player_name) = lower(i.player_name)
       returning p.id
     ), ins as (
       insert into player (rank, player_name, position, school, band)
       select i.rank, i.player_name, i.position, i.school, i.band from incoming i
        where not exists (select 1 from player p where lower(p.player_name) = lower(i.player_name))
        order by i.rank
       returning id
     )
     select (select count(*) from ins)::int as inserted, (select count(*) from upd)::int as updated`,
    [JSON.stringify(rows)],
  );
  return { inserted: counts?.inserted ?? 0, updated: counts?.updated ?? 0 };
}

/**
 * Players the new board leaves out: names compared lower-cased by PostgreSQL on both sides, as the
 * unique index compares them (the rows travel as one JSON parameter, as for the upsert).
 */
export async function playersLeftOff(tx: EntityManager, rows: readonly BoardRow[]): Promise<{ id: number; player_name: string }[]> {
  // Raw: names compared lower-cased by PostgreSQL against the new board, in one read.
  return sql<{ id: number; player_name: string }>(
    tx,
    `select id, player_name from player
      where lower(player_name) not in (select lower(r->>'player_name') from jsonb_array_elements($1::jsonb) r)`,
    [JSON.stringify(rows)],
  );
}

export async function deletePlayers(em: EntityManager, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await em.nativeDelete(PlayerSchema, { id: { $in: [...ids] } });
}

/**
 * Ranks may clash midway through an import (player_rank_unique is deferrable): deferred while the rows
 * move, then checked at once, inside the transaction, so a clash fails with a clear message instead of
 * at commit. Constraint statements have no ORM form.
 */
export async function deferRankUniqueness(tx: EntityManager, deferred: boolean): Promise<void> {
  await tx.execute(`set constraints player_rank_unique ${deferred ? 'deferred' : 'immediate'}`);
}
