import fs from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parseBoardCsv, type BoardRow } from '@first-round/shared/players-csv';
import { conflict, unprocessable } from '../../errors.js';
import { fromRoot } from '../../paths.js';
import { publish } from '../../events/topic-bus.js';
import { readDraftState } from '../draft/draft.repository.js';
import { pickedPlayerIds } from '../picks/picks.repository.js';
import { countPlayers, deferRankUniqueness, deletePlayers, playersLeftOff, upsertBoardRows } from '../players/players.repository.js';

export const DEFAULT_BOARD_FILE = fromRoot('shared/data/players-2025.csv');

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
    // Locks the draft's state: a start waits for the import, and an import after the start is refused.
    const state = await readDraftState(tx, { lock: true });
    if (state.startedAt) throw conflict('The draft has started: the board can no longer be replaced');
    await deferRankUniqueness(tx, true);
    const counts = await upsertBoardRows(tx, rows);
    const stale = await playersLeftOff(tx, rows);
    const picked = await pickedPlayerIds(tx, stale.map((s) => s.id));
    if (picked.size > 0) {
      const names = stale.filter((s) => picked.has(s.id)).map((s) => s.player_name);
      throw conflict(`These players are picked by someone and cannot be removed from the board: ${names.join(', ')}`);
    }
    await deletePlayers(tx, stale.map((s) => s.id));
    await deferRankUniqueness(tx, false);
    // Imports come from the command line: running servers hear of the new board when this commits.
    await publish(tx, 'board', { kind: 'board' });
    return { ...counts, removed: stale.length };
  });
}

/** A board CSV's rows, or a 422 naming every bad row (the import and a new season read boards alike). */
export function parseBoardText(text: string): BoardRow[] {
  const parsed = parseBoardCsv(text);
  if (!parsed.ok) {
    throw unprocessable(parsed.errors.map((e) => `row ${e.row}: ${e.message}`).join('\n'));
  }
  return parsed.rows;
}

export async function importBoardCsv(em: EntityManager, text: string): Promise<ImportSummary> {
  return importBoard(em, parseBoardText(text));
}

/** Loads the shipped 2025 board into an empty player table (first start); a populated board is left alone. */
export async function seedDefaultBoard(em: EntityManager): Promise<ImportSummary | null> {
  if ((await countPlayers(em)) > 0) return null;
  return importBoardCsv(em, await fs.readFile(DEFAULT_BOARD_FILE, 'utf8'));
}
