/**
 * Standings through the operator's changes: after every start, recorded pick, undo, completion and reset
 * (which re-count the pick sets holding the players they change, in memory), the leaderboard must equal the pure
 * ranking computed from the raw tables, and an undo must restore the standings exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankEntries, type Entry } from '@first-round/shared/scoring';
import { completeRoundOne, recordPick, resetDraft, startDraft, undoLast } from '../src/modules/draft/draft.service.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seededRandom } from '@first-round/shared/seeded-random';

let t: TestApp;
let groupIds: number[] = [];
let playerIds: number[] = [];


/** The pure ranking from raw picks and the board, as the rules define it. */
async function expected(groupId: number) {
  const picks = await t.db.query<{ participant_id: string; name: string; rank: number; draft_round: number | null }>(
    groupId === 1
      ? `select k.participant_id, coalesce(p.screen_name, p.id) as name, pl.rank, pl.draft_round
           from pick k join participant p on p.id = k.participant_id join player pl on pl.id = k.player_id where k.group_id = 1`
      : `select m.participant_id, coalesce(p.screen_name, p.id) as name, pl.rank, pl.draft_round
           from group_membership m join participant p on p.id = m.participant_id
           join pick k on k.participant_id = m.participant_id and k.group_id = case when m.use_global_picks then 1 else m.group_id end
           join player pl on pl.id = k.player_id where m.group_id = $1`,
    groupId === 1 ? [] : [groupId],
  );
  const [state] = await t.db.query<{ filled: number; marked: boolean }>(
    `select (select count(*)::int from player where draft_round = 1) as filled, round_one_complete as marked from draft_state`,
  );
  const entries = new Map<string, Entry & { picks: { rank: number; draftRound: number | null }[] }>();
  for (const row of picks) {
    const entry = entries.get(row.participant_id) ?? { participantId: row.participant_id, participantName: row.name, picks: [] };
    entry.picks.push({ rank: row.rank, draftRound: row.draft_round });
    entries.set(row.participant_id, entry);
  }
  return rankEntries([...entries.values()], { roundOnePicks: 32, filledSlots: state!.filled, roundOneCompleteMarked: state!.marked });
}

/** The ranking's rows less their odds (a forecast, not the rules: held to the shared model by game/group-odds.test.ts). */
async function actual(groupId: number) {
  t.deps.leaderboards.invalidateGroup(groupId);
  return [...(await t.deps.leaderboards.get(groupId)).rankings].map(({ odds: _odds, ...row }) => row);
}

async function expectAllGroupsMatch() {
  for (const g of [1, ...groupIds]) expect(await actual(g)).toEqual(await expected(g));
}

beforeAll(async () => {
  t = await createTestApp();
  const random = seededRandom(2025);
  playerIds = (await t.db.query<{ id: number }>(`select id from player order by rank limit 80`)).map((r) => r.id);
  const participants = Array.from({ length: 120 }, (_, i) => `user_standing${String(i).padStart(3, '0')}`);
  await t.db.query(`insert into participant (id, screen_name) select unnest($1::text[]), unnest($1::text[])`, [participants]);
  groupIds = [];
  for (let g = 0; g < 4; g++) {
    const [row] = await t.db.query<{ id: number }>(`insert into groups (name) values ($1) returning id`, [`Standings ${g}`]);
    groupIds.push(row!.id);
  }
  const picks: [string, number, number][] = [];
  const memberships: [number, string, boolean][] = [];
  for (const p of participants) {
    // Mostly the top of the board, so many entries stay alive and ties happen.
    const count = 1 + Math.floor(random() * 12);
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(playerIds[Math.floor(random() ** 2 * playerIds.length)]!);
    for (const id of chosen) picks.push([p, 1, id]);
    for (const g of groupIds) {
      if (random() < 0.5) continue;
      const reuse = random() < 0.5;
      memberships.push([g, p, reuse]);
      if (!reuse) for (const id of [...chosen].slice(0, 1 + Math.floor(random() * chosen.size))) picks.push([p, g, id]);
    }
  }
  await t.db.query(`insert into group_membership (group_id, participant_id, use_global_picks) select * from unnest($1::int[], $2::text[], $3::bool[])`, [
    memberships.map((m) => m[0]),
    memberships.map((m) => m[1]),
    memberships.map((m) => m[2]),
  ]);
  await t.db.query(`insert into pick (participant_id, group_id, player_id) select * from unnest($1::text[], $2::int[], $3::int[])`, [
    picks.map((p) => p[0]),
    picks.map((p) => p[1]),
    picks.map((p) => p[2]),
  ]);
});
afterAll(async () => t.close());

describe('standings follow every operator change', () => {
  it('match the rules after start, each recorded pick, undo, completion, reopening and reset', async () => {
    const em = () => t.orm().em.fork();
    const s = t.deps.draft;
    await startDraft(em(), s, 'test');
    await expectAllGroupsMatch();
    const order = [...playerIds].sort(() => 0).filter((_, i) => i % 2 === 0);
    for (let slot = 1; slot <= 20; slot++) {
      await recordPick(em(), s, 'test', slot, order[slot - 1]!);
      if (slot % 4 === 0) await expectAllGroupsMatch();
    }
    // Undo restores the standings exactly as they were before the pick.
    const before = await actual(1);
    await recordPick(em(), s, 'test', 21, order[20]!);
    expect(await actual(1)).not.toEqual(before);
    await undoLast(em(), 'test');
    expect(await actual(1)).toEqual(before);
    for (const g of groupIds) expect(await actual(g)).toEqual(await expected(g));

    await completeRoundOne(em(), s, 'test');
    await expectAllGroupsMatch();
    await undoLast(em(), 'test'); // reopens round one
    await expectAllGroupsMatch();
    for (let slot = 21; slot <= 32; slot++) await recordPick(em(), s, 'test', slot, order[slot - 1]!);
    await expectAllGroupsMatch();
    const alive = (await actual(1)).filter((r) => !r.busted).length;
    expect(alive).toBeGreaterThan(0);
    await resetDraft(em(), 'test');
    await expectAllGroupsMatch();
  });

  it('follow pick saves, a changed board rank and a member leaving', async () => {
    const [someone] = await t.db.query<{ participant_id: string }>(`select participant_id from group_membership where group_id = $1 limit 1`, [groupIds[0]]);
    await t.db.query(`delete from pick where participant_id = $1 and group_id = 1`, [someone!.participant_id]);
    await t.db.query(`insert into pick (participant_id, group_id, player_id) values ($1, 1, $2), ($1, 1, $3)`, [someone!.participant_id, playerIds[0], playerIds[1]]);
    // Picks written behind the app's back are announced as a save announces them (the board and memberships are read as they are).
    t.deps.events.invalidate({ kind: 'participant', participant_id: someone!.participant_id });
    await t.db.query(`begin; set constraints player_rank_unique deferred; update player set rank = 1000 + rank where id = $1; commit;`.replace('$1', String(playerIds[0])));
    await t.db.query(`delete from group_membership where group_id = $1 and participant_id = $2`, [groupIds[1], someone!.participant_id]);
    await startDraft(t.orm().em.fork(), t.deps.draft, 'test');
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 1, playerIds[0]!);
    await expectAllGroupsMatch();
  });
});
