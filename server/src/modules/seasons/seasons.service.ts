import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID, nextDraftNight } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { parseOrderCsv, type OrderRow } from '@first-round/shared/order-csv';
import type { BoardRow } from '@first-round/shared/players-csv';
import type { LeaderboardRow, SeasonEntry, SeasonLeaderboard, SeasonPick, SeasonLeaderboardInput, SeasonSummary } from '@first-round/shared/schemas';
import { pickOutcome } from '@first-round/shared/scoring';
import { publish } from '../../events/topic-bus.js';
import { conflict, notFound, unprocessable } from '../../errors.js';
import { deleteDraftEvents, readDraftState, recordDeadline, updateDraftState } from '../draft/draft.repository.js';
import { resetDraft, statusOf, type DraftSettings } from '../draft/draft.service.js';
import { replaceOrder } from '../draft/order.repository.js';
import { groupPicksPublic, requireMembership } from '../groups/membership.js';
import { deleteAllPicks } from '../picks/picks.repository.js';
import { clearDraftResults, deferRankUniqueness, deletePlayers, playersLeftOff, upsertBoardRows } from '../players/players.repository.js';
import { rankGlobal, rankGroup, type Ranking } from '../leaderboard/ranking.js';
import type { Book } from '../standings/book.js';
import { loadBook } from '../standings/book.repository.js';
import * as repo from './seasons.repository.js';

/** A ranking's rows one stretch at a time, none kept (a million at the global archive). */
function* rowsOnce(ranking: Ranking): Generator<LeaderboardRow> {
  for (let at = 0; at < ranking.length; at += 10_000) yield* ranking.rowsOnce(at, at + 10_000);
}

/** The board's players the rules count as hits as the book's draft stands. */
function hitPlayers(book: Book): number[] {
  const { ids, columns, count } = book.board;
  const hits: number[] = [];
  for (let i = 0; i < count; i++) if (pickOutcome({ rank: columns.rank[i]!, draftRound: columns.round[i] || null }, book.draft) === 'hit') hits.push(ids[i]!);
  return hits;
}

// ---------------------------------------------------------------- opening the next season (operator command)

export interface OpenSeasonInput {
  year: number;
  board: readonly BoardRow[];
  /** Round one's order (every slot's team), or null: no slot has a team until the operator gives it one. */
  order: readonly OrderRow[] | null;
  deadline: Date;
  /** Close the current season even while its round one is under way. */
  force: boolean;
  actor: string;
}

export interface OpenSeasonResult {
  closed: { year: number; groups: number; entries: number; events: number };
  opened: { year: number; deadline: Date; players: number };
}

/** An order CSV's rows, or a 422 naming every bad row (shared/src/order-csv.ts). */
export function parseOrderText(text: string): OrderRow[] {
  const parsed = parseOrderCsv(text);
  if (!parsed.ok) throw unprocessable(parsed.errors.map((e) => `row ${e.row}: ${e.message}`).join('\n'));
  return parsed.rows;
}

/**
 * The deadline a new season gets when the operator names none: DRAFT_DEADLINE when it falls in that
 * year, else that year's draft night (the last Thursday of April, 20:00 Eastern, as with no DRAFT_DEADLINE).
 */
export function defaultSeasonDeadline(year: number, configured: string | undefined): Date {
  if (configured && new Date(configured).getUTCFullYear() === year) return new Date(configured);
  return nextDraftNight(new Date(Date.UTC(year, 0, 1)));
}

/**
 * Closes the current season into the archive and opens `year` (docs/decisions.md, "Seasons"), all in one
 * transaction: a refusal or a failure writes nothing. The final standings are ranked as the game ranks
 * them (an entry book read in the transaction, the same ranking code), with round one counted complete
 * (the season is over: a player not taken is a miss).
 * Groups, memberships, accounts and invite links stay; picks, results, the audit log, the feed's queue
 * go; the board and round one's order are replaced (the closed season's order is archived as it stood,
 * traded picks included). Running servers hear a `reset` draft change and a `board` change on commit,
 * so they drop their caches and open pages start over, as after `npm run draft -- reset`.
 */
export async function openSeason(em: EntityManager, settings: DraftSettings, input: OpenSeasonInput): Promise<OpenSeasonResult> {
  if (input.deadline.getUTCFullYear() !== input.year) {
    throw unprocessable(`The deadline ${input.deadline.toISOString()} is not in ${input.year}: a season's picks lock on its own draft night`);
  }
  if (input.order && input.order.length !== settings.roundOnePicks) {
    throw unprocessable(`The order names ${input.order.length} slots but round one has ${settings.roundOnePicks} (ROUND_ONE_PICKS): give every slot its team`);
  }
  return em.transactional(async (tx) => {
    await repo.lockSeasons(tx);
    const state = await readDraftState(tx, { lock: true });
    const current = await repo.findCurrentSeason(tx);
    if (!current) throw conflict('There is no current season to close: have the migrations run?');
    if (input.year <= current.year) throw conflict(`The new season must come after the current one (${current.year})`);
    const status = statusOf(state, settings);
    if (status.draftHasStarted && !status.round_one_complete && !input.force) {
      throw conflict(
        `The ${current.year} draft is under way (round one: ${status.picks_made} of ${status.round_one_picks} picks recorded). ` +
          'Finish it first (npm run draft -- complete-round), or pass --force to close the season as it stands.',
      );
    }

    // The archive: board, order, groups, audit log, then the final standings of every group with members.
    const year = current.year;
    await repo.archiveBoardAndGroups(tx, year);
    await repo.archiveOrder(tx, year);
    const events = await repo.archiveDraftEvents(tx, year);
    await updateDraftState(tx, { roundOneComplete: true });
    // Ranked as the game ranks them: an entry book read in this transaction (round one now counted complete).
    const book = await loadBook(tx, settings.roundOnePicks);
    const memberships = await repo.allMemberships(tx);
    const groups = [GLOBAL_GROUP_ID, ...memberships.keys()];
    let entries = 0;
    for (const groupId of groups) {
      const ranking = groupId === GLOBAL_GROUP_ID ? rankGlobal(book) : rankGroup(book, groupId, memberships.get(groupId)!);
      const ranked = await repo.archiveStandings(tx, year, groupId, rowsOnce(ranking));
      if (groupId === GLOBAL_GROUP_ID) entries = ranked;
    }
    await repo.archiveEntryPicks(tx, year, hitPlayers(book));
    await repo.closeSeason(tx, year, settings.roundOnePicks);

    // The new season: nothing picked, nothing recorded, the new board, the new deadline.
    await deleteAllPicks(tx);
    await deleteDraftEvents(tx);
    await clearDraftResults(tx);
    await deferRankUniqueness(tx, true);
    await upsertBoardRows(tx, input.board);
    await deletePlayers(tx, (await playersLeftOff(tx, input.board)).map((p) => p.id));
    await deferRankUniqueness(tx, false);
    await replaceOrder(tx, input.order ?? []);
    await recordDeadline(tx, input.deadline);
    await repo.insertSeason(tx, input.year, input.deadline);
    // The new season's log opens with a reset: it empties the feed's queue (a trigger) and makes every
    // instance and open page start over, as a reset does.
    await resetDraft(tx, input.actor);
    await publish(tx, 'board', { kind: 'board' });
    return {
      closed: { year, groups: groups.length, entries, events },
      opened: { year: input.year, deadline: input.deadline, players: input.board.length },
    };
  });
}

// ---------------------------------------------------------------- reading past seasons

export interface SeasonListLine {
  year: number;
  current: boolean;
  deadline: Date | null;
  entries: number | null;
  winners: string[];
  winningScore: number | null;
}

/** Every season for `npm run season -- list`: global entries and winners of the closed ones. */
export async function seasonLines(em: EntityManager): Promise<SeasonListLine[]> {
  const seasons = await repo.findAllSeasons(em);
  const results = new Map((await repo.seasonResults(em, GLOBAL_GROUP_ID, '')).map((r) => [r.year, r]));
  return seasons.map((s) => {
    const r = results.get(s.year);
    return {
      year: s.year,
      current: s.closedAt === null,
      deadline: s.deadline,
      entries: s.closedAt === null ? null : (r?.entries ?? 0),
      winners: r?.winners.map((w) => w.participant_name) ?? [],
      winningScore: r?.winning_score ?? null,
    };
  });
}

/**
 * Every season, newest first, with the winners and the caller's place in the closed ones: globally, or in
 * `groupId` (one of the caller's groups: members only, as its standings are). `lock`: the draft's settings.
 */
export async function listSeasons(em: EntityManager, participantId: string, groupId: number | undefined, lock: { deadline: Date }): Promise<SeasonSummary[]> {
  const group = groupId ?? GLOBAL_GROUP_ID;
  if (group !== GLOBAL_GROUP_ID) await requireMembership(em, group, participantId);
  const [seasons, results] = await Promise.all([repo.findAllSeasons(em), repo.seasonResults(em, group, participantId)]);
  const byYear = new Map(results.map((r) => [r.year, r]));
  return seasons.map((s) => {
    const r = byYear.get(s.year);
    const closed = s.closedAt !== null;
    return {
      year: s.year,
      current: !closed,
      // The current season's picks lock at the server's deadline (its configuration), whatever was stored.
      deadline: closed ? (s.deadline?.toISOString() ?? null) : lock.deadline.toISOString(),
      opened_at: s.openedAt.toISOString(),
      closed_at: s.closedAt?.toISOString() ?? null,
      entries: closed ? (r?.entries ?? null) : null,
      winners: closed ? (r?.winners ?? []) : [],
      winning_score: closed ? (r?.winning_score ?? null) : null,
      my_rank: closed ? (r?.my_rank ?? null) : null,
    };
  });
}

/**
 * A closed season's final standings in a group (1: global), a page at a time, each entry with its picks
 * ✓/✗ where the caller may see them: their own always; others' in a group whose picks are public now
 * (as picks.ofParticipant after the start), never others' global picks. The caller's right to read the
 * group is checked by the procedure (groupMemberProcedure).
 */
export async function seasonLeaderboard(em: EntityManager, participantId: string, input: SeasonLeaderboardInput): Promise<SeasonLeaderboard> {
  const season = await repo.findSeason(em, input.year);
  if (!season) throw notFound(MESSAGES.seasonNotFound(input.year));
  if (!season.closedAt) throw notFound(MESSAGES.seasonNotClosed(input.year));
  const group = await repo.findSeasonGroup(em, input.year, input.group_id);
  if (!group) throw notFound(MESSAGES.groupNotInSeason(input.year));
  const othersVisible = input.group_id !== GLOBAL_GROUP_ID && (await groupPicksPublic(em, input.group_id)) === true;

  const [rows, count, mine] = await Promise.all([
    repo.seasonEntries(em, input.year, input.group_id, input.limit, input.offset),
    repo.countSeasonEntries(em, input.year, input.group_id),
    repo.seasonEntryOf(em, input.year, input.group_id, participantId),
  ]);
  const visible = [...new Set([...(othersVisible ? rows.map((r) => r.participant_id) : []), ...(mine ? [participantId] : [])])];
  const picks = new Map<string, SeasonPick[]>();
  for (const { participant_id, ...pick } of await repo.seasonPicksOf(em, input.year, input.group_id, visible)) {
    picks.set(participant_id, [...(picks.get(participant_id) ?? []), pick]);
  }
  const withPicks = (row: repo.SeasonEntryRow): SeasonEntry => ({
    ...row,
    pick_list: visible.includes(row.participant_id) ? (picks.get(row.participant_id) ?? []) : null,
  });
  return {
    year: input.year,
    group_id: input.group_id,
    group_name: group.name,
    closed_at: season.closedAt.toISOString(),
    entries: count,
    rankings: rows.map(withPicks),
    me: mine ? withPicks(mine) : null,
  };
}
