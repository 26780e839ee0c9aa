/**
 * Equivalence test: the standings ranked in memory from the entry book (modules/standings/, read whole
 * from the facts) must return exactly the rows of `rankEntries` (shared/src/scoring.ts) on the same
 * entries, row for row and in the same order, on randomized but seeded data covering every phase of the
 * draft, the global group and several other groups (members linked to My Picks or playing their own).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  rankEntries,
  type DraftSnapshot,
  type Entry,
  type PickedPlayer,
  type RankedRow,
} from '@first-round/shared/scoring';
import { entrySetGroup } from '@first-round/shared/entries';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import { GlobalStandings } from '../src/modules/leaderboard/global-standings.js';
import { rankGroup } from '../src/modules/leaderboard/ranking.js';
import { groupMembers } from '../src/modules/standings/book.repository.js';
import { EntryBook } from '../src/modules/standings/entry-book.js';
import { openOrm, type Orm } from '../src/db/orm.js';
import { createTestDb, type TestDb } from './support/test-db.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { DomainError } from '../src/errors.js';
import { completeRoundOne, recordPick, resetDraft, startDraft, undoLast } from '../src/modules/draft/draft.service.js';
import { joinGroup, leaveGroup, setEntryMode } from '../src/modules/groups/groups.service.js';
import { savePicks } from '../src/modules/groups/entries.service.js';

const ROUND_ONE_PICKS = 32;
const PLAYER_COUNT = 150;
const PARTICIPANT_COUNT = 150;
const EXTRA_GROUPS = 5;
const GLOBAL_GROUP = 1;

// ---------------------------------------------------------------- seeded PRNG

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  /** Integer in [lo, hi], inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  shuffle<T>(items: readonly T[]): T[] {
    const a = [...items];
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      const tmp = a[i] as T;
      a[i] = a[j] as T;
      a[j] = tmp;
    }
    return a;
  }
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, Math.min(k, items.length)));
  }
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(0, items.length - 1)];
    if (item === undefined) throw new Error('pick from empty list');
    return item;
  }
}

// ------------------------------------------------------------------ scenarios

interface Scenario {
  name: string;
  seed: number;
  /** Players taken in round one (round-one slots filled). */
  filled: number;
  /** Players taken in rounds 2..7. */
  later: number;
  /** draft_state.round_one_complete */
  marked: boolean;
}

const scenarios: Scenario[] = [
  { name: 'before the draft starts', seed: 101, filled: 0, later: 0, marked: false },
  { name: 'early in round one', seed: 202, filled: 6, later: 0, marked: false },
  { name: 'mid round one, some players already taken later', seed: 303, filled: 17, later: 6, marked: false },
  { name: 'near the end of round one', seed: 404, filled: 29, later: 0, marked: false },
  { name: 'round one complete by filling all slots', seed: 505, filled: 32, later: 0, marked: false },
  { name: 'round one complete by marking', seed: 606, filled: 21, later: 4, marked: true },
  { name: 'later rounds', seed: 707, filled: 32, later: 70, marked: false },
  { name: 'later rounds, also marked complete', seed: 808, filled: 32, later: 40, marked: true },
];

interface PlayerRow {
  id: number;
  rank: number;
  draftRound: number | null;
  draftPick: number | null;
}

interface World {
  snapshot: DraftSnapshot;
  players: PlayerRow[];
  participants: { id: string; screenName: string | null }[];
  /** group id -> participant id -> player ids */
  picks: Map<number, Map<string, number[]>>;
  /** group id (not 1) -> members */
  members: Map<number, { participantId: string; useGlobalPicks: boolean }[]>;
}

/** Participant ids mixing cases and punctuation so that COLLATE "C" ordering matters. */
const ID_PREFIXES = ['user_', 'User_', 'u', 'U', 'z', 'A', '_', 'a-', 'Zz', 'b'];

function buildPlayers(rng: Rng, s: Scenario): PlayerRow[] {
  const ranks = rng.shuffle(Array.from({ length: PLAYER_COUNT }, (_, i) => i + 1));
  const players: PlayerRow[] = ranks.map((rank, i) => ({ id: i + 1, rank, draftRound: null, draftPick: null }));
  // Round one tends to take better-ranked players, but not always.
  const order = [...players].sort((a, b) => a.rank + rng.int(0, 60) - (b.rank + rng.int(0, 60)));
  const roundOneSlots = rng.shuffle(Array.from({ length: ROUND_ONE_PICKS }, (_, i) => i + 1));
  const laterSlots = rng.shuffle(
    Array.from({ length: 6 * ROUND_ONE_PICKS }, (_, i) => ({ round: 2 + Math.floor(i / ROUND_ONE_PICKS), pick: (i % ROUND_ONE_PICKS) + 1 })),
  );
  for (let i = 0; i < s.filled; i++) {
    const p = order[i] as PlayerRow;
    p.draftRound = 1;
    p.draftPick = roundOneSlots[i] as number;
  }
  for (let i = 0; i < s.later; i++) {
    const p = order[s.filled + i] as PlayerRow;
    const slot = laterSlots[i] as { round: number; pick: number };
    p.draftRound = slot.round;
    p.draftPick = slot.pick;
  }
  return players;
}

/** Generates one entry's picks (1..32 distinct players), biased toward interesting cases. */
function makePickGenerator(rng: Rng, players: PlayerRow[], snapshot: DraftSnapshot) {
  const roundOne = players.filter((p) => p.draftRound === 1);
  const laterRounds = players.filter((p) => p.draftRound !== null && p.draftRound > 1);
  const undrafted = players.filter((p) => p.draftRound === null);
  const complete = snapshot.roundOneCompleteMarked || snapshot.filledSlots >= snapshot.roundOnePicks;
  const remaining = complete ? 0 : Math.max(0, snapshot.roundOnePicks - snapshot.filledSlots);
  const previous: PlayerRow[][] = [];

  const finish = (chosen: PlayerRow[]): number[] => {
    let list = [...new Set(chosen)].slice(0, ROUND_ONE_PICKS);
    if (list.length === 0) list = [rng.pick(players)];
    previous.push(list);
    return rng.shuffle(list.map((p) => p.id));
  };

  return (): number[] => {
    const mode = rng.float();
    if (mode < 0.3) {
      // Uniformly random entry.
      return finish(rng.sample(players, rng.int(1, ROUND_ONE_PICKS)));
    }
    if (mode < 0.7) {
      // Mostly drafted players, pending count around the early-bust boundary.
      const hits = rng.sample(roundOne, rng.int(0, Math.min(roundOne.length, 12)));
      const pendingTarget = Math.max(0, remaining + rng.int(-2, 1));
      const pending = rng.sample(undrafted, Math.min(pendingTarget, ROUND_ONE_PICKS - hits.length));
      const chosen = [...hits, ...pending];
      if (laterRounds.length > 0 && rng.chance(0.15)) chosen.push(rng.pick(laterRounds));
      return finish(chosen);
    }
    if (mode < 0.85 && previous.length > 0) {
      // Exact copy of an earlier entry: a guaranteed tie.
      return finish(rng.pick(previous));
    }
    if (previous.length > 0) {
      // Different picks, same score: keep an earlier entry's worst-ranked hit,
      // replace its other hits with better-ranked hits, its other picks with other players.
      const base = rng.pick(previous);
      const baseHits = base.filter((p) => p.draftRound === 1);
      const worst = baseHits.reduce<PlayerRow | null>((w, p) => (w === null || p.rank > w.rank ? p : w), null);
      if (worst !== null) {
        const better = roundOne.filter((p) => p.rank < worst.rank);
        const others = rng.sample(better, baseHits.length - 1);
        const rest = base.filter((p) => p.draftRound !== 1);
        const restPending = rest.filter((p) => p.draftRound === null).length;
        const restMisses = rest.length - restPending;
        const swapped = [
          ...rng.sample(undrafted, restPending),
          ...rng.sample(laterRounds, restMisses),
        ];
        return finish([worst, ...others, ...swapped]);
      }
      return finish(base);
    }
    return finish(rng.sample(players, rng.int(1, ROUND_ONE_PICKS)));
  };
}

function buildWorld(s: Scenario): World {
  const rng = new Rng(s.seed);
  const players = buildPlayers(rng, s);
  const snapshot: DraftSnapshot = {
    roundOnePicks: ROUND_ONE_PICKS,
    filledSlots: players.filter((p) => p.draftRound === 1).length,
    roundOneCompleteMarked: s.marked,
  };
  const nextPicks = makePickGenerator(rng, players, snapshot);

  const participants = Array.from({ length: PARTICIPANT_COUNT }, (_, i) => ({
    id: `${rng.pick(ID_PREFIXES)}${rng.int(0, 99)}_${i}`,
    screenName: rng.chance(0.3) ? null : `Player ${String(i)}`,
  }));

  const picks = new Map<number, Map<string, number[]>>();
  const members = new Map<number, { participantId: string; useGlobalPicks: boolean }[]>();
  const global = new Map<string, number[]>();
  picks.set(GLOBAL_GROUP, global);
  for (const p of participants) {
    if (rng.chance(0.85)) global.set(p.id, nextPicks());
  }
  // Group ids are assigned by the database; use placeholders 2..(EXTRA_GROUPS+1) here and remap on insert.
  for (let g = 2; g < 2 + EXTRA_GROUPS; g++) {
    const groupPicks = new Map<string, number[]>();
    picks.set(g, groupPicks);
    const groupMembers = rng.sample(participants, rng.int(15, 60)).map((p) => ({
      participantId: p.id,
      useGlobalPicks: rng.chance(0.5),
    }));
    members.set(g, groupMembers);
    for (const m of groupMembers) {
      // Members using global picks sometimes also have (ignored) group picks;
      // members using group picks sometimes have none (entry not ranked).
      if (rng.chance(m.useGlobalPicks ? 0.3 : 0.85)) groupPicks.set(m.participantId, nextPicks());
    }
    // Picks in the group by a non-member are ignored.
    const outsider = participants.find((p) => !groupMembers.some((m) => m.participantId === p.id));
    if (outsider) groupPicks.set(outsider.id, nextPicks());
  }
  return { snapshot, players, participants, picks, members };
}

/** The entries of a group, computed from the in-memory world (empty entries included on purpose). */
function entriesFor(world: World, group: number): Entry[] {
  const byId = new Map(world.players.map((p) => [p.id, p]));
  const names = new Map(world.participants.map((p) => [p.id, p.screenName ?? p.id]));
  const toPicked = (ids: readonly number[] | undefined): PickedPlayer[] =>
    (ids ?? []).map((id) => {
      const p = byId.get(id);
      if (!p) throw new Error(`unknown player ${String(id)}`);
      return { rank: p.rank, draftRound: p.draftRound };
    });
  const global = world.picks.get(GLOBAL_GROUP);
  if (group === GLOBAL_GROUP) {
    return world.participants.map((p) => ({
      participantId: p.id,
      participantName: names.get(p.id) ?? p.id,
      picks: toPicked(global?.get(p.id)),
    }));
  }
  // Which set a member plays here: the one rule (shared/src/entries.ts) the SQL is held to.
  return (world.members.get(group) ?? []).map((m) => ({
    participantId: m.participantId,
    participantName: names.get(m.participantId) ?? m.participantId,
    picks: toPicked(world.picks.get(entrySetGroup(group, m.useGlobalPicks))?.get(m.participantId)),
  }));
}

// ------------------------------------------------------------------ database

async function resetDb(db: TestDb): Promise<void> {
  // groups.created_by and join_link reference participant, so a plain TRUNCATE of participant is refused;
  // deleting is fast at this size and cascades memberships, picks and join links of the removed groups.
  await db.query('delete from groups where id <> 1');
  await db.query('truncate pick, group_membership, join_link');
  await db.query('delete from participant');
  await db.query('delete from player');
}

/** Loads a world; returns the mapping from placeholder group ids to database group ids. */
async function loadWorld(db: TestDb, s: Scenario, world: World): Promise<Map<number, number>> {
  await resetDb(db);
  await db.query('update draft_state set round_one_complete = $1 where id = 1', [s.marked]);

  const ps = world.players;
  await db.query(
    `insert into player (id, rank, player_name, position, school, draft_round, draft_pick)
     select * from unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[])`,
    [
      ps.map((p) => p.id),
      ps.map((p) => p.rank),
      ps.map((p) => `Player ${String(p.id)}`),
      ps.map(() => 'QB'),
      ps.map(() => 'State'),
      ps.map((p) => p.draftRound),
      ps.map((p) => p.draftPick),
    ],
  );

  await db.query(
    `insert into participant (id, screen_name) select * from unnest($1::text[], $2::text[])`,
    [world.participants.map((p) => p.id), world.participants.map((p) => p.screenName)],
  );

  const groupIds = new Map<number, number>([[GLOBAL_GROUP, GLOBAL_GROUP]]);
  for (const placeholder of world.members.keys()) {
    const rows = await db.query<{ id: number }>(
      `insert into groups (name, is_public, picks_public) values ($1, $2, $3) returning id`,
      [`${s.name} group ${String(placeholder)}`, placeholder % 2 === 0, placeholder % 3 === 0],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error('group insert returned no id');
    groupIds.set(placeholder, id);
  }

  const mGroup: number[] = [];
  const mParticipant: string[] = [];
  const mGlobal: boolean[] = [];
  for (const [placeholder, members] of world.members) {
    for (const m of members) {
      mGroup.push(groupIds.get(placeholder) as number);
      mParticipant.push(m.participantId);
      mGlobal.push(m.useGlobalPicks);
    }
  }
  await db.query(
    `insert into group_membership (group_id, participant_id, use_global_picks)
     select * from unnest($1::int[], $2::text[], $3::bool[])`,
    [mGroup, mParticipant, mGlobal],
  );

  const pGroup: number[] = [];
  const pParticipant: string[] = [];
  const pPlayer: number[] = [];
  for (const [placeholder, byParticipant] of world.picks) {
    for (const [participantId, playerIds] of byParticipant) {
      for (const playerId of playerIds) {
        pGroup.push(groupIds.get(placeholder) as number);
        pParticipant.push(participantId);
        pPlayer.push(playerId);
      }
    }
  }
  await db.query(
    `insert into pick (participant_id, group_id, player_id)
     select * from unnest($1::text[], $2::int[], $3::int[])`,
    [pParticipant, pGroup, pPlayer],
  );
  return groupIds;
}

// ---------------------------------------------------------------------- tests

/** Rows less their odds: a forecast, not the rules (held to the shared model by game/group-odds.test.ts). */
const withoutOdds = (rows: Iterable<LeaderboardRow>): Omit<LeaderboardRow, 'odds'>[] => [...rows].map(({ odds: _odds, ...row }) => row);

/** Each group's standings as the server ranks them, from a book read whole now. */
async function rankedInMemory(orm: Orm, groupId: number): Promise<Omit<LeaderboardRow, 'odds'>[]> {
  const book = new EntryBook(orm, ROUND_ONE_PICKS, { info: () => {}, warn: () => {} });
  if (groupId === GLOBAL_GROUP) return withoutOdds((await new GlobalStandings(book).compute()).rankings);
  return withoutOdds(rankGroup(await book.sync(), groupId, await groupMembers(orm.em.fork(), groupId)).rankings);
}

describe('the standings ranked in memory match rankEntries', () => {
  let db: TestDb | undefined;
  let orm: Orm | undefined;
  let total = 0;
  const seen = { aliveScoring: 0, busted: 0, sharedRanks: 0, aliveEliminated: 0, canWin: 0 };

  beforeAll(async () => {
    db = await createTestDb();
    orm = await openOrm(db.url, 2);
  }, 120_000);

  afterAll(async () => {
    await orm?.close(true);
    await db?.close();
    db = undefined;
  });

  for (const s of scenarios) {
    it(`${s.name}`, async () => {
      if (!db) throw new Error('no test database');
      const world = buildWorld(s);
      const groupIds = await loadWorld(db, s, world);

      for (const [placeholder, groupId] of groupIds) {
        const expected: RankedRow[] = rankEntries(entriesFor(world, placeholder), world.snapshot);
        const actual = await rankedInMemory(orm!, groupId);
        expect(actual, `${s.name}, group ${String(groupId)}`).toEqual(expected);
        // The pick count (the Pending column is counted from it) is each entry's picks as loaded, and an
        // alive entry has no miss: every pick of it is a hit or pending.
        const loaded = new Map(entriesFor(world, placeholder).map((e) => [e.participantId, e.picks]));
        expect(actual.map((r) => r.picks), `${s.name}, pick counts`).toEqual(actual.map((r) => loaded.get(r.participant_id)?.length));
        const undrafted = (r: LeaderboardRow) => loaded.get(r.participant_id)!.filter((p) => p.draftRound === null).length;
        for (const r of actual.filter((row) => !row.busted)) expect(r.picks - r.correct_picks, `${s.name}, pending`).toBe(undrafted(r));

        total += expected.length;
        seen.aliveScoring += expected.filter((r) => !r.busted && r.correct_picks > 0).length;
        seen.busted += expected.filter((r) => r.busted).length;
        seen.sharedRanks += expected.filter((r, i) => i > 0 && expected[i - 1]?.rank === r.rank && r.rank > 1).length;
        seen.aliveEliminated += expected.filter((r) => !r.busted && !r.can_win).length;
        seen.canWin += expected.filter((r) => r.can_win).length;
      }
    }, 60_000);
  }

  it('covered at least 1,000 entries with varied outcomes', () => {
    expect(total).toBeGreaterThanOrEqual(1000);
    expect(seen.aliveScoring).toBeGreaterThan(50);
    expect(seen.busted).toBeGreaterThan(50);
    expect(seen.sharedRanks).toBeGreaterThan(20);
    // Who can still win (max_possible, can_win) compared on both sides of the line.
    expect(seen.aliveEliminated).toBeGreaterThan(20);
    expect(seen.canWin).toBeGreaterThan(20);
  });
});

// ------------------------------------------------- followed through every change (the book kept up to date)

describe('the standings followed through every kind of change match rankEntries and a book read whole', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  /** `rankEntries` on the entries as the tables hold them now (the one entry rule in JS). */
  async function expected(groupId: number): Promise<RankedRow[]> {
    const picks = await t.db.query<{ participant_id: string; group_id: number; rank: number; draft_round: number | null }>(
      `select k.participant_id, k.group_id, pl.rank, pl.draft_round from pick k join player pl on pl.id = k.player_id`,
    );
    const names = new Map((await t.db.query<{ id: string; name: string }>(`select id, coalesce(screen_name, id) as name from participant`)).map((r) => [r.id, r.name]));
    const sets = new Map<string, PickedPlayer[]>();
    for (const k of picks) {
      const key = `${k.participant_id}:${k.group_id}`;
      sets.set(key, [...(sets.get(key) ?? []), { rank: k.rank, draftRound: k.draft_round }]);
    }
    const members =
      groupId === GLOBAL_GROUP
        ? [...names.keys()].map((id) => ({ participant_id: id, use_global_picks: true }))
        : await t.db.query<{ participant_id: string; use_global_picks: boolean }>(`select participant_id, use_global_picks from group_membership where group_id = $1`, [groupId]);
    const [state] = await t.db.query<{ filled: number; marked: boolean }>(
      `select (select count(*)::int from player where draft_round = 1) as filled, round_one_complete as marked from draft_state`,
    );
    const entries = members.map((m) => ({
      participantId: m.participant_id,
      participantName: names.get(m.participant_id)!,
      picks: sets.get(`${m.participant_id}:${entrySetGroup(groupId, m.use_global_picks)}`) ?? [],
    }));
    return rankEntries(entries, { roundOnePicks: ROUND_ONE_PICKS, filledSlots: state!.filled, roundOneCompleteMarked: state!.marked });
  }

  it('after saves of My Picks and of own picks, joins, forks, links, leaves, recorded picks, undo, completion and reset', async () => {
    t = await createTestApp();
    const em = () => t.orm().em.fork();
    const rng = new Rng(4242);
    const ids = Array.from({ length: 24 }, (_, i) => `${rng.pick(ID_PREFIXES)}seq_${i}`);
    const board = (await t.db.query<{ id: number }>(`select id from player order by rank limit 60`)).map((r) => r.id);
    await t.db.query(`insert into participant (id, screen_name) select unnest($1::text[]), 'Seq ' || unnest($1::text[])`, [ids]);
    const groups: number[] = [];
    for (let g = 0; g < 3; g++) {
      const [row] = await t.db.query<{ id: number }>(`insert into groups (name, created_by) values ($1, $2) returning id`, [`Sequence ${g}`, ids[g]]);
      groups.push(row!.id);
      await t.db.query(`insert into group_membership (group_id, participant_id, is_owner) values ($1, $2, true)`, [row!.id, ids[g]]);
    }
    const caller = (participantId: string) => ({ em: em(), participantId, draft: t.deps.draft, bus: t.deps.events, sink: t.deps.events, now: new Date() });
    const someone = () => rng.pick(ids);
    const somePicks = () => rng.sample(board, rng.int(1, 12));
    const done: string[] = [];
    const kinds = new Set<string>();
    let started = false;
    for (let step = 0; step < 90; step++) {
      const roll = rng.float();
      const [state] = await t.db.query<{ filled: number; marked: boolean }>(
        `select (select count(*)::int from player where draft_round = 1) as filled, round_one_complete as marked from draft_state`,
      );
      let kind: string;
      try {
        if (!started) {
          if (roll < 0.3) {
            await savePicks(caller(someone()), { picks: somePicks() });
            kind = 'save My Picks';
          } else if (roll < 0.45) {
            const [m] = await t.db.query<{ group_id: number; participant_id: string }>(`select group_id, participant_id from group_membership order by random() limit 1`);
            await savePicks(caller(m!.participant_id), { picks: somePicks(), group_id: m!.group_id });
            kind = 'save own picks';
          } else if (roll < 0.62) {
            await joinGroup(caller(someone()), { group_id: rng.pick(groups) });
            kind = 'join';
          } else if (roll < 0.8) {
            const [m] = await t.db.query<{ group_id: number; participant_id: string }>(`select group_id, participant_id from group_membership order by random() limit 1`);
            const mode = roll < 0.72 ? 'own' : 'linked';
            await setEntryMode(caller(m!.participant_id), m!.group_id, mode);
            kind = mode === 'own' ? 'fork' : 'link';
          } else if (roll < 0.86) {
            const [m] = await t.db.query<{ group_id: number; participant_id: string }>(`select group_id, participant_id from group_membership where not is_owner order by random() limit 1`);
            if (!m) continue;
            await leaveGroup(caller(m.participant_id), m.group_id);
            kind = 'leave';
          } else {
            await startDraft(em(), t.deps.draft, 'test');
            started = true;
            kind = 'start';
          }
        } else if (state!.marked || state!.filled >= ROUND_ONE_PICKS) {
          await undoLast(em(), 'test');
          kind = 'undo';
        } else if (roll < 0.55) {
          const left = (await t.db.query<{ id: number }>(`select id from player where draft_round is null and id = any($1::int[]) order by rank`, [board])).map((r) => r.id);
          await recordPick(em(), t.deps.draft, 'test', state!.filled + 1, left[Math.floor(rng.float() ** 2 * left.length)]!);
          kind = 'pick';
        } else if (roll < 0.72 && state!.filled > 0) {
          await undoLast(em(), 'test');
          kind = 'undo';
        } else if (roll < 0.82) {
          await completeRoundOne(em(), t.deps.draft, 'test');
          kind = 'complete';
        } else if (roll < 0.9) {
          await resetDraft(em(), 'test');
          started = false;
          kind = 'reset';
        } else continue;
      } catch (error) {
        // A refusal the rules make (an owner leaving members behind, a member's second join): nothing changed.
        if (error instanceof DomainError) continue;
        throw error;
      }
      done.push(kind);
      kinds.add(kind);
      for (const groupId of [GLOBAL_GROUP, ...groups]) {
        const want = await expected(groupId);
        t.deps.leaderboards.invalidateGroup(groupId);
        expect(withoutOdds((await t.deps.leaderboards.get(groupId)).rankings), `${done.join(', ')}: group ${groupId}`).toEqual(want);
        expect(await rankedInMemory(t.orm(), groupId), `${done.join(', ')}: group ${groupId}, read whole`).toEqual(want);
      }
    }
    expect([...kinds].sort()).toEqual(['complete', 'fork', 'join', 'leave', 'link', 'pick', 'reset', 'save My Picks', 'save own picks', 'start', 'undo']);
  }, 180_000);
});
