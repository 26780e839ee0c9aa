import { snapshotOf } from '@first-round/shared/draft-snapshot';
import { oddsBoard, survivalChance, winChances } from '@first-round/shared/odds';
import { standingOddsText } from '@first-round/shared/odds-words';
import type { DraftStatus, PlayerDto, StandingOdds } from '@first-round/shared/schemas';
import type { TestApp } from './test-app.js';
import type { TestDb } from './test-db.js';

/**
 * What the shared model says of these entries (player ids each), all of them together, on the board and
 * draft as the API gives them now: what the web app computes. Each entry's survive and win, and the batch
 * and board indexes they came from.
 */
export async function modelledOdds(t: TestApp, entries: number[][]) {
  const players = await readJson<PlayerDto[]>(t, '/api/players/');
  const status = await readJson<DraftStatus>(t, '/api/draft/status');
  const odds = oddsBoard(players, snapshotOf(status, players));
  const picks = entries.map((ids) => ids.map((id) => odds.index.get(id)!));
  const wins = winChances(odds.sims, picks);
  return { sims: odds.sims, picks, odds: picks.map((p, e) => ({ survive: survivalChance(odds.sims, p)!, win: wins[e]! })) };
}

async function readJson<T>(t: TestApp, path: string): Promise<T> {
  const res = await t.request('GET', path);
  if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${res.body}`);
  return JSON.parse(res.body) as T;
}

/**
 * What each global entry's odds must be, by participant id, from the tables as they are (the board, the
 * draft, every My Picks): the shared model over every global entry (`winChances`, the reference the
 * server's whole-field scan is held to), as the web app would compute it. Empty once round one is complete
 * (no row has odds then).
 */
export async function globalOddsFromTables(db: Pick<TestDb, 'query'>, roundOnePicks: number): Promise<Map<string, StandingOdds>> {
  const players = await db.query<{ id: number; rank: number; draft_round: number | null }>(`select id, rank, draft_round from player`);
  const [state] = await db.query<{ marked: boolean }>(`select coalesce((select round_one_complete from draft_state where id = 1), false) as marked`);
  const picks = await db.query<{ participant_id: string; ids: number[] }>(`select participant_id, array_agg(player_id) as ids from pick where group_id = 1 group by participant_id`);
  const draft = { roundOnePicks, filledSlots: players.filter((p) => p.draft_round === 1).length, roundOneCompleteMarked: state!.marked };
  const odds = oddsBoard(players, draft);
  const entries = picks.map((p) => p.ids.map((id) => odds.index.get(id)!));
  const wins = winChances(odds.sims, entries);
  const byId = new Map<string, StandingOdds>();
  picks.forEach((p, e) => {
    const survive = survivalChance(odds.sims, entries[e]!);
    if (survive !== null) byId.set(p.participant_id, { survive, win: wins[e]!, text: standingOddsText(survive, wins[e]!) });
  });
  return byId;
}

/** Rows as the rules rank them (`rankEntries`), each with the odds its global row must carry (none once round one is complete). */
export function withGlobalOdds<R extends { participant_id: string }>(rows: readonly R[], odds: ReadonlyMap<string, StandingOdds>): (R & { odds?: StandingOdds })[] {
  return rows.map((row) => {
    const o = odds.get(row.participant_id);
    return o ? { ...row, odds: o } : row;
  });
}
