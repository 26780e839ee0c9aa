/**
 * The screen-name key migration on a database from before it: every name keeps its text; the oldest
 * holder of each key gets it, later lookalikes keep their name without one (nobody is renamed, nobody new
 * can take it), and the unique index holds from then on.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Orm } from '../src/db/orm.js';
import { databaseBefore } from './support/migrations.js';
import type { TestDb } from './support/test-db.js';

const SCREEN_NAME_KEY = 'Migration20270104000000_screen_name_key';

let db: TestDb;
let orm: Orm;
beforeAll(async () => {
  ({ db, orm } = await databaseBefore(SCREEN_NAME_KEY));
});
afterAll(async () => {
  await orm?.close(true);
  await db?.close();
});

it('keys every name, keeps every name, and gives a shared key to its oldest holder only', async () => {
  await db.query(
    `insert into participant (id, screen_name, created_at) values
       ('user_jo', 'Jo Smith', now() - interval '3 days'),
       ('user_josmith', 'josmith', now() - interval '2 days'),
       ('user_jo_dash', 'JO-SMITH', now() - interval '1 day'),
       ('user_chalk', 'Chalk 20', now() - interval '1 day'),
       ('user_plain', 'Plain', now()),
       ('user_nameless', null, now())`,
  );
  // This migration alone, as it ran: a later one keys names again (name-lookalike-keys-migration.test.ts).
  await orm.getMigrator().up({ to: SCREEN_NAME_KEY });
  const rows = await db.query<{ id: string; screen_name: string | null; screen_name_key: string | null }>(
    `select id, screen_name, screen_name_key from participant order by id`,
  );
  expect(rows).toEqual([
    // A reference entry's name stored before the rule is kept (only inputs are checked), and holds its key.
    { id: 'user_chalk', screen_name: 'Chalk 20', screen_name_key: 'chalk20' },
    { id: 'user_jo', screen_name: 'Jo Smith', screen_name_key: 'josmith' },
    { id: 'user_jo_dash', screen_name: 'JO-SMITH', screen_name_key: null },
    { id: 'user_josmith', screen_name: 'josmith', screen_name_key: null },
    { id: 'user_nameless', screen_name: null, screen_name_key: null },
    { id: 'user_plain', screen_name: 'Plain', screen_name_key: 'plain' },
  ]);
  await expect(db.query(`insert into participant (id, screen_name, screen_name_key) values ('user_new', 'Jo.Smith', 'josmith')`)).rejects.toMatchObject({
    code: '23505',
    constraint: 'participant_screen_name_key_unique',
  });
});
