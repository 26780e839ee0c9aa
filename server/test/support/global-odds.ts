import { oddsBoard, survivalChance, winChances } from '@first-round/shared/odds';
import { standingOddsText } from '@first-round/shared/odds-words';
import type { StandingOdds } from '@first-round/shared/schemas';
import type { TestDb } from './test-db.js';

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
