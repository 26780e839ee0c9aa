import type { EntityManager } from '@mikro-orm/postgresql';
import type { Knex } from '@mikro-orm/postgresql';

/** Runs `text` with its $n parameters as knex bindings, in the entity manager's transaction when there is one. */
function run(em: EntityManager, text: string, params: readonly unknown[]): Knex.Raw {
  const values: unknown[] = [];
  const knexText = text.replace(/\$(\d+)/g, (_, n: string) => {
    values.push(params[Number(n) - 1]);
    return '?';
  });
  const runner = em.getTransactionContext<Knex.Transaction>() ?? em.getKnex();
  return runner.raw(knexText, values as Knex.RawBinding[]);
}

/**
 * Runs parameterised SQL ($1, $2 … as in psql and node-postgres) on the entity manager's connection,
 * inside its current transaction when there is one. Values travel as bind parameters, never inlined.
 * (MikroORM's `em.execute` formats values into the SQL text; knex.raw keeps them as parameters.)
 */
export async function sql<T = Record<string, unknown>>(em: EntityManager, text: string, params: readonly unknown[] = []): Promise<T[]> {
  return ((await run(em, text, params)) as { rows: T[] }).rows;
}

export async function sqlOne<T = Record<string, unknown>>(em: EntityManager, text: string, params: readonly unknown[] = []): Promise<T | undefined> {
  const rows = await sql<T>(em, text, params);
  return rows[0];
}

/**
 * `sql`, each row an array of its columns in select order rather than an object: for results of many rows
 * (a million participants), where an object per row with its keys is work and memory for nothing.
 */
export async function sqlRows<T extends unknown[] = unknown[]>(em: EntityManager, text: string, params: readonly unknown[] = []): Promise<T[]> {
  return ((await run(em, text, params).options({ rowMode: 'array' })) as { rows: T[] }).rows;
}
