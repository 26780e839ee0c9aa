import fs from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parseBoardCsv, type BoardRow } from '@first-round/shared/players-csv';
import { conflict, unprocessable } from '../../errors.js';
import { announce } from '../../cache/invalidation.js';
import { sql, sqlOne } from '../../db/sql.js';

export const DEFAULT_BOARD_FILE = new URL('../../../../shared/data/players-2025.csv', import.meta.url);

export interface ImportSummary {
  inserted: number;
  updated: number;
  removed: number;
}

/**
 * Replaces the big board with `rows`, all or nothing. Players are matched by name (case-insensitive), so
 * ids, picks and draft results of players that stay on the board survive a re-import. Ranks may reshuffle
 * freely inside the transaction (the rank constraint is deferred). Players missing from the new board are
 * removed unless someone picked them: then nothing is imported and the error names them.
 */
export async function importBoard(em: EntityManager, rows: readonly BoardRow[]): Promise<ImportSummary> {
  return em.transactional(async (tx) => {
    const state = await sqlOne<{ started: boolean }>(tx, `select started_at is not null as started from draft_state where id = 1 for update`);
    if (state?.started) throw conflict('The draft has started: the board can no longer be replaced');
    await sql(tx, `set constraints player_rank_unique deferred`);

    const payload = JSON.stringify(rows);
    const [counts] = await sql<{ inserted: number; updated: number }>(
      tx,
      `with incoming as (
         select * from jsonb_to_recordset($1::jsonb) as r(rank int, player_name text, position text, school text)
       ), upd as (
         update player p set rank = i.rank, player_name = i.player_name, position = i.position, school = i.school
           from incoming i where lower(p.player_name) = lower(i.player_name)
         returning p.id
       ), ins as (
         insert into player (rank, player_name, position, school)
         select i.rank, i.player_name, i.position, i.school from incoming i
          where not exists (select 1 from player p where lower(p.player_name) = lower(i.player_name))
          order by i.rank
         returning id
       )
       select (select count(*) from ins)::int as inserted, (select count(*) from upd)::int as updated`,
      [payload],
    );

    const stale = await sql<{ id: number; player_name: string; picked: boolean }>(
      tx,
      `select p.id, p.player_name, exists (select 1 from pick k where k.player_id = p.id) as picked
         from player p
        where lower(p.player_name) not in (select lower(r->>'player_name') from jsonb_array_elements($1::jsonb) r)`,
      [payload],
    );
    const picked = stale.filter((s) => s.picked).map((s) => s.player_name);
    if (picked.length > 0) {
      throw conflict(`These players are picked by someone and cannot be removed from the board: ${picked.join(', ')}`);
    }
    if (stale.length > 0) await sql(tx, `delete from player where id = any($1::int[])`, [stale.map((s) => s.id)]);
    // Surfaces a rank clash now, inside the transaction, with a clear message instead of a commit failure.
    await sql(tx, `set constraints player_rank_unique immediate`);
    // Imports come from the command line: running servers hear of the new board when this commits.
    await announce(tx, { kind: 'board' });
    return { inserted: counts?.inserted ?? 0, updated: counts?.updated ?? 0, removed: stale.length };
  });
}

export async function importBoardCsv(em: EntityManager, text: string): Promise<ImportSummary> {
  const parsed = parseBoardCsv(text);
  if (!parsed.ok) {
    throw unprocessable(parsed.errors.map((e) => `row ${e.row}: ${e.message}`).join('\n'));
  }
  return importBoard(em, parsed.rows);
}

/** Loads the shipped 2025 board into an empty player table (first start); a populated board is left alone. */
export async function seedDefaultBoard(em: EntityManager): Promise<ImportSummary | null> {
  const existing = await sqlOne<{ n: number }>(em, `select count(*)::int as n from player`);
  if ((existing?.n ?? 0) > 0) return null;
  return importBoardCsv(em, await fs.readFile(DEFAULT_BOARD_FILE, 'utf8'));
}
