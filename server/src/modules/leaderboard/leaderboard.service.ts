import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { type FieldRow, type Leaderboard, type LeaderboardInput, type LeaderboardRow, type MyGroupStandings, type StandingOdds } from '@first-round/shared/schemas';
import { enveloped, jsonBody, jsonTemplate, jsonText, type JsonBody } from '../../responses/json-body.js';
import { after, type MaybePromise } from '../../cache/maybe-promise.js';
import { conflict, notFound } from '../../errors.js';
import { sql } from '../../db/sql.js';
import type { AppDeps } from '../../deps.js';
import { findMembership } from '../groups/membership.js';
import { entrySetGroupSql } from '../groups/entry-rule.js';
import { entryModeOf } from '@first-round/shared/entries';
import { positionIn, type RankedRows, type Standings } from './standings.js';

type StandingsDeps = Pick<AppDeps, 'draftStatus' | 'leaderboards' | 'benchmarks'>;
/** What a read as of an earlier moment needs besides (`before`). */
type AsOfDeps = StandingsDeps & Pick<AppDeps, 'draftAsOf' | 'asOfStandings'>;

/** What every reader of one standings page shares, read once: then each reader's answer is only their own row. */
export type StandingsView =
  | { started: false }
  | { started: true; standings: Standings; rows: RankedRows; page: LeaderboardRow[]; benchmarks: Leaderboard['benchmarks'] };

/** As it is when every cache it reads is current, as every read after the first of a version finds them. */
export function standingsView(deps: StandingsDeps, input: LeaderboardInput): MaybePromise<StandingsView> {
  return after(deps.draftStatus.hasStarted(), (started) => (started ? rankedView(deps, input) : { started: false }));
}

/**
 * The view as it was at the draft's last change before `before` (modules/draft/as-of.ts): ranked by the
 * same code on that moment's board (as-of-standings.ts), its pages shared like the standings' now.
 */
export async function standingsViewThen(deps: AsOfDeps, input: LeaderboardInput, before: string): Promise<StandingsView> {
  const moment = await deps.draftAsOf.moment(before);
  if (!deps.draftAsOf.status(moment).draftHasStarted) return { started: false };
  const [standings, benchmarks] = await Promise.all([deps.asOfStandings.get(moment, input.group_id), deps.asOfStandings.benchmarkRows(moment)]);
  const { rows, page } = deps.leaderboards.select(standings, input);
  return { started: true, standings, rows, page, benchmarks };
}

function rankedView(deps: StandingsDeps, input: LeaderboardInput): MaybePromise<StandingsView> {
  return after(deps.leaderboards.get(input.group_id), (standings) =>
    after(deps.benchmarks.rows(), (benchmarks) => {
      const { rows, page } = deps.leaderboards.select(standings, input);
      return { started: true, standings, rows, page, benchmarks };
    }),
  );
}

/**
 * Before the start nothing is revealed: no rankings, so nobody learns anybody's picks. The page itself is
 * shared by every reader (validated and serialised once per version); only the caller's own row is theirs.
 */
export function leaderboardFor(deps: Pick<AppDeps, 'leaderboards'>, view: StandingsView, input: LeaderboardInput, participantId: string | null): Leaderboard {
  if (!view.started) {
    // A search or a status filter reveals nothing either: no rows, no counts, no position.
    return { group_id: input.group_id, draft_started: false, entries: 0, alive: 0, clinched_by: null, rankings: [], me: null, matches: 0, me_position: null, benchmarks: [] };
  }
  const { me, me_position } = ownStanding(deps, view, participantId);
  return {
    group_id: input.group_id,
    draft_started: true,
    entries: view.standings.rankings.length,
    alive: view.standings.alive,
    clinched_by: view.standings.clinched,
    rankings: view.page,
    me,
    matches: view.rows.length,
    me_position,
    benchmarks: view.benchmarks,
  };
}

/** The caller's row wherever it ranks, and its place among the page's rows (null off the page); none before the start or without an entry. */
function ownPlace(view: StandingsView, participantId: string | null): { row: LeaderboardRow; position: number | null } | undefined {
  const row = view.started && participantId !== null ? view.standings.byParticipant.get(participantId) : undefined;
  if (!view.started || !row) return undefined;
  const position = positionIn(view.rows, row);
  return { row, position: position < 0 ? null : position };
}

/** The caller's own part of a standings page (a read's: the row validated and serialised once per ranking). */
export function ownStanding(
  deps: Pick<AppDeps, 'leaderboards'>,
  view: StandingsView,
  participantId: string | null,
): Pick<Leaderboard, 'me' | 'me_position'> {
  const own = ownPlace(view, participantId);
  return own ? { me: deps.leaderboards.ownRow(own.row), me_position: own.position } : { me: null, me_position: null };
}

export function getLeaderboard(deps: AsOfDeps, input: LeaderboardInput, participantId: string): MaybePromise<Leaderboard> {
  const view = input.before === undefined ? standingsView(deps, input) : standingsViewThen(deps, input, input.before);
  return after(view, (v) => leaderboardFor(deps, v, input, participantId));
}

/** The public top 100: the global standings' first page (docs/decisions.md, "Spectators during the draft"). */
export const PUBLIC_STANDINGS_PAGE: LeaderboardInput = { group_id: GLOBAL_GROUP_ID, limit: 100, offset: 0 };

/**
 * The global top 100 for a signed-out visitor: the very page a signed-in player without an entry reads
 * (the same shared rows, the same bytes), so it shows exactly what they see: before the start nothing
 * (no rows, no counts: nobody learns anybody's picks), after it names, hits, alive or busted and rank.
 * PUBLIC_STANDINGS=false keeps the standings for players: a 404 saying so.
 */
export function publicStandings(deps: StandingsDeps & Pick<AppDeps, 'config'>): MaybePromise<Leaderboard> {
  if (!deps.config.PUBLIC_STANDINGS) throw notFound(MESSAGES.publicStandingsOff);
  return after(standingsView(deps, PUBLIC_STANDINGS_PAGE), (view) => leaderboardFor(deps, view, PUBLIC_STANDINGS_PAGE, null));
}

/**
 * Whether the caller may read a group's standings: the global ones are every signed-in player's, a
 * group's only its members'. (The read itself answers 403/404 through requireMembership.)
 */
export function mayReadStandings(em: EntityManager, groupId: number, participantId: string): MaybePromise<boolean> {
  // The global standings' answer without a promise: the live fan-out asks for each of 5,000 streams on
  // their first page, and a turn of the microtask queue for each was ~10 ms of the first pick.
  if (groupId === GLOBAL_GROUP_ID) return true;
  return findMembership(em, groupId, participantId).then((membership) => membership !== undefined);
}

/**
 * A leaderboard's JSON, written out field by field in leaderboardFor's order (its page, the caller's row
 * and the benchmarks are prepared: their bytes are shared) rather than by jsonBody's walk over the keys:
 * what leaderboard.group sends, and what the live stream carries to every watcher after every pick.
 */
export function leaderboardJson(lb: Leaderboard): JsonBody {
  if (!lb.draft_started) return jsonBody(lb);
  return jsonTemplate`{"group_id":${lb.group_id},"draft_started":true,"entries":${lb.entries},"alive":${lb.alive},"clinched_by":${lb.clinched_by},"rankings":${lb.rankings},"me":${lb.me},"matches":${lb.matches},"me_position":${lb.me_position},"benchmarks":${lb.benchmarks}}`;
}

/**
 * The live stream's `standings_page`: the page leaderboard.group answers with, less the reader's own part
 * (`me`, `me_position`), so it is the same JSON for every watcher of the page (its rows and benchmarks are
 * the prepared, shared pieces the read sends). Before the start, the read's empty page.
 */
export function standingsPageJson(view: StandingsView, watch: LeaderboardInput, eventId: number): string {
  if (!view.started) {
    return `{"kind":"standings_page","event_id":${eventId},"leaderboard":{"group_id":${watch.group_id},"draft_started":false,"entries":0,"alive":0,"clinched_by":null,"rankings":[],"matches":0,"benchmarks":[]}}`;
  }
  const { standings, page, rows, benchmarks } = view;
  return jsonText(
    jsonTemplate`{"kind":"standings_page","event_id":${eventId},"leaderboard":{"group_id":${watch.group_id},"draft_started":true,"entries":${standings.rankings.length},"alive":${standings.alive},"clinched_by":${standings.clinched},"rankings":${page},"matches":${rows.length},"benchmarks":${benchmarks}}}`,
  );
}

/**
 * The reader's own part as JSON members (`"me":…,"me_position":…`): compared with the last one sent to a
 * stream, so an unchanged one is not sent again; `standingsMineJson` makes it a message.
 */
export function ownStandingJson(view: StandingsView, participantId: string): string {
  const own = ownPlace(view, participantId);
  return own ? `"me":${leaderboardRowJson(own.row)},"me_position":${own.position}` : '"me":null,"me_position":null';
}

/**
 * A standings row as JSON, as `leaderboardRowOutput` would give it (its keys in its order), written
 * directly: the live fan-out makes one per reader per pick (5,000 at a time), where validating and
 * serialising each through the schema was a quarter of the fan-out's time. The rows come from the
 * ranking's own columns; a count that is not a finite number throws rather than write invalid JSON.
 * server/test/row-json.test.ts holds it equal to the schema's output.
 */
export function leaderboardRowJson(row: LeaderboardRow): string {
  return (
    `{"rank":${count(row.rank)},"participant_id":${JSON.stringify(row.participant_id)},"participant_name":${JSON.stringify(row.participant_name)},` +
    `"correct_picks":${count(row.correct_picks)},"busted":${row.busted === true},"tiebreak_rank":${row.tiebreak_rank === null ? null : count(row.tiebreak_rank)},` +
    `"picks":${count(row.picks)},"hits":${count(row.hits)},"misses":${count(row.misses)},"max_possible":${count(row.max_possible)},"can_win":${row.can_win === true}${row.odds ? `,"odds":${oddsJson(row.odds)}` : ''}}`
  );
}

/** An entry's odds as JSON, as `standingOddsOutput` gives it. */
function oddsJson(odds: StandingOdds): string {
  return `{"survive":${chance(odds.survive)},"win":${chance(odds.win)},"text":${JSON.stringify(odds.text)}}`;
}

function chance(value: number): number {
  if (!(value >= 0 && value <= 1)) throw new Error(`a standings row holds the chance ${String(value)}`);
  return value;
}

function count(value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`a standings row holds ${String(value)} where a number belongs`);
  return value;
}

/** The live stream's `standings_me`: the reader's own part of group `groupId`'s page as of change `eventId`. */
export const standingsMineJson = (groupId: number, eventId: number, own: string) =>
  `{"kind":"standings_me","event_id":${eventId},"group_id":${groupId},${own}}`;

/** Both live messages for one reader, as JSON text (tests hold them to the read: put together, they are its answer). */
export async function liveStandingsJson(deps: StandingsDeps, watch: LeaderboardInput, participantId: string, eventId: number): Promise<{ page: string; mine: string }> {
  const view = await standingsView(deps, watch);
  return { page: standingsPageJson(view, watch, eventId), mine: standingsMineJson(watch.group_id, eventId, ownStandingJson(view, participantId)) };
}

/**
 * The spectators' `standings` update as of draft change `eventId`: leaderboard.public's answer (the global
 * top 100 with no caller, so no own part: the same bytes for everyone) as one whole message, which every
 * live page reads as well as the players' page-and-own-part pair.
 */
export function publicStandingsUpdate(deps: StandingsDeps & Pick<AppDeps, 'config'>, eventId: number): MaybePromise<JsonBody> {
  if (!deps.config.PUBLIC_STANDINGS) throw notFound(MESSAGES.publicStandingsOff);
  return after(standingsView(deps, PUBLIC_STANDINGS_PAGE), (view) =>
    enveloped(leaderboardJson(leaderboardFor(deps, view, PUBLIC_STANDINGS_PAGE, null)), `{"kind":"standings","event_id":${eventId},"leaderboard":`, '}', 'live'),
  );
}

/**
 * Per group the caller is in: members, members whose entry there has picks, and the caller's own entry
 * (how many picks; linked to My Picks or their own). Each member's entry is read by the one entry rule
 * (entry-rule.ts), as the standings read it; facts only (the picks themselves), no count kept anywhere.
 */
const myGroupsSql = /* sql */ `
with mine as (
  select g.group_id, g.use_global_picks from group_membership g where g.participant_id = $1
)
select mine.group_id,
       count(*)::int as members,
       (count(*) filter (where exists (select 1 from pick k where k.participant_id = m.participant_id
                                                            and k.group_id = ${entrySetGroupSql('m.group_id', 'm.use_global_picks')})))::int as ready,
       (select count(*) from pick k where k.participant_id = $1 and k.group_id = ${entrySetGroupSql('mine.group_id', 'mine.use_global_picks')})::int as my_picks,
       mine.use_global_picks
  from mine
  join group_membership m on m.group_id = mine.group_id
 group by mine.group_id, mine.use_global_picks
 order by mine.group_id`;

/**
 * The caller's entry in each of their groups, for the group cards: before the start whether the picks are
 * in ('2 of 3 ready'), after it their place ('3rd of 12 · Alive') from the ranked standings in memory
 * (the same rankings leaderboard.group serves; nothing about a standing is revealed before the start).
 */
export async function myGroupStandings(
  deps: Pick<AppDeps, 'draftStatus' | 'leaderboards'>,
  em: EntityManager,
  participantId: string,
): Promise<MyGroupStandings> {
  const started = await deps.draftStatus.hasStarted();
  // Raw: the caller's groups with their member counts, aggregated in one statement.
  const rows = await sql<{ group_id: number; members: number; ready: number; my_picks: number; use_global_picks: boolean }>(em, myGroupsSql, [participantId]);
  const groups = await Promise.all(
    rows.map(async (g) => {
      const standings = started ? await deps.leaderboards.get(g.group_id) : undefined;
      const me = standings?.byParticipant.get(participantId);
      const standing =
        standings && me
          ? {
              rank: me.rank,
              entries: standings.rankings.length,
              alive: standings.alive,
              busted: me.busted,
              correct_picks: me.correct_picks,
              picks: me.picks,
              hits: me.hits,
              misses: me.misses,
              shared: sharesRank(standings.rankings, me),
            }
          : null;
      return { ...g, has_picks: g.my_picks > 0, entry_mode: entryModeOf(g.use_global_picks), standing };
    }),
  );
  return { draft_started: started, groups };
}

/** Whether another entry has the same rank as `row` (its neighbours in ranking order would). */
function sharesRank(rows: RankedRows, row: LeaderboardRow): boolean {
  const p = positionIn(rows, row);
  return rows.at(p - 1)?.rank === row.rank || rows.at(p + 1)?.rank === row.rank;
}

/**
 * The field of a group (1 = global): who picked whom, as shares of its entries. Only after the start,
 * when picks are locked and public in aggregate: before it the answer would reveal picks (409). The
 * caller's right to read the group is checked by the caller (requireMembership).
 */
export async function getField(deps: Pick<AppDeps, 'draftStatus' | 'field'>, groupId: number): Promise<FieldRow[]> {
  if (!(await deps.draftStatus.hasStarted())) throw conflict(MESSAGES.fieldBeforeStart);
  return deps.field.get(groupId);
}
