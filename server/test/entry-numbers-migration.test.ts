/**
 * The entry-numbers migration on a database from before it: every participant gets a number of their own,
 * every `entry_stat` row its participant's, and from then on the database keeps the two in step (new sets,
 * a changed id, a row claiming another participant's number) — the global standings key their copy on it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Orm } from '../src/db/orm.js';
import { databaseBefore } from './support/migrations.js';
import type { TestDb } from './support/test-db.js';

const ENTRY_NUMBERS = 'Migration20270112000000_entry_numbers';

let db: TestDb;
let orm: Orm;
beforeAll(async () => {
  ({ db, orm } = await databaseBefore(ENTRY_NUMBERS));
});
afterAll(async () => {
  await orm?.close(true);
  await db?.close();
});

const mismatched = async () =>
  (await db.query<{ n: number }>(`select count(*)::int as n from entry_stat s join participant p on p.id = s.participant_id where s.participant_num is distinct from p.num`))[0]!.n;

it('numbers every participant and their sets, and keeps them in step after', async () => {
  await db.query(`insert into player (rank, player_name, position, school) select n, 'Prospect ' || n, 'QB', 'State' from generate_series(1, 4) n`);
  await db.query(`insert into participant (id, screen_name) select 'user_n' || n, 'N ' || n from generate_series(1, 5) n`);
  await db.query(`insert into pick (participant_id, group_id, player_id) select 'user_n' || n, 1, p.id from generate_series(1, 5) n join player p on p.rank <= 1 + n % 4`);
  // Up to this migration: a later one drops entry_stat (Migration20270117000000_facts_only).
  await orm.getMigrator().up({ to: ENTRY_NUMBERS });

  const numbers = await db.query<{ num: number }>(`select num from participant order by id`);
  expect(numbers.every((r) => Number.isInteger(r.num) && r.num > 0)).toBe(true);
  expect(new Set(numbers.map((r) => r.num)).size).toBe(5);
  expect((await db.query<{ n: number }>(`select count(*)::int as n from entry_stat`))[0]!.n).toBe(5);
  expect(await mismatched()).toBe(0);

  // A participant after the migration gets the next number; their new set carries it.
  await db.query(`insert into participant (id) values ('user_later')`);
  await db.query(`insert into pick (participant_id, group_id, player_id) select 'user_later', 1, id from player where rank = 2`);
  const [later] = await db.query<{ num: number; set_num: number }>(
    `select p.num, s.participant_num as set_num from participant p join entry_stat s on s.participant_id = p.id where p.id = 'user_later'`,
  );
  expect(later!.num).toBeGreaterThan(Math.max(...numbers.map((r) => r.num)));
  expect(later!.set_num).toBe(later!.num);

  // An id changed: the set follows with the same number.
  await db.query(`update participant set id = 'user_n1_moved' where id = 'user_n1'`);
  expect(await mismatched()).toBe(0);
  // A set cannot claim another participant's number.
  await expect(db.query(`update entry_stat set participant_num = (select num from participant where id = 'user_n2') where participant_id = 'user_n3'`)).rejects.toThrow(
    /entry_stat_participant_fkey/,
  );
});
