import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from './support/test-db.js';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => db.close());

describe('schema constraints', () => {
  it('starts with the global group (id 1) and one draft state row', async () => {
    expect(await db.query('select id, name from groups')).toEqual([{ id: 1, name: 'Global' }]);
    const [state] = await db.query<{ started_at: Date | null; round_one_complete: boolean }>('select * from draft_state');
    expect(state?.started_at).toBeNull();
    expect(state?.round_one_complete).toBe(false);
  });

  it('refuses duplicate group names case-insensitively and a second membership row', async () => {
    await db.query(`insert into participant (id, screen_name) values ('user_a', 'Alice')`);
    const [g] = await db.query<{ id: number }>(`insert into groups (name) values ('Office Pool') returning id`);
    await expect(db.query(`insert into groups (name) values ('office pool')`)).rejects.toThrow(/groups_name_unique/);
    await db.query(`insert into group_membership (group_id, participant_id) values ($1, 'user_a')`, [g?.id]);
    await expect(
      db.query(`insert into group_membership (group_id, participant_id) values ($1, 'user_a')`, [g?.id]),
    ).rejects.toThrow(/duplicate key/);
  });

  it('refuses duplicate screen names case-insensitively', async () => {
    await expect(db.query(`insert into participant (id, screen_name) values ('user_b', 'ALICE')`)).rejects.toThrow(
      /participant_screen_name_unique/,
    );
  });

  it('refuses two players in one draft slot', async () => {
    await db.query(`insert into player (rank, player_name, position, school, draft_round, draft_pick)
                    values (1, 'A', 'QB', 'X', 1, 1), (2, 'B', 'WR', 'Y', null, null)`);
    await expect(db.query(`update player set draft_round = 1, draft_pick = 1 where player_name = 'B'`)).rejects.toThrow(
      /player_draft_slot_unique/,
    );
  });

  it('deleting a group removes its memberships, picks and links', async () => {
    const [g] = await db.query<{ id: number }>(`insert into groups (name) values ('Doomed') returning id`);
    const [p] = await db.query<{ id: number }>(`select id from player limit 1`);
    await db.query(`insert into group_membership (group_id, participant_id) values ($1, 'user_a')`, [g?.id]);
    await db.query(`insert into pick (participant_id, group_id, player_id) values ('user_a', $1, $2)`, [g?.id, p?.id]);
    await db.query(
      `insert into join_link (group_id, token_hash, created_by, expires_at) values ($1, 'h', 'user_a', now() + interval '1 day')`,
      [g?.id],
    );
    await db.query(`delete from groups where id = $1`, [g?.id]);
    const counts = await db.query<{ n: number }>(
      `select (select count(*) from group_membership where group_id = $1)
            + (select count(*) from pick where group_id = $1)
            + (select count(*) from join_link where group_id = $1) as n`,
      [g?.id],
    );
    expect(Number(counts[0]?.n)).toBe(0);
  });

  it('never stores a membership in the global group', async () => {
    await expect(db.query(`insert into group_membership (group_id, participant_id) values (1, 'user_a')`)).rejects.toThrow(
      /membership_not_global/,
    );
  });
});
