/**
 * `npm run season` as the operator runs it, against a filled season: refusals change nothing; `new`
 * archives exactly the standings players saw, empties the play, keeps groups and accounts, and a running
 * server shows the new season at once. The archive is then read over REST, members only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupDto, Leaderboard, SeasonLeaderboard, SeasonSummary } from '@first-round/shared/schemas';
import { defaultSeasonDeadline } from '../server/src/modules/seasons/seasons.service.js';
import { createTestApp, type TestApp, type TestUser } from '../server/test/support/test-app.js';
import { runScript } from '../server/test/support/run-script.js';
import { boardIds, createGroup, eventually, expectError, expectStatus, joinGroup, operatorStart, savePicks, tableCounts } from '../server/test/game/helpers.js';
import { draftCommand } from './draft.js';
import { runCommandInProcess, type Command } from './lib/command.js';
import { seasonCommand } from './season.js';

let t: TestApp;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'season-cli-'));
const env = () => ({ DATABASE_URL: t.db.url, DATA_DIR: dir, DRAFT_DEADLINE: '2099-04-23T20:00:00-04:00' });
/** A command run inside this process, as the operator's own process would run it: what it does and says. */
const run = (name: string, command: Command, args: string[]) => runCommandInProcess(name, command, args, { ...process.env, LOG_LEVEL: 'silent', ...env() });
const season = (...args: string[]) => run('season', seasonCommand, args);
const board2026 = path.join(dir, 'board-2026.csv');
const badBoard = path.join(dir, 'bad.csv');
const order2026 = path.join(dir, 'order-2026.csv');
const badOrder = path.join(dir, 'bad-order.csv');
const shortOrder = path.join(dir, 'short-order.csv');
/** A 2026 order for the test: the 32 teams in alphabetical order (ARI first, WAS last). */
const TEAMS_2026 = 'ARI ATL BAL BUF CAR CHI CIN CLE DAL DEN DET GB HOU IND JAX KC LAC LAR LV MIA MIN NE NO NYG NYJ PHI PIT SEA SF TB TEN WAS'.split(' ');
const ORDER_2025 = 'TEN JAX NYG NE CLE LV NYJ CAR NO CHI SF DAL MIA IND ATL ARI CIN SEA TB DEN PIT LAC GB MIN NYG ATL BAL DET WAS BUF PHI KC'.split(' ');
const teamsNow = async () => ((await t.request('GET', '/api/draft/status')).json() as { round_one_order: { team: string | null }[] }).round_one_order.map((o) => o.team);

let ann: TestUser, bob: TestUser, cat: TestUser;
let office: GroupDto, hidden: GroupDto;

/** Everything `season new` may touch, to show a refusal left it all as it was. */
async function snapshot() {
  const seasons = await t.db.query(`select year, closed_at is null as current from season order by year`);
  const archive = await t.db.query(`select (select count(*) from season_entry)::int as entries, (select count(*) from season_player)::int as players`);
  const board = await t.db.query(`select id, rank, player_name, draft_round, draft_pick from player order by id`);
  return { counts: await tableCounts(t), seasons, archive, board };
}

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  fs.writeFileSync(board2026, ['rank,player_name,position,school', ...Array.from({ length: 40 }, (_, i) => `${i + 1},Prospect ${i + 1},QB,School ${i + 1}`)].join('\n'));
  fs.writeFileSync(badBoard, 'rank,player_name,position,school\n1,Nobody,QB,\n');
  fs.writeFileSync(order2026, ['slot,team', ...TEAMS_2026.map((team, i) => `${i + 1},${team}`)].join('\n'));
  fs.writeFileSync(badOrder, 'slot,team\n1,ARI\n2,Oakland Raiders\n');
  fs.writeFileSync(shortOrder, 'slot,team\n1,ARI\n2,ATL\n');
  [ann, bob, cat] = [await t.signUp('AliceDrafts'), await t.signUp('bobby'), await t.signUp('catty')];
  office = await createGroup(t, ann, { picks_public: true });
  hidden = await createGroup(t, cat);
  await joinGroup(t, bob, office.id);
  const ids = await boardIds(t);
  // Ann: the top 3 (all went in round one); Bob: rank 1 and rank 90 (busted); Cat: rank 5.
  await savePicks(t, ann, ids.slice(0, 3));
  await savePicks(t, ann, ids.slice(0, 2), office.id);
  await savePicks(t, bob, [ids[0]!, ids[89]!]);
  expectStatus(await t.request('POST', `/api/groups/${office.id}/use-global-picks`, { user: bob, body: { use_global_picks: true } }), 200);
  await savePicks(t, cat, [ids[4]!]);
  await savePicks(t, cat, [ids[5]!], hidden.id);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run season', () => {
  it('lists the migrated season as the current 2025 one', () => {
    // The current season shows the deadline the server locks picks at (DRAFT_DEADLINE here). As its own
    // process once: the command's output and exit code as the operator sees them.
    expect(runScript('season', ['list'], env())).toEqual({ code: 0, out: expect.stringMatching(/^2025\tcurrent\t2099-04-24T00:00:00\.000Z/) });
  });

  it('refuses what it cannot do with a clear message, exit code 1, and nothing changed', async () => {
    const before = await snapshot();
    expect(await season('new', '2025', '--board', board2026)).toEqual({ code: 1, out: 'Nothing was changed: The new season must come after the current one (2025)' });
    expect(await season('new', '2026', '--board', badBoard)).toMatchObject({ code: 1, out: expect.stringMatching(/^Nothing was changed: .*bad\.csv is not a board\.\nrow 2: /) });
    expect(await season('new', '2026')).toMatchObject({ code: 1, out: expect.stringMatching(/^Give the new season's board/) });
    expect(await season('new', '2026', '--board', board2026, '--order', badOrder)).toEqual({
      code: 1,
      out: `Nothing was changed: ${badOrder} is not a round-one order.\nrow 3: team "Oakland Raiders" is not one of the 32 NFL teams (an abbreviation such as SEA, or a name such as Seattle Seahawks)`,
    });
    expect(await season('new', '2026', '--board', board2026, '--order', shortOrder)).toEqual({
      code: 1,
      out: 'Nothing was changed: The order names 2 slots but round one has 32 (ROUND_ONE_PICKS): give every slot its team',
    });
    expect(await season('new', 'next', '--board', board2026)).toMatchObject({ code: 1, out: expect.stringMatching(/^The year must be a draft year/) });
    expect(await season('new', '2026', '--board', board2026, '--deadline', '2027-04-22T20:00:00-04:00')).toMatchObject({
      code: 1,
      out: expect.stringMatching(/is not in 2026/),
    });
    // Round one under way: refused unless forced.
    await operatorStart(t);
    const started = await snapshot();
    expect(await season('new', '2026', '--board', board2026)).toMatchObject({ code: 1, out: expect.stringMatching(/The 2025 draft is under way \(round one: 0 of 32 picks recorded\).*--force/) });
    expect(await snapshot()).toEqual(started);
    expect(before.counts.pick).toBe(started.counts.pick);
  });

  it('closes 2025 into the archive with the standings players saw, and opens 2026 empty with groups kept', async () => {
    // The operator's own command, as on draft night (done-when: `npm run draft -- replay-2025`).
    expect((await run('draft', draftCommand, ['replay-2025'])).out).toMatch(/Replayed 32 pick\(s\)\./);
    await eventually(async () => expect((await t.request('GET', '/api/draft/status')).json()).toMatchObject({ picks_made: 32 }));
    const globalBefore = expectStatus<Leaderboard>(await t.request('GET', '/api/groups/1/leaderboard', { user: ann }), 200);
    const officeBefore = expectStatus<Leaderboard>(await t.request('GET', `/api/groups/${office.id}/leaderboard`, { user: ann }), 200);
    expect(globalBefore.rankings.length).toBe(3);
    const before = await tableCounts(t);
    const heard: string[] = [];
    t.deps.events.onChange((c) => heard.push(c.kind));

    const opened = await season('new', '2026', '--board', board2026, '--order', order2026);
    expect(opened.code, opened.out).toBe(0);
    expect(opened.out).toMatch(/^Closed the 2025 season: final standings of 3 group\(s\) kept \(3 global entries\), \d+ draft event\(s\) archived\.\nOpened the 2026 season: 40 players on the board/);

    // The play is empty, the groups and people stay, the deadline is the new season's.
    const after = await tableCounts(t);
    expect(after).toMatchObject({ pick: 0, drafted: 0, started: 0, draft_event: 1, groups: before.groups, group_membership: before.group_membership, participant: before.participant });
    const [state] = await t.db.query<{ deadline: Date; round_one_complete: boolean }>(`select deadline, round_one_complete from draft_state`);
    expect(state).toEqual({ deadline: defaultSeasonDeadline(2026, undefined), round_one_complete: false });
    expect(await t.db.query(`select player_name from player order by rank limit 2`)).toEqual([{ player_name: 'Prospect 1' }, { player_name: 'Prospect 2' }]);
    expect(await t.db.query(`select year, closed_at is null as current from season order by year`)).toEqual([
      { year: 2025, current: false },
      { year: 2026, current: true },
    ]);

    // The running server heard it: the new board and an unstarted draft, without a restart.
    await eventually(async () => expect(heard).toContain('reset'));
    await eventually(async () => {
      const players = (await t.request('GET', '/api/players/')).json() as { player_name: string }[];
      expect(players[0]?.player_name).toBe('Prospect 1');
    });
    expect((await t.request('GET', '/api/draft/status')).json()).toMatchObject({ draftHasStarted: false, picks_made: 0 });
    // The new season's order, and the closed one's kept in the archive.
    expect(await teamsNow()).toEqual(TEAMS_2026);
    expect((await t.db.query<{ team: string }>(`select team from season_round_one_order where season = 2025 order by slot`)).map((r) => r.team)).toEqual(ORDER_2025);

    // The archive is what the standings were, row for row.
    const strip = (rows: Leaderboard['rankings']) => rows.map((r) => ({ rank: r.rank, participant_id: r.participant_id, correct_picks: r.correct_picks, busted: r.busted, picks: r.picks }));
    const globalAfter = expectStatus<SeasonLeaderboard>(await t.request('GET', '/api/seasons/2025/leaderboard', { user: ann }), 200);
    expect(strip(globalAfter.rankings as never)).toEqual(strip(globalBefore.rankings));
    const officeAfter = expectStatus<SeasonLeaderboard>(await t.request('GET', `/api/seasons/2025/groups/${office.id}/leaderboard`, { user: ann }), 200);
    expect(strip(officeAfter.rankings as never)).toEqual(strip(officeBefore.rankings));
    expect(officeAfter.group_name).toBe(office.name);
    expect(globalAfter.rankings[0]).toMatchObject({ participant_name: 'AliceDrafts', correct_picks: 3, hits: 3 });
    expect(globalAfter.me?.pick_list?.map((p) => p.hit)).toEqual([true, true, true]);
    // Each hit with the team that took him, as the 2025 order had it.
    for (const p of globalAfter.me!.pick_list!) expect(p.team, p.player_name).toBe(ORDER_2025[p.draft_pick! - 1]);

    expect((await season('list')).out.split('\n')).toEqual([
      expect.stringMatching(/^2026\tcurrent\t/),
      expect.stringMatching(/^2025\tclosed\t.*\t3 entries\twinner: AliceDrafts \(3 hits\)$/),
    ]);
  });

  it('shows picks ✓/✗ only where they are the caller’s to see', async () => {
    // The group's picks are public: Bob sees Ann's; his own entry (his global picks) has its miss.
    const office2025 = expectStatus<SeasonLeaderboard>(await t.request('GET', `/api/seasons/2025/groups/${office.id}/leaderboard`, { user: bob }), 200);
    expect(office2025.rankings.find((r) => r.participant_id === ann.id)?.pick_list).toHaveLength(2);
    expect(office2025.me).toMatchObject({ busted: true, correct_picks: 0, hits: 1 });
    expect(office2025.me?.pick_list?.map((p) => p.hit)).toEqual([true, false]);
    // Globally others' picks stay hidden.
    const global2025 = expectStatus<SeasonLeaderboard>(await t.request('GET', '/api/seasons/2025/leaderboard', { user: bob }), 200);
    expect(global2025.rankings.find((r) => r.participant_id === ann.id)?.pick_list).toBeNull();
  });

  it('lists seasons with winners, globally and per group', async () => {
    const list = expectStatus<SeasonSummary[]>(await t.request('GET', `/api/seasons?group_id=${office.id}`, { user: bob }), 200);
    expect(list.map((s) => [s.year, s.current, s.entries, s.winners.map((w) => w.participant_name), s.winning_score])).toEqual([
      [2026, true, null, [], null],
      [2025, false, 2, ['AliceDrafts'], 2],
    ]);
    const global = expectStatus<SeasonSummary[]>(await t.request('GET', '/api/seasons', { user: cat }), 200);
    expect(global[1]).toMatchObject({ year: 2025, entries: 3, my_rank: 2 });
  });

  it('refuses non-members, unknown years, the current season and groups that were not there', async () => {
    // A private group one is not in answers as no group does.
    expectError(await t.request('GET', `/api/seasons/2025/groups/${office.id}/leaderboard`, { user: cat }), 404, 'Group not found');
    expectError(await t.request('GET', `/api/seasons?group_id=${hidden.id}`, { user: ann }), 404, 'Group not found');
    expectError(await t.request('GET', '/api/seasons/2025/groups/999999/leaderboard', { user: ann }), 404, 'Group not found');
    expectError(await t.request('GET', '/api/seasons/2019/leaderboard', { user: ann }), 404, 'There is no 2019 season');
    expectError(await t.request('GET', '/api/seasons/2026/leaderboard', { user: ann }), 404, /still being played/);
    expectError(await t.request('GET', '/api/seasons/1999/leaderboard', { user: ann }), 422);
    expectError(await t.request('GET', '/api/seasons/2025/leaderboard'), 401);
    const fresh = await createGroup(t, ann);
    expectError(await t.request('GET', `/api/seasons/2025/groups/${fresh.id}/leaderboard`, { user: ann }), 404, /did not exist when that season closed/);
    // Over tRPC the same rule answers the same kind.
    await expect((await t.caller(cat)).seasons.groupLeaderboard({ year: 2025, group_id: office.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
  it('closes a season mid-draft only when forced, counting its undrafted picks as misses', async () => {
    const [first] = await boardIds(t);
    await savePicks(t, ann, [first!]);
    await operatorStart(t);
    const deadline = '2027-04-22T20:00:00-04:00';
    expect(await season('new', '2027', '--board', board2026, '--deadline', deadline)).toMatchObject({ code: 1, out: expect.stringMatching(/The 2026 draft is under way/) });
    const forced = await season('new', '2027', '--board', board2026, '--deadline', deadline, '--force');
    expect(forced.code, forced.out).toBe(0);
    const board = expectStatus<SeasonLeaderboard>(await t.request('GET', '/api/seasons/2026/leaderboard', { user: ann }), 200);
    expect(board.me).toMatchObject({ rank: 1, busted: true, correct_picks: 0, hits: 0, pick_list: [{ player_name: 'Prospect 1', hit: false, draft_pick: null }] });
    const [state] = await t.db.query<{ deadline: Date; started_at: Date | null }>(`select deadline, started_at from draft_state`);
    expect(state).toEqual({ deadline: new Date(deadline), started_at: null });
    // Opened without --order: no slot has a team until the operator gives it one; 2026's order is archived.
    expect(await teamsNow()).toEqual(Array.from({ length: 32 }, () => null));
    expect(await t.db.query(`select count(*)::int as n from season_round_one_order where season = 2026`)).toEqual([{ n: 32 }]);
  });
});
