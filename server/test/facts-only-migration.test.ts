/**
 * The facts-only migration on a database from before it: the per-set counts (`entry_stat`), the triggers
 * that rewrote them and the functions restating the rules in SQL go; the facts (picks, the board, the
 * participants and their numbers) stay as they were. Its `down` restores the counts, recomputed from the picks.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Orm } from '../src/db/orm.js';
import { databaseBefore } from './support/migrations.js';
import type { TestDb } from './support/test-db.js';

const FACTS_ONLY = 'Migration20270117000000_facts_only';

let db: TestDb;
let orm: Orm;
beforeAll(async () => {
  ({ db, orm } = await databaseBefore(FACTS_ONLY));
});
afterAll(async () => {
  await orm?.close(true);
  await db?.close();
});

/** Triggers on the game's tables written by its own code (not constraints'), and functions that read the draft results. */
const rulesInTheDatabase = async () => ({
  triggers: (await db.query<{ name: string }>(`select tgname as name from pg_trigger where tgrelid in ('pick'::regclass, 'player'::regclass) and not tgisinternal order by 1`)).map((r) => r.name),
  functions: (await db.query<{ name: string }>(`select proname as name from pg_proc where pronamespace = current_schema()::regnamespace and prosrc ~ 'draft_round' order by 1`)).map((r) => r.name),
  table: (await db.query<{ t: string | null }>(`select to_regclass('entry_stat')::text as t`))[0]!.t,
});

const facts = async () => ({
  picks: await db.query(`select participant_id, group_id, player_id from pick order by 1, 2, 3`),
  participants: await db.query(`select id, num, screen_name from participant order by id`),
  players: await db.query(`select id, rank, draft_round, draft_pick from player order by id`),
});

it('drops the counts, their triggers and the rules in SQL, keeps every fact, and down brings the counts back', async () => {
  await db.query(`insert into player (rank, player_name, position, school) select n, 'Prospect ' || n, 'QB', 'State' from generate_series(1, 6) n`);
  await db.query(`insert into participant (id, screen_name) select 'user_f' || n, 'F ' || n from generate_series(1, 8) n`);
  await db.query(`insert into pick (participant_id, group_id, player_id) select 'user_f' || n, 1, p.id from generate_series(1, 8) n join player p on p.rank <= 1 + n % 5`);
  await db.query(`update player set draft_round = 1, draft_pick = 1 where rank = 2`);
  const before = await rulesInTheDatabase();
  expect(before.table).toBe('entry_stat');
  expect(before.triggers).toEqual(['pick_delete_stats', 'pick_insert_stats', 'pick_truncate_stats', 'player_update_stats']);
  expect(before.functions).toEqual(['entry_stat_recompute', 'player_changed']);
  const kept = await facts();

  await orm.getMigrator().up({ to: FACTS_ONLY });
  expect(await rulesInTheDatabase()).toEqual({ triggers: [], functions: [], table: null });
  expect(await facts()).toEqual(kept);
  // Writing facts writes nothing else now.
  await db.query(`update player set draft_round = 1, draft_pick = 2 where rank = 1`);
  await db.query(`insert into pick (participant_id, group_id, player_id) select 'user_f1', 1, id from player where rank = 6`);

  await orm.getMigrator().down();
  const restored = await rulesInTheDatabase();
  expect(restored).toEqual(before);
  const counts = await db.query(`select participant_id, participant_num, pick_group_id, picks, hits, later_round, max_hit_rank from entry_stat order by 1`);
  expect(counts).toEqual(
    await db.query(
      `select k.participant_id, pa.num as participant_num, k.group_id as pick_group_id, count(*)::int as picks,
              (count(*) filter (where p.draft_round = 1))::int as hits, (count(*) filter (where p.draft_round > 1))::int as later_round,
              max(p.rank) filter (where p.draft_round = 1) as max_hit_rank
         from pick k join player p on p.id = k.player_id join participant pa on pa.id = k.participant_id
        group by k.participant_id, pa.num, k.group_id order by 1`,
    ),
  );
  expect(counts).toHaveLength(8);
});
