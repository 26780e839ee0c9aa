/**
 * The look-alike keys migration on a database from before it: every screen name and group name keeps its
 * text; each gets its fold key and glyph key (shared/src/name-keys.ts), unless an older row's name passes
 * for it (either key of one is either key of the other), whose keys it then leaves to that row. The unique
 * indexes hold from then on, the global group's name among them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Orm } from '../src/db/orm.js';
import { databaseBefore } from './support/migrations.js';
import type { TestDb } from './support/test-db.js';

const LOOKALIKE_KEYS = 'Migration20270116000000_name_lookalike_keys';

let db: TestDb;
let orm: Orm;
beforeAll(async () => {
  ({ db, orm } = await databaseBefore(LOOKALIKE_KEYS));
});
afterAll(async () => {
  await orm?.close(true);
  await db?.close();
});

it('keys every name, keeps every name, and gives shared keys to their oldest holder only', async () => {
  await db.query(
    `insert into participant (id, screen_name, screen_name_key, created_at) values
       ('user_alice', 'alice400877', 'alice400877', now() - interval '5 days'),
       ('user_cyrillic', 'аlice400877', 'аlice400877', now() - interval '4 days'),
       ('user_capital_i', 'aIice400877', 'aiice400877', now() - interval '3 days'),
       ('user_chalk', 'Chalk 2O', 'chalk2o', now() - interval '3 days'),
       ('user_jo', 'Jo Smith', 'josmith', now() - interval '2 days'),
       ('user_jo_dash', 'JO-SMITH', null, now() - interval '1 day'),
       ('user_jose', 'José', 'josé', now()),
       ('user_plain', 'Plain', 'plain', now()),
       ('user_nameless', null, null, now())`,
  );
  await db.query(
    `insert into groups (id, name, created_at) values
       (10000001, 'Glоbal', now() - interval '3 days'),
       (10000002, 'Office Pool', now() - interval '2 days'),
       (10000003, 'OFFICE-POOL', now() - interval '1 day'),
       (10000004, 'Office Pооl 2', now())`,
  );
  await orm.getMigrator().up();

  const participants = await db.query<{ id: string; screen_name: string | null; fold: string | null; glyph: string | null }>(
    `select id, screen_name, screen_name_key as fold, screen_name_glyph_key as glyph from participant order by id`,
  );
  expect(participants).toEqual([
    { id: 'user_alice', screen_name: 'alice400877', fold: 'alice4oo877', glyph: 'alice4oo877' },
    // Passes for alice only as written (a capital i): the glyph key is hers, so it keeps its name without keys.
    { id: 'user_capital_i', screen_name: 'aIice400877', fold: null, glyph: null },
    // A reference entry's look-alike stored before the rule is kept (only inputs are checked), and holds its keys.
    { id: 'user_chalk', screen_name: 'Chalk 2O', fold: 'chalk2o', glyph: 'chalk2o' },
    { id: 'user_cyrillic', screen_name: 'аlice400877', fold: null, glyph: null },
    { id: 'user_jo', screen_name: 'Jo Smith', fold: 'josrnith', glyph: 'josrnith' },
    { id: 'user_jo_dash', screen_name: 'JO-SMITH', fold: null, glyph: null },
    { id: 'user_jose', screen_name: 'José', fold: 'jose\u0301', glyph: 'jose\u0301' },
    { id: 'user_nameless', screen_name: null, fold: null, glyph: null },
    { id: 'user_plain', screen_name: 'Plain', fold: 'plain', glyph: 'plain' },
  ]);

  const groups = await db.query<{ id: number; name: string; fold: string | null; glyph: string | null }>(
    `select id, name, name_key as fold, name_glyph_key as glyph from groups order by id`,
  );
  expect(groups).toEqual([
    { id: 1, name: 'Global', fold: 'global', glyph: 'global' },
    { id: 10000001, name: 'Glоbal', fold: null, glyph: null },
    { id: 10000002, name: 'Office Pool', fold: 'officepool', glyph: 'officepool' },
    { id: 10000003, name: 'OFFICE-POOL', fold: null, glyph: null },
    { id: 10000004, name: 'Office Pооl 2', fold: 'officepool2', glyph: 'officepool2' },
  ]);

  await expect(db.query(`insert into participant (id, screen_name, screen_name_key, screen_name_glyph_key) values ('user_new', 'a|ice400877', 'new', 'alice4oo877')`)).rejects.toMatchObject({
    code: '23505',
    constraint: 'participant_screen_name_glyph_key_unique',
  });
  await expect(db.query(`insert into groups (id, name, name_key, name_glyph_key) values (10000005, 'GLOBAL!', 'global', 'new')`)).rejects.toMatchObject({
    code: '23505',
    constraint: 'groups_name_key_unique',
  });
  await expect(db.query(`insert into groups (id, name, name_key, name_glyph_key) values (10000006, 'G1obal', 'g1obal', 'global')`)).rejects.toMatchObject({
    code: '23505',
    constraint: 'groups_name_glyph_key_unique',
  });
});

it('goes back down to the first key migration’s keys', async () => {
  await orm.getMigrator().down({ to: LOOKALIKE_KEYS });
  const rows = await db.query<{ id: string; screen_name_key: string | null }>(`select id, screen_name_key from participant where screen_name is not null order by id`);
  expect(rows).toEqual([
    { id: 'user_alice', screen_name_key: 'alice400877' },
    { id: 'user_capital_i', screen_name_key: 'aiice400877' },
    { id: 'user_chalk', screen_name_key: 'chalk2o' },
    { id: 'user_cyrillic', screen_name_key: 'аlice400877' },
    { id: 'user_jo', screen_name_key: 'josmith' },
    { id: 'user_jo_dash', screen_name_key: null },
    { id: 'user_jose', screen_name_key: 'josé' },
    { id: 'user_plain', screen_name_key: 'plain' },
  ]);
  const columns = await db.query<{ column_name: string }>(
    `select column_name from information_schema.columns where table_name in ('participant', 'groups') and (column_name like '%glyph%' or column_name = 'name_key')`,
  );
  expect(columns).toEqual([]);
});
