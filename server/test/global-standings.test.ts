/**
 * The global standings ranked in memory (global-standings.ts, from the entry book) against the rules'
 * `rankEntries` on the tables as they are, after every kind of change, each ranking built on the previous
 * one: recorded picks and undos, round completion, pick edits, new and removed entries, renames, board
 * changes. Draft and board changes made anywhere show at the next ranking (each reads the draft); pick sets
 * and names written behind the app's back show once announced, as the app's writers announce them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankEntries, type Entry } from '@first-round/shared/scoring';
import { completeRoundOne, recordPick, resetDraft, startDraft, undoLast } from '../src/modules/draft/draft.service.js';
import { GlobalStandings } from '../src/modules/leaderboard/global-standings.js';
import { EntryBook } from '../src/modules/standings/entry-book.js';
import { globalOddsFromTables, withGlobalOdds } from './support/global-odds.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { seededRandom } from '@first-round/shared/seeded-random';

let t: TestApp;
let book: EntryBook;
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

/** Ranks and compares with the rules; `whole`: whether the book was read whole since the previous ranking. */
async function expectMatchesRules(whole: boolean) {
  const loads = book.loads;
  const ranked = await standings.compute();
  const expected = await rankedByScoringRules();
  expect([...ranked.rankings]).toEqual(expected);
  expect(ranked.alive).toBe(expected.filter((r) => !r.busted).length);
  expect(ranked.byParticipant.size).toBe(expected.length);
  for (const row of expected) expect(ranked.byParticipant.get(row.participant_id)).toEqual(row);
  expect(ranked.byParticipant.has('user_without_entry')).toBe(false);
  if (!whole) expect(book.loads).toBe(loads);
  return ranked;
}

/** What the app's writers say when they change a participant's picks or name (entries.service, account.service). */
const announce = (...ids: string[]) => {
  for (const id of ids) t.deps.events.invalidate({ kind: 'participant', participant_id: id });
};

const em = () => t.orm().em.fork();

beforeAll(async () => {
  t = await createTestApp();
  book = new EntryBook(t.orm(), t.deps.draft.roundOnePicks, { info: () => {}, warn: () => {} });
  // Hearing what the app's instance hears (writes through the services, `announce` below).
  book.follow(t.deps.events);
  standings = new GlobalStandings(book);
  players = (await t.db.query<{ id: number }>(`select id from player order by rank limit 60`)).map((r) => r.id);
  // Mixed-case and punctuated ids too: the tie order is COLLATE "C".
  for (const [i, id] of [...participants, 'User_X', 'u-1', '_z'].entries()) await addEntry(id, i % 5 === 0 ? null : `Global ${i}`, 1 + Math.floor(random() * 10));
});
afterAll(async () => t.close());

describe('global standings ranked in memory', () => {
  it('read everything once, then only what changed', async () => {
    await expectMatchesRules(true);
    expect(book.loads).toBe(1);
    await expectMatchesRules(false);
  });

  it('follow recorded picks, undo, completion and reopening, re-counting only the sets holding the player', async () => {
    await startDraft(em(), t.deps.draft, 'test');
    await expectMatchesRules(false);
    for (let slot = 1; slot <= 6; slot++) {
      await recordPick(em(), t.deps.draft, 'test', slot, players[slot * 2]!);
      await expectMatchesRules(false);
      // Only entries whose score changed were placed again (the sets holding him, and those a slot fewer busts).
      expect(standings.lastRanked!.moved).toBeLessThan(standings.lastRanked!.size);
    }
    await undoLast(em(), 'test');
    await expectMatchesRules(false);
    await completeRoundOne(em(), t.deps.draft, 'test');
    await expectMatchesRules(false);
    await undoLast(em(), 'test');
    await expectMatchesRules(false);
  });

  it('follow renames as they are announced, and renamed()', async () => {
    await t.db.query(`update participant set screen_name = 'Renamed One' where id = $1`, [participants[3]]);
    announce(participants[3]!);
    const ranked = await expectMatchesRules(false);
    expect(ranked.byParticipant.get(participants[3]!)?.participant_name).toBe('Renamed One');
    await t.db.query(`update participant set screen_name = 'Renamed Two' where id = $1`, [participants[4]]);
    book.participantChanged(participants[4]!);
    expect((await expectMatchesRules(false)).byParticipant.get(participants[4]!)?.participant_name).toBe('Renamed Two');
  });

  it('keep earlier standings as they were ranked', async () => {
    const earlier = await standings.compute();
    const [first] = earlier.rankings;
    await addEntry('user_global_later', 'Later', 2);
    await t.db.query(`update participant set screen_name = 'Changed Later' where id = $1`, [first!.participant_id]);
    announce('user_global_later', first!.participant_id);
    const later = await expectMatchesRules(false);
    expect(later.byParticipant.has('user_global_later')).toBe(true);
    expect(earlier.byParticipant.has('user_global_later')).toBe(false);
    expect(earlier.byParticipant.size).toBe(earlier.rankings.length);
    expect(earlier.byParticipant.get(first!.participant_id)).toBe(first);
    expect(first!.participant_name).not.toBe('Changed Later');
  });

  it('follow pick edits and new entries as announced, and a changed board rank made anywhere', async () => {
    await t.db.query(`delete from pick where participant_id = $1 and group_id = 1`, [participants[7]]);
    await t.db.query(`insert into pick (participant_id, group_id, player_id) values ($1, 1, $2), ($1, 1, $3)`, [participants[7], players[2], players[4]]);
    announce(participants[7]!);
    await expectMatchesRules(false);
    await addEntry('user_global_new', 'Newcomer', 3);
    await addEntry('A_first', null, 2);
    announce('user_global_new', 'A_first');
    const ranked = await expectMatchesRules(false);
    expect(ranked.byParticipant.get('user_global_new')?.participant_name).toBe('Newcomer');
    // The board is read at every ranking: no announcement needed.
    await t.db.query(`begin; set constraints player_rank_unique deferred; update player set rank = 1000 + rank where id = ${players[4]}; commit;`);
    await expectMatchesRules(false);
    // A rank far beyond the board's: the book's columns hold it exactly.
    await t.db.query(`update player set rank = 20000000 where id = $1`, [players[6]]);
    const large = await expectMatchesRules(false);
    expect([...large.rankings].some((r) => r.tiebreak_rank === 20_000_000)).toBe(true);
  });

  it('drop entries removed, moved to another account or under another id, as announced', async () => {
    await t.db.query(`delete from participant where id = $1`, [participants[10]]);
    announce(participants[10]!);
    await expectMatchesRules(false);
    // An account move: one entry gone, another with the same picks in its place (the count is unchanged).
    await t.db.query(`begin;
      insert into participant (id, screen_name) values ('user_moved', 'Moved');
      insert into pick (participant_id, group_id, player_id) select 'user_moved', group_id, player_id from pick where participant_id = '${participants[11]}';
      delete from participant where id = '${participants[11]}';
      commit;`);
    announce(participants[11]!, 'user_moved');
    const ranked = await expectMatchesRules(false);
    expect(ranked.byParticipant.has(participants[11]!)).toBe(false);
    expect(ranked.byParticipant.get('user_moved')?.participant_name).toBe('Moved');
    // An id changed in place: the cascade moves the set under the new id.
    await t.db.query(`update participant set id = 'user_renumbered' where id = $1`, [participants[12]]);
    announce(participants[12]!, 'user_renumbered');
    const renumbered = await expectMatchesRules(false);
    expect(renumbered.byParticipant.has(participants[12]!)).toBe(false);
    expect(renumbered.byParticipant.has('user_renumbered')).toBe(true);
  });

  it('follow a reset and a new start, and a whole read again', async () => {
    await resetDraft(em(), 'test');
    await expectMatchesRules(false);
    await startDraft(em(), t.deps.draft, 'test');
    await recordPick(em(), t.deps.draft, 'test', 1, players[0]!);
    await expectMatchesRules(false);
    // Written behind the app's back and never announced: seen once the book is read whole again (a resync).
    await t.db.query(`delete from pick where participant_id = $1 and group_id = 1`, [participants[13]]);
    await book.reload();
    expect(book.loads).toBe(2);
    const reloaded = await expectMatchesRules(true);
    expect(reloaded.byParticipant.has(participants[13]!)).toBe(false);
    // A whole read numbers entries anew: that ranking places every one again.
    expect(standings.lastRanked!.moved).toBe(book.lastLoad!.participants);
  });
});

/** The global ranking as shared/src/scoring.ts ranks it (`rankEntries`), from the raw picks, players and draft state, with each row's odds. */
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
  const rows = rankEntries([...entries.values()], { roundOnePicks: t.deps.draft.roundOnePicks, filledSlots: state!.filled, roundOneCompleteMarked: state!.marked });
  // Each row with the odds the shared model gives it among every global entry (none once round one is complete).
  return withGlobalOdds(rows, await globalOddsFromTables(t.db, t.deps.draft.roundOnePicks));
}

describe('global standings against the scoring rules (differential, random pick sequences)', () => {
  it('equal rankEntries and a ranking from scratch after every recorded pick, undo, round-one completion and its undo, each ranking moving only what it changed', async () => {
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
      const loads = book.loads;
      const ranked = await standings.compute();
      expect(book.loads, done.join(', ')).toBe(loads);
      // Only the entries whose score changed were placed again (never every one, after the first ranking).
      moved.push(standings.lastRanked!.moved);
      expect(standings.lastRanked!.moved).toBeLessThan(standings.lastRanked!.size);
      const expected = await rankedByScoringRules();
      expect([...ranked.rankings], done.join(', ')).toEqual(expected);
      expect(ranked.alive).toBe(expected.filter((r) => !r.busted).length);
      // And the same as a ranking made from scratch: every entry read and placed anew.
      const fresh = new EntryBook(t.orm(), t.deps.draft.roundOnePicks, { info: () => {}, warn: () => {} });
      const whole = new GlobalStandings(fresh);
      expect([...(await whole.compute()).rankings], done.join(', ')).toEqual(expected);
      expect(whole.lastRanked!.moved).toBe(fresh.lastLoad!.participants);
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

describe('a burst of announced changes', () => {
  it('costs a ranking or two, not one per change: sign-ups and renames arriving together are ranked together', async () => {
    // Every change needs the next ranking to include it; it does not need a ranking of its own.
    const ranked = await standings.compute();
    const ids = participants.filter((id) => ranked.byParticipant.has(id)).slice(0, 150);
    expect(ids.length).toBeGreaterThan(100);
    const rankedBefore = standings.rankings;
    for (const id of ids) await t.db.query(`update participant set screen_name = $2 where id = $1`, [id, `Burst ${id}`]);
    const answers = ids.map((id) => {
      announce(id);
      return standings.compute();
    });
    const last = await answers.at(-1)!;
    for (const id of ids) expect(last.byParticipant.get(id)?.participant_name).toBe(`Burst ${id}`);
    expect(standings.rankings - rankedBefore).toBeLessThanOrEqual(2);
  });
});
