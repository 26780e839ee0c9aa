import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { describeDbError } from '../../server/src/db/database.js';
import { BackupWriter, type BackupTrailer } from './builtin-format.js';
import { CommandFailure } from './command.js';
import { MIGRATIONS_TABLE, copyTarget, gameSequences, gameTables, sqlName } from './game-schema.js';

/**
 * Writes the game's database at `url` to `file` in the built-in format (scripts/lib/builtin-format.ts):
 * one REPEATABLE READ READ ONLY transaction, so every table is read from one snapshot while the server
 * goes on writing; each table streamed through COPY, never held in memory. Returns what was written.
 */
export async function dumpDatabase(url: string, file: string, server: string): Promise<{ tables: number; rows: Record<string, number> }> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new CommandFailure(describeDbError(error, url));
  }
  const writer = new BackupWriter(file);
  try {
    await client.query('begin isolation level repeatable read read only');
    // The snapshot is taken by the transaction's first query: the catalog, then every table, all in it.
    const made = new Date().toISOString();
    const tables = await gameTables(client);
    if (!tables.some((t) => t.name === MIGRATIONS_TABLE)) {
      throw new CommandFailure(`Nothing was written: the database has no ${MIGRATIONS_TABLE} table, so it is not the game's (has the server ever started on it?).`);
    }
    const { rows: applied } = await client.query<{ name: string }>(`select name from ${sqlName(client, MIGRATIONS_TABLE)} order by id`);
    await writer.header({ made, server, migrations: applied.map((m) => m.name), tables });
    const rows: Record<string, number> = {};
    for (const table of tables) {
      const stream = client.query(copyTo(`copy ${copyTarget(client, table)} to stdout`));
      await writer.table(table.name, stream);
      rows[table.name] = stream.rowCount;
    }
    // Read after the data: a sequence is not part of the snapshot, and this way it is at least where the
    // rows need it (nextval after a restore never hands out a number a restored row holds).
    const sequences: BackupTrailer['sequences'] = [];
    for (const name of await gameSequences(client)) {
      const { rows: at } = await client.query<{ last_value: string; is_called: boolean }>(`select last_value::text, is_called from ${sqlName(client, name)}`);
      sequences.push({ name, value: at[0]!.last_value, called: at[0]!.is_called });
    }
    await client.query('commit');
    await writer.close({ rows, sequences });
    return { tables: tables.length, rows };
  } catch (error) {
    await writer.close({ rows: {}, sequences: [] }).catch(() => {});
    if (error instanceof CommandFailure) throw error;
    throw new CommandFailure(`Nothing was written: reading the database failed: ${describeDbError(error, url)}`);
  } finally {
    await client.end().catch(() => {});
  }
}
