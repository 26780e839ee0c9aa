import { raw, type EntityName, type RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import { sql, sqlRows } from '../../db/sql.js';
import { DraftEventSchema, DraftStateSchema, RoundOneOrderSchema } from '../draft/draft.entities.js';
import { entrySetGroupSql } from '../groups/entry-rule.js';
import { allPlayers } from '../players/players.repository.js';
import {
  SeasonDraftEventSchema,
  SeasonEntryPickSchema,
  SeasonEntrySchema,
  SeasonGroupSchema,
  SeasonPlayerSchema,
  SeasonRoundOneOrderSchema,
  SeasonSchema,
  type Season,
} from './seasons.entities.js';

/**
 * The seasons module's data access. Closing a season copies the game's tables (the board, groups, the
 * audit log, picks) into the archive, inside the closing transaction: this is the one place that reads
 * them all, once per season. The small ones (the board, the order, the audit log) go through the
 * entities; those as large as the player base (groups, entries, their picks) go in set-based statements.
 * Writes are native, which the identity map does not see, so entity reads pass `refresh: true`.
 */

/** Rows written per insert of entities: well inside PostgreSQL's 65,535 bind parameters a statement. */
const INSERT_BATCH = 1_000;

async function insertInBatches<T extends object>(tx: EntityManager, entity: EntityName<T>, rows: readonly RequiredEntityData<T>[]): Promise<void> {
  for (let at = 0; at < rows.length; at += INSERT_BATCH) await tx.insertMany<T>(entity, rows.slice(at, at + INSERT_BATCH) as RequiredEntityData<T>[]);
}

/** Serialises season changes (two `season new` at once): held until the transaction ends. */
export async function lockSeasons(tx: EntityManager): Promise<void> {
  // Raw: an advisory lock, which the ORM has no words for.
  await sql(tx, `select pg_advisory_xact_lock(hashtext('first-round:season'))`);
}

export function findCurrentSeason(em: EntityManager): Promise<Season | null> {
  return em.findOne(SeasonSchema, { closedAt: null });
}

export function findSeason(em: EntityManager, year: number): Promise<Season | null> {
  return em.findOne(SeasonSchema, { year });
}

export function findAllSeasons(em: EntityManager): Promise<Season[]> {
  return em.find(SeasonSchema, {}, { orderBy: { year: 'desc' } });
}

export async function insertSeason(tx: EntityManager, year: number, deadline: Date): Promise<void> {
  await tx.insert(SeasonSchema, { year, deadline });
}

// ---------------------------------------------------------------- archiving the closing season

/** The board with its draft results, and every group as it is now (names can change or go later). */
export async function archiveBoardAndGroups(tx: EntityManager, year: number): Promise<void> {
  const board = await allPlayers(tx);
  await insertInBatches(
    tx,
    SeasonPlayerSchema,
    board.map((p) => ({ season: year, playerId: p.id, rank: p.rank, playerName: p.playerName, position: p.position, school: p.school, draftRound: p.draftRound, draftPick: p.draftPick, band: p.band })),
  );
  // Raw: every group in one statement (as many as the players).
  await sql(tx, `insert into season_group (season, group_id, name, is_public, picks_public) select $1, id, name, is_public, picks_public from groups`, [year]);
}

/** Round one's order as it stood at the close (traded picks included): the archive shows who took whom. */
export async function archiveOrder(tx: EntityManager, year: number): Promise<void> {
  const order = await tx.find(RoundOneOrderSchema, {}, { refresh: true });
  await insertInBatches(tx, SeasonRoundOneOrderSchema, order.map((o) => ({ season: year, slot: o.slot, team: o.team })));
}

/** The audit log, events as they were logged (ids kept: they are the order of the night). */
export async function archiveDraftEvents(tx: EntityManager, year: number): Promise<number> {
  const events = await tx.find(DraftEventSchema, {}, { orderBy: { id: 'asc' }, refresh: true });
  await insertInBatches(
    tx,
    SeasonDraftEventSchema,
    events.map((e) => ({ season: year, eventId: e.id, kind: e.kind, slot: e.slot, playerId: e.player?.id ?? null, actor: e.actor, detail: e.detail, team: e.team, teamBefore: e.teamBefore, createdAt: e.createdAt })),
  );
  return events.length;
}

/** Every membership: whose standings are worth keeping (every group with a member), and who is in each. */
export async function allMemberships(tx: EntityManager): Promise<Map<number, [participantId: string, useGlobalPicks: boolean][]>> {
  // Raw: every membership, each row an array (a million members).
  const rows = await sqlRows<[number, string, boolean]>(tx, `select group_id, participant_id, use_global_picks from group_membership order by group_id`);
  const groups = new Map<number, [string, boolean][]>();
  for (const [groupId, participantId, useGlobalPicks] of rows) {
    let members = groups.get(groupId);
    if (!members) groups.set(groupId, (members = []));
    members.push([participantId, useGlobalPicks]);
  }
  return groups;
}

/** Rows archived per statement: a million entries go in a few dozen statements, never as one huge value. */
const ARCHIVE_BATCH = 20_000;

/** One group's final standings (rows as the game ranked them), stored as the group's final standings. */
export async function archiveStandings(tx: EntityManager, year: number, groupId: number, rows: Iterable<LeaderboardRow>): Promise<number> {
  let batch: LeaderboardRow[] = [];
  let archived = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    // Raw: a batch of entries in one statement (unnest), as many as the players.
    await sql(
      tx,
      `insert into season_entry (season, group_id, participant_id, participant_name, rank, picks, correct_picks, busted, tiebreak_rank)
       select $1::int, $2::int, * from unnest($3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::bool[], $9::int[])`,
      [
        year,
        groupId,
        batch.map((r) => r.participant_id),
        batch.map((r) => r.participant_name),
        batch.map((r) => r.rank),
        batch.map((r) => r.picks),
        batch.map((r) => r.correct_picks),
        batch.map((r) => r.busted),
        batch.map((r) => r.tiebreak_rank),
      ],
    );
    archived += batch.length;
    batch = [];
  };
  for (const row of rows) {
    batch.push(row);
    if (batch.length >= ARCHIVE_BATCH) await flush();
  }
  await flush();
  return archived;
}

/**
 * Each archived entry's picks (a group entry reusing the global picks gets those), each a hit when its
 * player is one of `hits` (the players the rules count as hits: scoring.ts decides, not this query), then
 * each entry's hit count.
 */
export async function archiveEntryPicks(tx: EntityManager, year: number, hits: readonly number[]): Promise<void> {
  // Raw: every entry's picks copied and counted set-based, two statements for a million entries.
  await sql(
    tx,
    `insert into season_entry_pick (season, group_id, participant_id, player_id, hit)
     select e.season, e.group_id, e.participant_id, k.player_id, k.player_id = any($2::int[])
       from season_entry e
       left join group_membership m on m.group_id = e.group_id and m.participant_id = e.participant_id
       join pick k on k.participant_id = e.participant_id
                  and k.group_id = ${entrySetGroupSql('e.group_id', 'm.use_global_picks')}
      where e.season = $1`,
    [year, hits],
  );
  await sql(
    tx,
    `update season_entry e set hits = (select count(*) from season_entry_pick k
                                         where k.season = e.season and k.group_id = e.group_id and k.participant_id = e.participant_id and k.hit)
      where e.season = $1`,
    [year],
  );
}

/** Marks the season closed, with the deadline and start the draft actually had. */
export async function closeSeason(tx: EntityManager, year: number, roundOnePicks: number): Promise<void> {
  const draft = await tx.findOne(DraftStateSchema, { id: 1 }, { refresh: true });
  if (!draft) return;
  await tx.nativeUpdate(
    SeasonSchema,
    { year },
    { closedAt: raw('now()'), startedAt: draft.startedAt, roundOnePicks, ...(draft.deadline === null ? {} : { deadline: draft.deadline }) },
  );
}

// ---------------------------------------------------------------- reading the archive

export interface SeasonSummaryRow {
  year: number;
  closed: boolean;
  /** Null: the group was not there when the season closed (or the season is open). */
  entries: number | null;
  winners: { participant_id: string; participant_name: string }[];
  winning_score: number | null;
  my_rank: number | null;
}

/** Per closed season: entries, winners and the caller's rank, in `groupId` (1: globally). */
export async function seasonResults(em: EntityManager, groupId: number, participantId: string): Promise<SeasonSummaryRow[]> {
  // Raw: per season, counts and winners aggregated in one statement.
  return sql<SeasonSummaryRow>(
    em,
    `select s.year, s.closed_at is not null as closed,
            case when g.group_id is null then null
                 else (select count(*) from season_entry e where e.season = s.year and e.group_id = $1)::int end as entries,
            (select coalesce(json_agg(json_build_object('participant_id', e.participant_id, 'participant_name', e.participant_name)
                                      order by e.participant_id collate "C"), '[]'::json)
               from season_entry e where e.season = s.year and e.group_id = $1 and e.rank = 1) as winners,
            (select max(e.correct_picks) from season_entry e where e.season = s.year and e.group_id = $1 and e.rank = 1)::int as winning_score,
            (select e.rank from season_entry e where e.season = s.year and e.group_id = $1 and e.participant_id = $2) as my_rank
       from season s
       left join season_group g on g.season = s.year and g.group_id = $1
      order by s.year desc`,
    [groupId, participantId],
  );
}

export interface SeasonGroupRow {
  name: string;
  picks_public: boolean;
}

export async function findSeasonGroup(em: EntityManager, year: number, groupId: number): Promise<SeasonGroupRow | undefined> {
  const row = await em.findOne(SeasonGroupSchema, { season: year, groupId }, { refresh: true });
  return row ? { name: row.name, picks_public: row.picksPublic } : undefined;
}

export interface SeasonEntryRow {
  rank: number;
  participant_id: string;
  participant_name: string;
  correct_picks: number;
  hits: number;
  picks: number;
  busted: boolean;
  tiebreak_rank: number | null;
}

function toEntryRow(e: { rank: number; participantId: string; participantName: string; correctPicks: number; hits: number; picks: number; busted: boolean; tiebreakRank: number | null }): SeasonEntryRow {
  return {
    rank: e.rank,
    participant_id: e.participantId,
    participant_name: e.participantName,
    correct_picks: e.correctPicks,
    hits: e.hits,
    picks: e.picks,
    busted: e.busted,
    tiebreak_rank: e.tiebreakRank,
  };
}

/** A page of a group's final standings, in the leaderboard's order. */
export async function seasonEntries(em: EntityManager, year: number, groupId: number, limit: number, offset: number): Promise<SeasonEntryRow[]> {
  const rows = await em.find(
    SeasonEntrySchema,
    { season: year, groupId },
    { orderBy: [{ rank: 'asc' }, { [raw('participant_id collate "C"')]: 'asc' }], limit, offset, refresh: true },
  );
  return rows.map(toEntryRow);
}

export function countSeasonEntries(em: EntityManager, year: number, groupId: number): Promise<number> {
  return em.count(SeasonEntrySchema, { season: year, groupId });
}

export async function seasonEntryOf(em: EntityManager, year: number, groupId: number, participantId: string): Promise<SeasonEntryRow | undefined> {
  const row = await em.findOne(SeasonEntrySchema, { season: year, groupId, participantId }, { refresh: true });
  return row ? toEntryRow(row) : undefined;
}

export interface SeasonPickRow {
  participant_id: string;
  player_id: number;
  player_name: string;
  position: string;
  school: string;
  rank: number;
  draft_pick: number | null;
  team: string | null;
  hit: boolean;
}

/** The archived picks of some entries of a group, best-ranked first. */
export async function seasonPicksOf(em: EntityManager, year: number, groupId: number, participantIds: readonly string[]): Promise<SeasonPickRow[]> {
  if (participantIds.length === 0) return [];
  const picks = await em.find(SeasonEntryPickSchema, { season: year, groupId, participantId: { $in: [...participantIds] } }, { refresh: true });
  if (picks.length === 0) return [];
  const players = await em.find(SeasonPlayerSchema, { season: year, playerId: { $in: [...new Set(picks.map((k) => k.playerId))] } }, { refresh: true });
  const order = await em.find(SeasonRoundOneOrderSchema, { season: year }, { refresh: true });
  const byId = new Map(players.map((p) => [p.playerId, p]));
  const teams = new Map(order.map((o) => [o.slot, o.team]));
  return picks
    .map((k) => {
      const p = byId.get(k.playerId)!;
      const draftPick = p.draftRound === 1 ? p.draftPick : null;
      return {
        participant_id: k.participantId,
        player_id: k.playerId,
        player_name: p.playerName,
        position: p.position,
        school: p.school,
        rank: p.rank,
        draft_pick: draftPick,
        team: draftPick === null ? null : (teams.get(draftPick) ?? null),
        hit: k.hit,
      };
    })
    .sort((a, b) => a.rank - b.rank);
}
