import type pg from 'pg';

/*
 * The game's schema as the catalog tells it (never a hand-kept list, so a new table is never missed): the
 * schema the connection works in (`current_schema()`, public), its tables with their columns, its
 * sequences. Read by the built-in backup and restore.
 */

/** The table MikroORM records applied migrations in. */
export const MIGRATIONS_TABLE = 'mikro_orm_migrations';

export interface GameTable {
  name: string;
  /** The columns COPY carries, in the table's order (generated columns are computed, never copied). */
  columns: string[];
}

export async function gameTables(client: pg.ClientBase): Promise<GameTable[]> {
  const { rows } = await client.query<{ name: string; columns: string[] }>(
    `select c.relname as name,
            array_agg(a.attname::text order by a.attnum) filter (where a.attnum > 0 and not a.attisdropped and a.attgenerated = '') as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
       join pg_attribute a on a.attrelid = c.oid
      where c.relkind = 'r'
      group by c.relname
      order by c.relname`,
  );
  return rows.map((r) => ({ name: r.name, columns: r.columns ?? [] }));
}

export async function gameSequences(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
      where c.relkind = 'S' order by c.relname`,
  );
  return rows.map((r) => r.name);
}

/** `"pick"`: a name of the game's schema as SQL, quoted. */
export const sqlName = (client: pg.ClientBase, name: string): string => client.escapeIdentifier(name);

/** `"pick" ("id", "participant_id", …)`: what COPY names. */
export const copyTarget = (client: pg.ClientBase, table: GameTable): string =>
  `${sqlName(client, table.name)} (${table.columns.map((c) => client.escapeIdentifier(c)).join(', ')})`;
