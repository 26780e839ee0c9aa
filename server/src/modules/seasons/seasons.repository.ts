import type { EntityManager } from '@mikro-orm/postgresql';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import { sql, sqlOne, sqlRows } from '../../db/sql.js';
import { entrySetGroupSql } from '../groups/entry-rule.js';
import { SeasonSchema, type Season } from './seasons.entities.js';

/**
 * The seasons module's data access. Closing a season copies the game's tables (the board, groups, the
 * audit log, picks) into the archive in set-based statements: this is the one place that reads them all,
 * once per season, inside the closing transaction. Archive reads are plain SQL.
 */

/** Serialises season changes (two `season new` at once): held until the transaction ends. */
export async function lockSeasons(tx: EntityManager): Promise<void> {
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
  await sql(
    tx,
    `insert into season_player (season, player_id, rank, player_name, position, school, draft_round, draft_pick, band)
     select $1, id, rank, player_name, position, school, draft_round, draft_pick, band from player`,
    [year],
  );
  await sql(tx, `insert into season_group (season, group_id, name, is_public, picks_public) select $1, id, name, is_public, picks_public from groups`, [year]);
}

/** Round one's order as it stood at the close (traded picks included): the archive shows who took whom. */
export async function archiveOrder(tx: EntityManager, year: number): Promise<void> {
  await sql(tx, `insert into season_round_one_order (season, slot, team) select $1, slot, team from round_one_order`, [year]);
}

/** The audit log, events as they were logged (ids kept: they are the order of the night). */
export async function archiveDraftEvents(tx: EntityManager, year: number): Promise<number> {
  const rows = await sql(
    tx,
    `insert into season_draft_event (season, event_id, kind, slot, player_id, actor, detail, team, team_before, created_at)
     select $1, id, kind, slot, player_id, actor, detail, team, team_before, created_at from draft_event returning event_id`,
    [year],
  );
  return rows.length;
}

/** Every membership: whose standings are worth keeping (every group with a member), and who is in each. */
export async function allMemberships(tx: EntityManager): Promise<Map<number, [participantId: string, useGlobalPicks: boolean][]>> {
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
  await sql(
    tx,
    `update season s set closed_at = now(), started_at = d.started_at, deadline = coalesce(d.deadline, s.deadline), round_one_picks = $2
       from draft_state d where d.id = 1 and s.year = $1`,
    [year, roundOnePicks],
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

export function findSeasonGroup(em: EntityManager, year: number, groupId: number): Promise<SeasonGroupRow | undefined> {
  return sqlOne<SeasonGroupRow>(em, `select name, picks_public from season_group where season = $1 and group_id = $2`, [year, groupId]);
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

const ENTRY_COLUMNS = 'rank, participant_id, participant_name, correct_picks, hits, picks, busted, tiebreak_rank';

/** A page of a group's final standings, in the leaderboard's order. */
export function seasonEntries(em: EntityManager, year: number, groupId: number, limit: number, offset: number): Promise<SeasonEntryRow[]> {
  return sql<SeasonEntryRow>(
    em,
    `select ${ENTRY_COLUMNS} from season_entry where season = $1 and group_id = $2
      order by rank, participant_id collate "C" limit $3 offset $4`,
    [year, groupId, limit, offset],
  );
}

export async function countSeasonEntries(em: EntityManager, year: number, groupId: number): Promise<number> {
  const row = await sqlOne<{ n: number }>(em, `select count(*)::int as n from season_entry where season = $1 and group_id = $2`, [year, groupId]);
  return row?.n ?? 0;
}

export function seasonEntryOf(em: EntityManager, year: number, groupId: number, participantId: string): Promise<SeasonEntryRow | undefined> {
  return sqlOne<SeasonEntryRow>(em, `select ${ENTRY_COLUMNS} from season_entry where season = $1 and group_id = $2 and participant_id = $3`, [
    year,
    groupId,
    participantId,
  ]);
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
export function seasonPicksOf(em: EntityManager, year: number, groupId: number, participantIds: readonly string[]): Promise<SeasonPickRow[]> {
  if (participantIds.length === 0) return Promise.resolve([]);
  return sql<SeasonPickRow>(
    em,
    `select k.participant_id, k.player_id, p.player_name, p.position, p.school, p.rank,
            case when p.draft_round = 1 then p.draft_pick end as draft_pick, o.team, k.hit
       from season_entry_pick k
       join season_player p on p.season = k.season and p.player_id = k.player_id
       left join season_round_one_order o on o.season = k.season and p.draft_round = 1 and o.slot = p.draft_pick
      where k.season = $1 and k.group_id = $2 and k.participant_id = any($3::text[])
      order by p.rank`,
    [year, groupId, [...participantIds]],
  );
}
