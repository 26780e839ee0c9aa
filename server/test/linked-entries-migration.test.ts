/**
 * The linked-entries migration on a database from before it: members with no group picks, or with group
 * picks equal to their global ones, become linked (the copy dropped); members with picks of their own
 * keep them; members already linked stay linked and lose picks that were never their entry.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Orm } from '../src/db/orm.js';
import { databaseBefore } from './support/migrations.js';
import type { TestDb } from './support/test-db.js';

const LINKED_ENTRIES = 'Migration20270101000000_linked_entries';

let db: TestDb;
let orm: Orm;
beforeAll(async () => {
  ({ db, orm } = await databaseBefore(LINKED_ENTRIES));
});
afterAll(async () => {
  await orm?.close(true);
  await db?.close();
});

async function picksOf(participant: string, groupId: number): Promise<number[]> {
  const rows = await db.query<{ rank: number }>(
    `select p.rank from pick k join player p on p.id = k.player_id where k.participant_id = $1 and k.group_id = $2 order by p.rank`,
    [participant, groupId],
  );
  return rows.map((r) => r.rank);
}

it('links members whose group entry was empty or a copy of My Picks, and keeps own picks', async () => {
  await db.query(`insert into player (rank, player_name, position, school) select n, 'Prospect ' || n, 'QB', 'State' from generate_series(1, 6) n`);
  await db.query(`insert into participant (id, screen_name) values ('user_empty', 'Empty'), ('user_copy', 'Copy'), ('user_own', 'Own'), ('user_linked', 'Linked'), ('user_subset', 'Subset')`);
  const [g] = await db.query<{ id: number }>(`insert into groups (name, created_by) values ('Office', 'user_empty') returning id`);
  const group = g!.id;
  await db.query(
    `insert into group_membership (group_id, participant_id, is_owner, use_global_picks)
     values ($1, 'user_empty', true, false), ($1, 'user_copy', false, false), ($1, 'user_own', false, false),
            ($1, 'user_linked', false, true), ($1, 'user_subset', false, false)`,
    [group],
  );
  const add = (participant: string, groupId: number, ranks: number[]) =>
    db.query(`insert into pick (participant_id, group_id, player_id) select $1, $2, id from player where rank = any($3::int[])`, [participant, groupId, ranks]);
  // Empty: 3 picks on My Picks, none in the group (the group said "No picks yet").
  await add('user_empty', 1, [1, 2, 3]);
  // Copy: Reuse Picks saved the same players and nothing changed since.
  await add('user_copy', 1, [1, 4]);
  await add('user_copy', group, [1, 4]);
  // Own: different players in the group.
  await add('user_own', 1, [1, 2]);
  await add('user_own', group, [5, 6]);
  // Linked already, with group picks left from before that were never the entry.
  await add('user_linked', 1, [2]);
  await add('user_linked', group, [3]);
  // Subset: fewer players than My Picks is a different entry, kept as own.
  await add('user_subset', 1, [1, 2, 3]);
  await add('user_subset', group, [1, 2]);

  // Up to this migration: entry_stat, which it checks too, is dropped by a later one (Migration20270117000000_facts_only).
  await orm.getMigrator().up({ to: LINKED_ENTRIES });

  const modes = await db.query<{ participant_id: string; use_global_picks: boolean }>(
    `select participant_id, use_global_picks from group_membership where group_id = $1 order by participant_id`,
    [group],
  );
  expect(Object.fromEntries(modes.map((m) => [m.participant_id, m.use_global_picks]))).toEqual({
    user_copy: true,
    user_empty: true,
    user_linked: true,
    user_own: false,
    user_subset: false,
  });
  // Linked members hold no group picks; their My Picks are untouched; own picks are kept.
  for (const p of ['user_empty', 'user_copy', 'user_linked']) expect(await picksOf(p, group)).toEqual([]);
  expect(await picksOf('user_copy', 1)).toEqual([1, 4]);
  expect(await picksOf('user_own', group)).toEqual([5, 6]);
  expect(await picksOf('user_subset', group)).toEqual([1, 2]);
  // entry_stat follows (the triggers): a dropped copy has no row any more.
  const stats = await db.query<{ participant_id: string }>(`select participant_id from entry_stat where pick_group_id = $1 order by 1`, [group]);
  expect(stats.map((s) => s.participant_id)).toEqual(['user_own', 'user_subset']);
  // New memberships start linked.
  await db.query(`insert into participant (id) values ('user_new')`);
  await db.query(`insert into group_membership (group_id, participant_id) values ($1, 'user_new')`, [group]);
  expect((await db.query<{ use_global_picks: boolean }>(`select use_global_picks from group_membership where participant_id = 'user_new'`))[0]!.use_global_picks).toBe(true);
});
