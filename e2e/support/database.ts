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
 * Adds participants with global picks in one transaction, under ids starting with `prefix`; returns their
 * ids. The pick-set counts follow by trigger; the server's rankings read them at their next ranking (the
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
    await db.query('commit');
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
  return ids;
}

/** Removes what `seedEntries` added (their picks and counts go with them). */
export async function removeSeeded(db: pg.Client, prefix: string): Promise<void> {
  await db.query(`delete from participant where id like $1`, [`${prefix.replace(/[%_\\]/g, '\\$&')}%`]);
}
