/**
 * The seasons migration on a copy of a filled database: a database at the migration before it, with
 * accounts, groups, picks, results and an audit log, is migrated; every table reads exactly as before,
 * and the data become one season of the right year.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm, type Orm } from '../src/db/orm.js';
import { createTestDb, type TestDb } from './support/test-db.js';

const SEASONS = 'Migration20261230000000_seasons';

let db: TestDb;
let orm: Orm;
beforeAll(async () => {
  db = await createTestDb();
  orm = await openOrm(db.url, 2);
  // The copy: the schema as it was before seasons.
  await revertSeasons();
});
afterAll(async () => {
  await orm?.close(true);
  await db?.close();
});

/** Back to the schema before seasons: the seasons migration and the ones after it reverted. */
async function revertSeasons() {
  const executed = (await orm.getMigrator().getExecutedMigrations()).map((m) => m.name);
  const at = executed.indexOf(SEASONS);
  expect(at).toBeGreaterThan(0);
  // Down to (and including) seasons.
  await orm.getMigrator().down({ to: SEASONS });
  expect((await orm.getMigrator().getExecutedMigrations()).map((m) => m.name)).toEqual(executed.slice(0, at));
}

/** Every table's rows as one fingerprint each (the migrations' own bookkeeping aside). */
async function fingerprints(): Promise<Record<string, string>> {
  const tables = await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'mikro_orm_migrations' and table_name not like 'season%'
      order by 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await db.query<{ n: number; md5: string | null }>(`select count(*)::int as n, md5(string_agg(t::text, '|' order by t::text)) as md5 from ${name} t`);
    out[name] = `${row!.n}:${row!.md5}`;
  }
  return out;
}

async function fill() {
  await db.query(`insert into player (rank, player_name, position, school, draft_round, draft_pick)
                  values (1, 'First Prospect', 'QB', 'A', 1, 1), (2, 'Second Prospect', 'WR', 'B', 1, 2), (3, 'Third Prospect', 'OT', 'C', null, null)`);
  await db.query(`insert into participant (id, screen_name) values ('user_ann', 'Ann'), ('user_bob', 'Bob')`);
  const [g] = await db.query<{ id: number }>(`insert into groups (name, created_by) values ('Office', 'user_ann') returning id`);
  await db.query(`insert into group_membership (group_id, participant_id, is_owner) values ($1, 'user_ann', true), ($1, 'user_bob', false)`, [g!.id]);
  await db.query(
    `insert into pick (participant_id, group_id, player_id)
     select 'user_ann', 1, id from player where rank <= 2 union all
     select 'user_bob', 1, id from player where rank = 3 union all
     select 'user_ann', $1, id from player where rank = 1`,
    [g!.id],
  );
  await db.query(`insert into draft_event (kind, actor) values ('start', 'cli:op')`);
  await db.query(`insert into draft_event (kind, slot, player_id, actor, detail) select 'pick', 1, id, 'cli:op', player_name from player where rank = 1`);
  await db.query(`insert into share_link (token, participant_id, group_id) values ('abcdefghijklmnopqrstuvwxyz', 'user_ann', $1)`, [g!.id]);
}

async function migrateAndReadSeasons() {
  // Up to seasons only: the migrations after it change tables of their own (tested on their own).
  await orm.getMigrator().up({ to: SEASONS });
  return db.query<{ year: number; current: boolean; started_at: Date | null }>(`select year, closed_at is null as current, started_at from season order by year`);
}

describe('Migration20261230000000_seasons', () => {
  it('keeps every row of a filled database and files it under the year its draft started', async () => {
    await fill();
    await db.query(`update draft_state set started_at = '2025-04-25T00:05:00Z', deadline = '2025-04-25T00:00:00Z', round_one_complete = true`);
    const before = await fingerprints();
    expect(before.pick).toMatch(/^4:/);

    const seasons = await migrateAndReadSeasons();
    expect(seasons).toEqual([{ year: 2025, current: true, started_at: new Date('2025-04-25T00:05:00Z') }]);
    expect(await fingerprints()).toEqual(before);
    // The archive starts empty: the season is still the current one.
    expect(await db.query(`select (select count(*) from season_entry)::int as entries, (select count(*) from season_player)::int as players`)).toEqual([{ entries: 0, players: 0 }]);
  });

  it('files a draft that was never started under its deadline’s year once that has passed, else 2025', async () => {
    await revertSeasons();
    await db.query(`update draft_state set started_at = null, deadline = '2024-04-26T00:00:00Z', round_one_complete = false`);
    expect((await migrateAndReadSeasons()).map((s) => s.year)).toEqual([2024]);

    await revertSeasons();
    // A deadline still ahead (a server started with no DRAFT_DEADLINE records next April's): the bundled 2025 class.
    await db.query(`update draft_state set deadline = now() + interval '100 days'`);
    expect((await migrateAndReadSeasons()).map((s) => s.year)).toEqual([2025]);
  });

  it('allows one current season only, and one row per year', async () => {
    await expect(db.query(`insert into season (year) values (2030)`)).rejects.toThrow(/season_one_current/);
    await expect(db.query(`insert into season (year, closed_at) values (2025, now())`)).rejects.toThrow(/season_pkey/);
    await db.query(`insert into season (year, closed_at) values (2019, now())`);
  });
});
