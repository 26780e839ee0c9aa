/**
 * What a draft change writes. Recording a pick writes its player's result and its audit row, in one short
 * transaction, whatever the number of entries holding that player: per-entry counts are kept in memory on
 * every instance (the entry book, modules/standings/), never rewritten by the pick's transaction. Found out
 * from PostgreSQL itself: every row version carries the id of the transaction that wrote it (`xmin`), so
 * each table is asked how many rows the pick's transaction wrote there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeRoundOne, recordPick, resetDraft, startDraft, undoLast } from '../src/modules/draft/draft.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
let players: number[];
const em = () => t.orm().em.fork();

beforeAll(async () => {
  t = await createTestApp();
  players = (await t.db.query<{ id: number }>(`select id from player order by rank limit 12`)).map((r) => r.id);
  // 400 entries hold the first player, in My Picks and in a group of their own picks.
  const ids = Array.from({ length: 400 }, (_, i) => `user_writes${String(i).padStart(3, '0')}`);
  await t.db.query(`insert into participant (id, screen_name) select unnest($1::text[]), unnest($1::text[])`, [ids]);
  const [group] = await t.db.query<{ id: number }>(`insert into groups (name) values ('Writes') returning id`);
  await t.db.query(`insert into group_membership (group_id, participant_id, use_global_picks) select $1, unnest($2::text[]), false`, [group!.id, ids]);
  for (const groupId of [1, group!.id]) {
    await t.db.query(`insert into pick (participant_id, group_id, player_id) select p, $1, pl from unnest($2::text[]) p cross join unnest($3::int[]) pl`, [
      groupId,
      ids,
      players.slice(0, 6),
    ]);
  }
  await startDraft(em(), t.deps.draft, 'test');
});
afterAll(async () => t?.close());

/** How many rows each table holds that the transaction which logged draft event `eventId` wrote (tables with none left out). */
async function rowsWrittenWith(eventId: number): Promise<Record<string, number>> {
  const [{ xid }] = (await t.db.query<{ xid: string }>(`select xmin::text as xid from draft_event where id = $1`, [eventId])) as [{ xid: string }];
  const tables = await t.db.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
  );
  const written: Record<string, number> = {};
  for (const { name } of tables) {
    const [{ n }] = (await t.db.query<{ n: number }>(`select count(*)::int as n from "${name}" where xmin = $1::xid`, [xid])) as [{ n: number }];
    if (n > 0) written[name] = n;
  }
  return written;
}

describe('a draft change writes facts, nothing per entry', () => {
  it('recording a pick held by 800 entries writes the player and the audit row only', async () => {
    const change = await recordPick(em(), t.deps.draft, 'test', 1, players[0]!);
    expect(await rowsWrittenWith(change.event_id)).toEqual({ draft_event: 1, player: 1 });
  });

  it('so do an undo, round one marked complete, and a reset', async () => {
    expect(await rowsWrittenWith((await undoLast(em(), 'test')).event_id)).toEqual({ draft_event: 1, player: 1 });
    await recordPick(em(), t.deps.draft, 'test', 1, players[0]!);
    expect(await rowsWrittenWith((await completeRoundOne(em(), t.deps.draft, 'test')).event_id)).toEqual({ draft_event: 1, draft_state: 1 });
    // A reset clears every result (one row per player taken) and the draft's state (and the feed's queue, by its trigger).
    expect(await rowsWrittenWith((await resetDraft(em(), 'test')).event_id)).toEqual({ draft_event: 1, draft_state: 1, feed_status: 1, player: 1 });
  });
});
