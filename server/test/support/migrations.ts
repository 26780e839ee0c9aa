import { openOrm, type Orm } from '../../src/db/orm.js';
import { createTestDb, type TestDb } from './test-db.js';

/**
 * A test database at the schema before `migration`, for the tests of what a migration does to the data it
 * finds: migrated as usual, then that migration and every later one reverted (down to a migration reverts
 * that one too). Fails unless exactly the migrations before it are left.
 */
export async function databaseBefore(migration: string): Promise<{ db: TestDb; orm: Orm }> {
  const db = await createTestDb();
  const orm = await openOrm(db.url, 2);
  const executed = (await orm.getMigrator().getExecutedMigrations()).map((m) => m.name);
  const at = executed.indexOf(migration);
  if (at <= 0) throw new Error(`${migration} is not among the migrations run after another`);
  await orm.getMigrator().down({ to: migration });
  const left = (await orm.getMigrator().getExecutedMigrations()).map((m) => m.name);
  if (left.join() !== executed.slice(0, at).join()) throw new Error(`reverting ${migration} left ${left.at(-1)} last`);
  return { db, orm };
}
