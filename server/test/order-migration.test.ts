/**
 * The round-one order migration on a copy of a filled database: a 2025 season gets the bundled 2025 order
 * (and keeps every row it had), a database already in 2026 gets none (nobody knows its order), and a
 * closed 2025 season in the archive gets the 2025 order there. Reverting and migrating again works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm, type Orm } from '../src/db/orm.js';
import { createTestDb, type TestDb } from './support/test-db.js';

const ORDER = 'Migration20270102000000_round_one_order';
const ORDER_2025 = 'TEN JAX NYG NE CLE LV NYJ CAR NO CHI SF DAL MIA IND ATL ARI CIN SEA TB DEN PIT LAC GB MIN NYG ATL BAL DET WAS BUF PHI KC'.split(' ');

let db: TestDb;
let orm: Orm;
beforeAll(async () => {
  db = await createTestDb();
  orm = await openOrm(db.url, 2);
});
afterAll(async () => {
  await orm?.close(true);
  await db?.close();
});

/** Back to the schema before the order: this migration and any after it reverted. */
async function revertOrder() {
  const executed = (await orm.getMigrator().getExecutedMigrations()).map((m) => m.name);
  expect(executed).toContain(ORDER);
  await orm.getMigrator().down({ to: ORDER });
  expect((await orm.getMigrator().getExecutedMigrations()).map((m) => m.name)).not.toContain(ORDER);
}

const order = async () => (await db.query<{ team: string }>(`select team from round_one_order order by slot`)).map((r) => r.team);
const archived = async (year: number) => (await db.query<{ team: string }>(`select team from season_round_one_order where season = $1 order by slot`, [year])).map((r) => r.team);
/** The audit log and the feed's queue as they were before (the columns that existed then). */
const oldRows = () =>
  db.query(`select (select json_agg(json_build_array(id, kind, slot, actor, detail) order by id) from draft_event) as events,
                   (select json_agg(json_build_array(id, slot, kind, feed_player_name, status) order by id) from feed_queue_item) as queue`);

describe(ORDER, () => {
  it('gives a 2025 season the bundled 2025 order, keeping its audit log and feed queue as they were', async () => {
    await revertOrder();
    await db.query(`insert into draft_event (kind, actor) values ('start', 'cli:op')`);
    await db.query(`insert into feed_queue_item (slot, kind, feed_player_name, feed_school) values (3, 'confirm', 'Abdul Cartr', 'Penn State')`);
    const before = await oldRows();
    await orm.getMigrator().up();
    expect(await order()).toEqual(ORDER_2025);
    expect(await oldRows()).toEqual(before);
    expect(await db.query(`select team, team_before from draft_event`)).toEqual([{ team: null, team_before: null }]);
  });

  it('gives a database already in 2026 no order, and the closed 2025 season in the archive the 2025 one', async () => {
    await revertOrder();
    await db.query(`update season set closed_at = now() where year = 2025`);
    await db.query(`insert into season (year) values (2026)`);
    await orm.getMigrator().up();
    expect(await order()).toEqual([]);
    expect(await archived(2025)).toEqual(ORDER_2025);
    expect(await archived(2026)).toEqual([]);
  });

  it('keeps team abbreviations in shape and one team per slot', async () => {
    await db.query(`insert into round_one_order (slot, team) values (1, 'TEN')`);
    await expect(db.query(`insert into round_one_order (slot, team) values (1, 'SEA')`)).rejects.toThrow(/round_one_order_pkey/);
    await expect(db.query(`insert into round_one_order (slot, team) values (40, 'Seattle')`)).rejects.toThrow(/round_one_order_team_check/);
    await expect(db.query(`insert into round_one_order (slot, team) values (0, 'SEA')`)).rejects.toThrow(/round_one_order_slot_check/);
  });
});
