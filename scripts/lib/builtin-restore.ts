import type { Knex } from '@mikro-orm/knex';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { migrationsList } from '../../server/src/db/migrations/index.js';
import { openOrm } from '../../server/src/db/orm.js';
import { readBuiltinBackup, type BackupHeader, type BackupTrailer } from './builtin-format.js';
import { CommandFailure } from './command.js';
import type { BackupKey } from './backup-tag.js';
import { isDatabaseUnavailable } from '../../server/src/errors.js';
import { MIGRATIONS_TABLE, copyTarget, gameTables, sqlName } from './game-schema.js';

/**
 * Refuses a backup this version of the game cannot bring its schema to: one naming a migration it does not
 * know (a newer version's), or whose migrations are not this version's first ones in order.
 */
export function checkMigrations(header: BackupHeader): void {
  const known = migrationsList.map((m) => m.name);
  const unknown = header.migrations.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new CommandFailure(
      `Nothing was restored: the backup was made by a newer version of the game (migration ${unknown.join(', ')} is unknown to this one). Restore it with that version or a newer one.`,
    );
  }
  if (header.migrations.some((name, i) => known[i] !== name)) {
    throw new CommandFailure(`Nothing was restored: the backup's migrations (${header.migrations.join(', ')}) are not this version's in order.`);
  }
}

/**
 * Loads a verified built-in backup (`header`, as the check read it) into the database at `url`, replacing
 * whatever the game's schema holds, in ONE transaction (all of it or nothing): everything in the schema
 * dropped, the game's migrations run up to the backup's last (the schema it was taken from), every table
 * emptied and loaded with COPY, the sequences set, every table's rows counted against the backup. A
 * restore that fails leaves the database as it was (an empty one loses again the empty migrations table
 * the migrator made).
 */
export async function restoreBuiltin(url: string, file: string, header: BackupHeader, options: { wasEmpty: boolean; key?: BackupKey }): Promise<void> {
  const orm = await openOrm(url, 2);
  try {
    // The migrator makes its table outside any transaction (MikroORM's ensureTable): made here, before ours.
    await orm.getMigrator().getPendingMigrations();
    await orm.em.getConnection().transactional(async (trx) => {
      // The transaction's own connection (knex hands it to whoever asks), for COPY.
      const client = (await (trx as Knex.Transaction).client.acquireConnection()) as pg.Client;
      await dropSchemaContents(client);
      const last = header.migrations.at(-1);
      if (last) await orm.getMigrator().up({ to: last, transaction: trx });
      const tables = await prepareTables(client, header);
      // Read (and its tag checked) again: the file is loaded as it is now, and must still be what was checked.
      const { trailer } = await readBuiltinBackup(
        file,
        async (table, rows, { firstLine }) => {
          await pipeline(Readable.from(rows), client.query(copyFrom(`copy ${copyTarget(client, table)} from stdin`))).catch((error: unknown) => {
            throw rowRefused(error, file, table.name, firstLine);
          });
        },
        { key: options.key },
      );
      await finishLoad(client, tables, trailer);
    });
  } catch (error) {
    if (options.wasEmpty) {
      // The migrations table the migrator made before our transaction: gone again, the database empty.
      await orm.em.getConnection().execute(`drop table if exists ${MIGRATIONS_TABLE}`).catch(() => {});
    }
    throw error;
  } finally {
    await orm.close(true);
  }
}

/**
 * A row PostgreSQL's COPY refused (a column too many or too few, a value of the wrong type, a duplicate
 * key): which table, which line of the file and row of the table (COPY's own count, in its `where`),
 * and PostgreSQL's reason. Anything else (the connection lost) is left as it is.
 */
function rowRefused(error: unknown, file: string, table: string, firstLine: number): unknown {
  const e = error as { code?: string; message?: string; where?: string };
  if (typeof e?.code !== 'string' || isDatabaseUnavailable(error)) return error;
  const row = /, line (\d+)/.exec(e.where ?? '')?.[1];
  const column = /, column (\w+)/.exec(e.where ?? '')?.[1];
  const where = row ? `line ${firstLine + Number(row) - 1} of the file (row ${row} of the table${column ? `, column ${column}` : ''})` : 'its rows';
  return new CommandFailure(`Nothing was restored (the transaction was rolled back): ${file}, table ${table}, ${where}: ${e.message}.`);
}

/**
 * Everything in the game's schema goes, but the migrations table, emptied (the migrator reads it from
 * outside our transaction, so it must stay): tables and views with what hangs on them, sequences,
 * functions, types. The migrations then build the schema again from nothing.
 */
async function dropSchemaContents(client: pg.ClientBase): Promise<void> {
  const { rows: relations } = await client.query<{ name: string; kind: string }>(
    `select c.relname as name, c.relkind as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
      where c.relkind in ('r', 'p', 'v', 'm', 'f') and c.relname <> $1`,
    [MIGRATIONS_TABLE],
  );
  const dropKind: Record<string, string> = { r: 'table', p: 'table', v: 'view', m: 'materialized view', f: 'foreign table' };
  for (const r of relations) await client.query(`drop ${dropKind[r.kind]} if exists ${sqlName(client, r.name)} cascade`);
  const { rows: sequences } = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
      where c.relkind = 'S' and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('a', 'i'))`,
  );
  for (const s of sequences) await client.query(`drop sequence if exists ${sqlName(client, s.name)} cascade`);
  const { rows: routines } = await client.query<{ signature: string }>(
    `select p.oid::regprocedure::text as signature from pg_proc p join pg_namespace n on n.oid = p.pronamespace and n.nspname = current_schema()`,
  );
  for (const r of routines) await client.query(`drop routine if exists ${r.signature} cascade`);
  const { rows: types } = await client.query<{ name: string }>(
    `select t.typname as name from pg_type t join pg_namespace n on n.oid = t.typnamespace and n.nspname = current_schema()
      where t.typtype in ('e', 'd', 'r', 'm') or (t.typtype = 'c' and (select relkind from pg_class where oid = t.typrelid) = 'c')`,
  );
  for (const t of types) await client.query(`drop type if exists ${sqlName(client, t.name)} cascade`);
  await client.query(`truncate ${sqlName(client, MIGRATIONS_TABLE)} restart identity`);
}

interface ForeignKey {
  table: string;
  name: string;
  deferrable: boolean;
  deferred: boolean;
}

/**
 * The migrated schema made ready for the rows: every table of the backup there with its columns, every
 * table emptied (what the migrations wrote goes: the backup has it), the tables' own triggers off (they
 * would count picks twice, or empty the feed's queue at a restored draft event), and the foreign keys
 * deferred to the end of the load (rows come in any order). Returns the foreign keys as they were.
 */
async function prepareTables(client: pg.ClientBase, header: BackupHeader): Promise<{ foreignKeys: ForeignKey[]; names: string[] }> {
  const tables = await gameTables(client);
  for (const wanted of header.tables) {
    const found = tables.find((t) => t.name === wanted.name);
    const missing = found ? wanted.columns.filter((c) => !found.columns.includes(c)) : [];
    if (!found || missing.length > 0) {
      throw new CommandFailure(
        `Nothing was restored: after the backup's migrations the database has no ${found ? `column ${missing.join(', ')} in table ${wanted.name}` : `table ${wanted.name}`}; the backup does not match this version of the game.`,
      );
    }
  }
  const names = tables.map((t) => t.name);
  for (const name of names) await client.query(`alter table ${sqlName(client, name)} disable trigger user`);
  await client.query(`truncate ${names.map((n) => sqlName(client, n)).join(', ')}`);
  const { rows: foreignKeys } = await client.query<ForeignKey>(
    `select c.conrelid::regclass::text as table, c.conname as name, c.condeferrable as deferrable, c.condeferred as deferred
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace and n.nspname = current_schema()
      where c.contype = 'f'`,
  );
  for (const fk of foreignKeys) {
    if (!fk.deferrable) await client.query(`alter table ${fk.table} alter constraint ${sqlName(client, fk.name)} deferrable`);
  }
  await client.query('set constraints all deferred');
  return { foreignKeys, names };
}

/** After the rows: the foreign keys checked now and put back as they were, triggers on, sequences set, rows counted. */
async function finishLoad(client: pg.ClientBase, tables: { foreignKeys: ForeignKey[]; names: string[] }, trailer: BackupTrailer): Promise<void> {
  await client.query('set constraints all immediate');
  for (const fk of tables.foreignKeys) {
    if (!fk.deferrable) await client.query(`alter table ${fk.table} alter constraint ${sqlName(client, fk.name)} not deferrable`);
  }
  for (const name of tables.names) await client.query(`alter table ${sqlName(client, name)} enable trigger user`);
  for (const s of trailer.sequences) {
    await client.query(`select setval($1::regclass, $2::bigint, $3)`, [sqlName(client, s.name), s.value, s.called]);
  }
  for (const [name, rows] of Object.entries(trailer.rows)) {
    const { rows: counted } = await client.query<{ n: string }>(`select count(*) as n from ${sqlName(client, name)}`);
    if (Number(counted[0]!.n) !== rows) {
      throw new CommandFailure(`Nothing was restored (the transaction was rolled back): table ${name} holds ${counted[0]!.n} rows after loading ${rows}.`);
    }
  }
}
