import path from 'node:path';
import pg from 'pg';
import { APP_DATABASE, startEmbeddedPostgres, withDatabase } from '../../server/src/db/embedded-postgres';

/**
 * The database of the server under test: the embedded PostgreSQL under its DATA_DIR (scripts/run-e2e.mjs
 * passes it as E2E_DATA_DIR), joined while the server owns it, as `npm run draft` joins a running game.
 * For specs that need hundreds of entries: signing each one up through the browser would take minutes.
 */
export async function serverDatabase(): Promise<pg.Client> {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run the browser specs with npm run test:e2e');
  const cluster = await startEmbeddedPostgres(path.join(dir, 'pg'));
  if (cluster.startedHere) throw new Error('The server under test is not running on E2E_DATA_DIR');
  const client = new pg.Client({ connectionString: withDatabase(cluster.serverUrl, APP_DATABASE) });
  await client.connect();
  return client;
}

export interface SeededEntry {
  name: string;
  /** Player names (the board's). */
  picks: string[];
}

/**
 * Announces changed participants as the game's own writers do (`participant` on the cache channel, inside
 * the transaction): the server reads their pick sets again before its next ranking.
 */
async function announceParticipants(db: pg.Client, ids: readonly string[]): Promise<void> {
  await db.query(`select pg_notify('cache_invalidation', json_build_object('kind', 'participant', 'participant_id', id)::text) from unnest($1::text[]) id`, [ids]);
}

/**
 * Adds participants with global picks in one transaction, under ids starting with `prefix`; returns their
 * ids. The transaction announces them, so the server's rankings have them from their next ranking (the
 * next draft change). Remove them with `removeSeeded`.
 */
export async function seedEntries(db: pg.Client, prefix: string, entries: SeededEntry[]): Promise<string[]> {
  const ids = entries.map((_, i) => `${prefix}${String(i).padStart(4, '0')}`);
  const players = new Map((await db.query<{ id: number; player_name: string }>('select id, player_name from player')).rows.map((r) => [r.player_name, r.id]));
  const pickRows = entries.flatMap((e, i) =>
    e.picks.map((name) => {
      const id = players.get(name);
      if (id === undefined) throw new Error(`No player named ${name}`);
      return [ids[i]!, id] as const;
    }),
  );
  await db.query('begin');
  try {
    await db.query(`insert into participant (id, screen_name, is_first_login) select unnest($1::text[]), unnest($2::text[]), false`, [ids, entries.map((e) => e.name)]);
    await db.query(`insert into pick (participant_id, group_id, player_id) select unnest($1::text[]), 1, unnest($2::int[])`, [pickRows.map((r) => r[0]), pickRows.map((r) => r[1])]);
    await announceParticipants(db, ids);
    await db.query('commit');
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
  return ids;
}

/** Removes what `seedEntries` added (their picks go with them), announced as `seedEntries` announces. */
export async function removeSeeded(db: pg.Client, prefix: string): Promise<void> {
  await db.query('begin');
  try {
    const { rows } = await db.query<{ id: string }>(`delete from participant where id like $1 returning id`, [`${prefix.replace(/[%_\\]/g, '\\$&')}%`]);
    await announceParticipants(db, rows.map((r) => r.id));
    await db.query('commit');
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
}
