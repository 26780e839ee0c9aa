/**
 * The global standings ranked in Node (global-standings.ts) against the leaderboard SQL, after every kind
 * of change, with each ranking reading only what changed since the previous one: recorded picks and undos,
 * round completion, pick edits, new and removed entries, renames, board changes, and a change that was
 * still uncommitted when the previous ranking read (the one a careless "changed since" would lose).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import { rankEntries, type Entry } from '@first-round/shared/scoring';
import { completeRoundOne, recordPick, resetDraft, startDraft, undoLast } from '../src/modules/draft/draft.service.js';
import { GlobalStandings, unseenFrom } from '../src/modules/leaderboard/global-standings.js';
import { groupLeaderboardSql } from '../src/modules/leaderboard/leaderboard.sql.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seededRandom } from '@first-round/shared/seeded-random';

let t: TestApp;
let standings: GlobalStandings;
let players: number[] = [];
const participants = Array.from({ length: 200 }, (_, i) => `user_global${String(i).padStart(3, '0')}`);

const random = seededRandom(11);

async function addEntry(id: string, name: string | null, count: number) {
  await t.db.query(`insert into participant (id, screen_name) values ($1, $2) on conflict (id) do nothing`, [id, name]);
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(players[Math.floor(random() ** 2 * players.length)]!);
  await t.db.query(`insert into pick (participant_id, group_id, player_id) select $1, 1, unnest($2::int[])`, [id, [...chosen]]);
}

/** Ranks and compares with the SQL; `partial`: whether the ranking may have read only what changed. */
async function expectMatchesSql(partial: boolean) {
  const ranked = await standings.compute();
  const expected = await t.db.query<LeaderboardRow>(groupLeaderboardSql, [1, 32]);
  expect([...ranked.rankings]).toEqual(expected);
  expect(ranked.alive).toBe(expected.filter((r) => !r.busted).length);
  expect(ranked.byParticipant.size).toBe(expected.length);
  for (const row of expected) expect(ranked.byParticipant.get(row.participant_id)).toEqual(row);
  expect(ranked.byParticipant.has('user_without_entry')).toBe(false);
  expect(standings.lastRead?.partial).toBe(partial);
  return ranked;
}

/**
 * Ranks until a ranking reads no rows at all (nothing changed). A ranking may read a few rows again that
 * it already had: those written just before the previous read, when a transaction that was running then
 * (in any database of the cluster: other test files run beside this one) has finished since.
 */
async function settle() {
  for (let i = 0; i < 10; i++) {
    await standings.compute();
    if (standings.lastRead?.partial && standings.lastRead.entryRows === 0 && standings.lastRead.nameRows === 0) return;
  }
  throw new Error(`rankings kept reading rows: ${JSON.stringify(standings.lastRead)}`);
}

/**
 * settle(), until that ranking's snapshot saw no transaction running anywhere in the cluster (other test
 * files run beside this one, writing their own databases: transaction ids are the cluster's). One that was
 * running at a ranking and finishes before the next makes the next read everything it may have written:
 * every row, when it is older than them (seen in CI: a 203-row re-read after one recorded pick). After a
 * quiet ranking the next reads exactly what changed.
 */
async function settleQuiet() {
  const deadline = Date.now() + 20_000;
  await settle();
  while (standings.lastRead!.snapshot.split(':')[2]) {
    if (Date.now() > deadline) throw new Error(`transactions kept running: ${standings.lastRead!.snapshot}`);
    await new Promise((r) => setTimeout(r, 20));
    await settle();
  }
}

const entryCount = async () => (await t.db.query<{ n: number }>(`select count(*)::int as n from entry_stat where pick_group_id = 1`))[0]!.n;

const em = () => t.orm().em.fork();

beforeAll(async () => {
  t = await createTestApp();
  standings = new GlobalStandings(t.orm(), t.deps.draft);
  players = (await t.db.query<{ id: number }>(`select id from player order by rank limit 60`)).map((r) => r.id);
  // Mixed-case and punctuated ids too: the tie order is COLLATE "C".
  for (const [i, id] of [...participants, 'User_X', 'u-1', '_z'].entries()) await addEntry(id, i % 5 === 0 ? null : `Global ${i}`, 1 + Math.floor(random() * 10));
});
afterAll(async () => t.close());

describe('global standings ranked in Node', () => {
  it('read everything once, then only what changed', async () => {
    await expectMatchesSql(false);
    expect(standings.lastRead).toMatchObject({ allNames: true });
    await expectMatchesSql(true);
    expect(standings.lastRead).toMatchObject({ allNames: false });
    await settle();
  });

  it('follow recorded picks, undo, completion and reopening, reading only the sets holding the player', async () => {
    await startDraft(em(), t.deps.draft, 'test');
    await expectMatchesSql(true);
    const total = await entryCount();
    for (let slot = 1; slot <= 6; slot++) {
      await settleQuiet();
      await recordPick(em(), t.deps.draft, 'test', slot, players[slot * 2]!);
      await expectMatchesSql(true);
      const [holders] = await t.db.query<{ n: number }>(`select count(*)::int as n from pick where group_id = 1 and player_id = $1`, [players[slot * 2]]);
      expect(standings.lastRead?.entryRows).toBeGreaterThanOrEqual(holders!.n);
      expect(standings.lastRead?.entryRows).toBeLessThan(total);
    }
    await undoLast(em(), 'test');
    await expectMatchesSql(true);
    await completeRoundOne(em(), t.deps.draft, 'test');
    await expectMatchesSql(true);
    await undoLast(em(), 'test');
    await expectMatchesSql(true);
  });

  it('follow renames made anywhere, and renamed() / forgetNames()', async () => {
    await t.db.query(`update participant set screen_name = 'Renamed One' where id = $1`, [participants[3]]);
    const ranked = await expectMatchesSql(true);
    expect(ranked.byParticipant.get(participants[3]!)?.participant_name).toBe('Renamed One');
    await settle();
    standings.renamed(participants[4]!);
    await expectMatchesSql(true);
    expect(standings.lastRead?.nameRows).toBeGreaterThanOrEqual(1);
    standings.forgetNames();
    await expectMatchesSql(true);
    expect(standings.lastRead?.allNames).toBe(true);
  });

  it('keep earlier standings as they were ranked', async () => {
    const earlier = await standings.compute();
    const [first] = earlier.rankings;
    await addEntry('user_global_later', 'Later', 2);
    await t.db.query(`update participant set screen_name = 'Changed Later' where id = $1`, [first!.participant_id]);
    const later = await expectMatchesSql(true);
    expect(later.byParticipant.has('user_global_later')).toBe(true);
    expect(earlier.byParticipant.has('user_global_later')).toBe(false);
    expect(earlier.byParticipant.size).toBe(earlier.rankings.length);
    expect(earlier.byParticipant.get(first!.participant_id)).toBe(first);
    expect(first!.participant_name).not.toBe('Changed Later');
  });

  it('follow pick edits, new entries and a changed board rank', async () => {
    await t.db.query(`delete from pick where participant_id = $1 and group_id = 1`, [participants[7]]);
    await t.db.query(`insert into pick (participant_id, group_id, player_id) values ($1, 1, $2), ($1, 1, $3)`, [participants[7], players[2], players[4]]);
    await expectMatchesSql(true);
    await addEntry('user_global_new', 'Newcomer', 3);
    await addEntry('A_first', null, 2);
    const ranked = await expectMatchesSql(true);
    expect(ranked.byParticipant.get('user_global_new')?.participant_name).toBe('Newcomer');
    await t.db.query(`begin; set constraints player_rank_unique deferred; update player set rank = 1000 + rank where id = ${players[4]}; commit;`);
    await expectMatchesSql(true);
    // A rank far beyond the board's: the entries' binary record holds it exactly.
    await t.db.query(`update player set rank = 20000000 where id = $1`, [players[6]]);
    const large = await expectMatchesSql(true);
    expect([...large.rankings].some((r) => r.tiebreak_rank === 20_000_000)).toBe(true);
  });

  it('read everything again when entries were removed, even with as many added', async () => {
    await t.db.query(`delete from participant where id = $1`, [participants[10]]);
    await expectMatchesSql(false);
    // An account move: one entry gone, another with the same picks in its place (the count is unchanged).
    await t.db.query(`begin;
      insert into participant (id, screen_name) values ('user_moved', 'Moved');
      insert into pick (participant_id, group_id, player_id) select 'user_moved', group_id, player_id from pick where participant_id = '${participants[11]}';
      delete from participant where id = '${participants[11]}';
      commit;`);
    const ranked = await expectMatchesSql(false);
    expect(ranked.byParticipant.has(participants[11]!)).toBe(false);
    expect(ranked.byParticipant.get('user_moved')?.participant_name).toBe('Moved');
    // An id changed in place: the cascade rewrites the set under the new id with the same participant number
    // (the copy's key), so the copy is read whole and the entry shows under its new id only.
    await t.db.query(`update participant set id = 'user_renumbered' where id = $1`, [participants[12]]);
    const renumbered = await expectMatchesSql(false);
    expect(renumbered.byParticipant.has(participants[12]!)).toBe(false);
    expect(renumbered.byParticipant.has('user_renumbered')).toBe(true);
  });

  it('see a change that was uncommitted when the previous ranking read', async () => {
    const other = new pg.Client({ connectionString: t.db.url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`update participant set screen_name = 'Late Name' where id = $1`, [participants[21]]);
      // Written in a savepoint: those rows carry the savepoint's own transaction id, which no snapshot lists.
      await other.query('savepoint pick');
      await other.query(`insert into pick (participant_id, group_id, player_id) values ($1, 1, $2) on conflict do nothing`, [participants[20], players[12]]);
      await other.query('release savepoint pick');
      // Meanwhile a later transaction commits: its id is above the open one's.
      await t.db.query(`update participant set screen_name = 'Early Name' where id = $1`, [participants[22]]);
      await expectMatchesSql(true);
      await other.query('commit');
    } finally {
      await other.end();
    }
    const ranked = await expectMatchesSql(true);
    expect(ranked.byParticipant.get(participants[21]!)?.participant_name).toBe('Late Name');
    expect(ranked.byParticipant.get(participants[22]!)?.participant_name).toBe('Early Name');
  });

  it('read only what changed while a transaction stays open elsewhere', async () => {
    const idle = new pg.Client({ connectionString: t.db.url });
    await idle.connect();
    try {
      // An open transaction with an id holds every snapshot's xmin back.
      await idle.query('begin');
      await idle.query('select pg_current_xact_id()');
      await settle();
      await t.db.query(`update participant set screen_name = 'While Open' where id = $1`, [participants[40]]);
      const ranked = await expectMatchesSql(true);
      expect(ranked.byParticipant.get(participants[40]!)?.participant_name).toBe('While Open');
      // Still open, and older than everything read since: yet rankings get back to reading nothing.
      await settle();
    } finally {
      await idle.query('rollback');
      await idle.end();
    }
  });

  it('follow a reset and a new start, and a reload', async () => {
    await resetDraft(em(), 'test');
    await expectMatchesSql(true);
    await startDraft(em(), t.deps.draft, 'test');
    await recordPick(em(), t.deps.draft, 'test', 1, players[0]!);
    await expectMatchesSql(true);
    standings.reload();
    await expectMatchesSql(false);
  });
});

/** The global ranking as shared/src/scoring.ts ranks it (`rankEntries`), from the raw picks, players and draft state. */
async function rankedByScoringRules() {
  const picks = await t.db.query<{ participant_id: string; name: string; rank: number; draft_round: number | null }>(
    `select k.participant_id, coalesce(p.screen_name, p.id) as name, pl.rank, pl.draft_round
       from pick k join participant p on p.id = k.participant_id join player pl on pl.id = k.player_id
      where k.group_id = 1`,
  );
  const entries = new Map<string, Entry & { picks: { rank: number; draftRound: number | null }[] }>();
  for (const k of picks) {
    let entry = entries.get(k.participant_id);
    if (!entry) entries.set(k.participant_id, (entry = { participantId: k.participant_id, participantName: k.name, picks: [] }));
    entry.picks.push({ rank: k.rank, draftRound: k.draft_round });
  }
  const [state] = await t.db.query<{ filled: number; marked: boolean }>(
    `select (select count(*)::int from player where draft_round = 1) as filled,
            coalesce((select round_one_complete from draft_state where id = 1), false) as marked`,
  );
  return rankEntries([...entries.values()], { roundOnePicks: t.deps.draft.roundOnePicks, filledSlots: state!.filled, roundOneCompleteMarked: state!.marked });
}

describe('global standings against the scoring rules (differential, random pick sequences)', () => {
  it('equal rankEntries and a ranking from scratch after every recorded pick, undo, round-one completion and its undo, each ranking reading only what changed and moving only what it changed', async () => {
    const seq = seededRandom(29);
    await resetDraft(em(), 'test');
    await startDraft(em(), t.deps.draft, 'test');
    const board = (await t.db.query<{ id: number }>(`select id from player order by rank limit 80`)).map((r) => r.id);
    // The copy every later ranking updates.
    await standings.compute();
    const done: string[] = [];
    const moved: number[] = [];
    for (let step = 0; step < 60; step++) {
      const [state] = await t.db.query<{ filled: number; marked: boolean }>(
        `select (select count(*)::int from player where draft_round = 1) as filled,
                coalesce((select round_one_complete from draft_state where id = 1), false) as marked`,
      );
      const complete = state!.marked || state!.filled >= t.deps.draft.roundOnePicks;
      const roll = seq();
      // Once round one is complete (marked, or every slot filled) the operator undoes: the completion, or the last pick.
      if (complete || (state!.filled > 0 && roll < 0.25)) {
        await undoLast(em(), 'test');
        done.push('undo');
      } else if (roll < 0.32) {
        await completeRoundOne(em(), t.deps.draft, 'test');
        done.push('complete');
      } else {
        // Mostly the best players left on the board (held by many entries), sometimes any.
        const left = (await t.db.query<{ id: number }>(`select id from player where draft_round is null and id = any($1::int[]) order by rank`, [board])).map((r) => r.id);
        const player = left[Math.floor(seq() ** 3 * left.length)]!;
        await recordPick(em(), t.deps.draft, 'test', state!.filled + 1, player);
        done.push(`pick ${state!.filled + 1}`);
      }
      const ranked = await standings.compute();
      expect(standings.lastRead?.partial, done.join(', ')).toBe(true);
      // Only the entries whose score changed were placed again (never every one, after the first ranking).
      moved.push(standings.lastRanked!.moved);
      expect(standings.lastRanked!.moved).toBeLessThan(standings.lastRanked!.size);
      const expected = await rankedByScoringRules();
      expect([...ranked.rankings], done.join(', ')).toEqual(expected);
      expect(ranked.alive).toBe(expected.filter((r) => !r.busted).length);
      // And the same as a ranking made from scratch: every entry read and placed anew.
      const whole = new GlobalStandings(t.orm(), t.deps.draft);
      expect([...(await whole.compute()).rankings], done.join(', ')).toEqual(expected);
      expect(whole.lastRead?.partial).toBe(false);
    }
    expect(moved.some((n) => n > 0)).toBe(true);
    // The sequence went through every kind of change it is meant to cover.
    expect(done).toContain('undo');
    expect(done).toContain('complete');
    expect(done.filter((d) => d.startsWith('pick')).length).toBeGreaterThan(20);
  }, 120_000);
});

describe('LeaderboardCache.renamed', () => {
  it('re-ranks the cached global standings with the new name, without a draft change', async () => {
    const before = await t.deps.leaderboards.get(1);
    await t.db.query(`update participant set screen_name = 'Cache Rename' where id = $1`, [participants[30]]);
    expect((await t.deps.leaderboards.get(1)).byParticipant.get(participants[30]!)?.participant_name).toBe(before.byParticipant.get(participants[30]!)?.participant_name);
    t.deps.leaderboards.renamed(participants[30]!);
    expect((await t.deps.leaderboards.get(1)).byParticipant.get(participants[30]!)?.participant_name).toBe('Cache Rename');
  });
});

describe('unseenFrom', () => {
  it('is the earlier xmax, or an id the earlier snapshot saw running that has finished since', () => {
    expect(unseenFrom('100:105:', '107:107:')).toBe('105');
    expect(unseenFrom('100:105:100,103', '104:110:104')).toBe('100');
    // Still running: nothing of it is visible yet, so it does not hold the bound back.
    expect(unseenFrom('100:105:100,103', '100:110:100,108')).toBe('103');
    expect(unseenFrom('100:105:100,103', '100:110:100,103')).toBe('105');
    // 64-bit ids past a wraparound: the 32-bit id age(xid) takes.
    expect(unseenFrom(`${2 ** 32 + 7}:${2 ** 32 + 9}:`, `${2 ** 32 + 9}:${2 ** 32 + 9}:`)).toBe('9');
  });
});
