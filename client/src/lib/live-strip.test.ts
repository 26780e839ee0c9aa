import { describe, expect, it } from 'vitest';
import type { LeaderboardRow, PlayerDto } from '@first-round/shared/schemas';
import { countdownText, draftPhase, stripRoute, finalPlace, ordinal, podium, recentPicks, stripText, tickerText, timeLeftShort, winnerText } from './live-strip';

const player = (id: number, name: string, pick: number | null, over: Partial<PlayerDto> = {}): PlayerDto => ({
  id,
  rank: id,
  player_name: name,
  position: 'TE',
  school: 'Penn State',
  draft_round: pick === null ? null : 1,
  draft_pick: pick,
  band: 'safe',
  ...over,
});
const row = (name: string, rank: number, over: Partial<LeaderboardRow> = {}): LeaderboardRow => ({
  rank,
  participant_id: name.toLowerCase(),
  participant_name: name,
  correct_picks: 10 - rank,
  busted: false,
  tiebreak_rank: null,
  picks: 10,
  max_possible: 10,
  can_win: true,
  ...over,
});

describe('the draft-night strip', () => {
  it('shows on the Groups, My Picks and Leaderboard tabs, speaking of the group a page is about', () => {
    expect(stripRoute('/leaderboard', '')).toEqual({ shown: true, onLeaderboard: true, onGroupStandings: false, groupId: null });
    expect(stripRoute('/my-picks', '')).toEqual({ shown: true, onLeaderboard: false, onGroupStandings: false, groupId: null });
    expect(stripRoute('/groups', '')).toEqual({ shown: true, onLeaderboard: false, onGroupStandings: false, groupId: null });
    expect(stripRoute('/groups/12/picks', '')).toEqual({ shown: true, onLeaderboard: false, onGroupStandings: true, groupId: 12 });
    expect(stripRoute('/groups/12', '')).toEqual({ shown: true, onLeaderboard: false, onGroupStandings: false, groupId: 12 });
    expect(stripRoute('/groups/create', '')).toEqual({ shown: true, onLeaderboard: false, onGroupStandings: false, groupId: null });
    expect(stripRoute('/select-players', '?groupId=7')).toEqual({ shown: true, onLeaderboard: false, onGroupStandings: false, groupId: 7 });
    expect(stripRoute('/select-players', '?groupId=x')).toEqual({ shown: true, onLeaderboard: false, onGroupStandings: false, groupId: null });
    for (const path of ['/settings', '/how-to-play', '/admin', '/welcome', '/auth-test']) expect(stripRoute(path, '').shown, path).toBe(false);
  });

  it('follows the draft: before the start, live, final', () => {
    expect(draftPhase({ draftHasStarted: false, round_one_complete: false })).toBe('before');
    expect(draftPhase({ draftHasStarted: true, round_one_complete: false })).toBe('live');
    expect(draftPhase({ draftHasStarted: true, round_one_complete: true })).toBe('final');
  });

  // Round one's order as draft.status carries it (pick 3's team not known here).
  const order = [{ slot: 1, team: 'TEN' }, { slot: 2, team: 'JAX' }, { slot: 3, team: null }, { slot: 14, team: 'IND' }];

  it('takes the picks from the board, newest first, marking the caller’s, each with the team that made it', () => {
    const board = [player(1, 'Cam Ward', 1), player(2, 'Abdul Carter', 3), player(3, 'Travis Hunter', 2), player(4, 'Shedeur Sanders', null), player(5, 'Later Rounder', 40, { draft_round: 2 })];
    const picks = recentPicks(board, new Set([3, 4]), 5, order);
    expect(picks.map((p) => [p.slot, p.team, p.player.player_name, p.mine])).toEqual([
      [3, null, 'Abdul Carter', false],
      [2, 'JAX', 'Travis Hunter', true],
      [1, 'TEN', 'Cam Ward', false],
    ]);
    expect(recentPicks(board, null, 2, order).map((p) => p.slot)).toEqual([3, 2]);
    expect(recentPicks([], null, 5, order)).toEqual([]);
  });

  it('reads like the issue: the slot, the team that picked, the player, a check mark only for a player in the caller’s entry', () => {
    const warren = { slot: 14, team: 'IND', player: player(9, 'Tyler Warren', 14), mine: true };
    expect(stripText(warren, order)).toBe('LIVE · Pick 14 · IND · Tyler Warren, TE, Penn State · your entry ✓');
    expect(stripText({ ...warren, mine: false }, order)).toBe('LIVE · Pick 14 · IND · Tyler Warren, TE, Penn State');
    // A slot whose team is not known says so by leaving it out.
    expect(stripText({ ...warren, team: null, mine: false }, order)).toBe('LIVE · Pick 14 · Tyler Warren, TE, Penn State');
  });

  it('before the first pick names the team on the clock', () => {
    expect(stripText(undefined, order)).toBe('LIVE · The draft has started · Pick 1 · TEN on the clock');
    expect(stripText(undefined, [])).toBe('LIVE · The draft has started · Pick 1 is on the clock');
  });

  it('lists the earlier picks in the ticker the same way, shorter', () => {
    expect(tickerText({ slot: 2, team: 'JAX', player: player(3, 'Travis Hunter', 2, { position: 'CB/WR' }), mine: true })).toBe('Pick 2 · JAX · Travis Hunter, CB/WR');
    expect(tickerText({ slot: 3, team: null, player: player(2, 'Abdul Carter', 3, { position: 'EDGE' }), mine: false })).toBe('Pick 3 · Abdul Carter, EDGE');
  });
});

describe('the countdown chip', () => {
  // Thursday 29 April 2027, 8 PM in New York (EDT, UTC-4).
  const deadline = '2027-04-30T00:00:00.000Z';

  it('counts whole days, then hours, then minutes', () => {
    expect(timeLeftShort(158.2 * 86_400_000)).toBe('159 d');
    expect(timeLeftShort(86_400_000)).toBe('1 d');
    expect(timeLeftShort(5 * 3_600_000 - 1)).toBe('5 h');
    expect(timeLeftShort(12 * 60_000)).toBe('12 min');
    expect(timeLeftShort(1000)).toBe('1 min');
    expect(timeLeftShort(0)).toBe('');
  });

  it('says when picks lock in the player’s own time zone, named', () => {
    const now = new Date(Date.parse(deadline) - 158.5 * 86_400_000);
    expect(countdownText(deadline, now, 'America/New_York')).toBe('Picks lock Thu Apr 29, 8:00 PM EDT · 159 d');
    expect(countdownText(deadline, now, 'America/Los_Angeles')).toBe('Picks lock Thu Apr 29, 5:00 PM PDT · 159 d');
    expect(countdownText(deadline, now, 'Europe/Berlin')).toBe('Picks lock Fri Apr 30, 2:00 AM GMT+2 · 159 d');
    expect(countdownText(deadline, new Date(Date.parse(deadline) + 1000), 'America/New_York')).toBe('Picks lock Thu Apr 29, 8:00 PM EDT');
  });
});

describe('the final state', () => {
  it('names the place with its ordinal', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 102, 111, 302].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '102nd', '111th', '302nd']);
  });

  it('says where the caller finished, busted or not, or that they had no entry', () => {
    expect(finalPlace(row('Me', 10), 302)).toBe('You finished 10th of 302');
    expect(finalPlace(row('Me', 212, { busted: true, correct_picks: 0 }), 302)).toBe('You finished 212th of 302 · busted');
    expect(finalPlace(null, 302)).toBe('You had no entry this year');
    // A group's card speaks of the group; the global one knows about entries in groups.
    expect(finalPlace(row('Me', 2), 3, { groupName: 'Sunday Squad' })).toBe('You finished 2nd of 3 in Sunday Squad');
    expect(finalPlace(null, 3, { groupName: 'Sunday Squad' })).toBe('You had no entry in Sunday Squad');
    expect(finalPlace(null, 302, { groupEntries: 1 })).toBe('No global entry · you played in 1 group');
    expect(finalPlace(null, 302, { groupEntries: 0 })).toBe('You had no entry this year');
  });

  it('puts the first three surviving entries on the podium and names the winner, shared or not', () => {
    const rows = [row('Ana', 1), row('Bo', 2), row('Cy', 2), row('Di', 4)];
    expect(podium(rows).map((r) => r.participant_name)).toEqual(['Ana', 'Bo', 'Cy']);
    expect(winnerText(rows)).toBe('Winner: Ana');
    expect(winnerText([row('Ana', 1), row('Bo', 1)])).toBe('Winners: Ana, Bo');
    expect(winnerText(['A', 'B', 'C', 'D', 'E'].map((n) => row(n, 1)))).toBe('Winners: A, B, C and 2 more');
    const fewAlive = [row('Ana', 1), row('Bo', 2, { busted: true, correct_picks: 0 })];
    expect(podium(fewAlive).map((r) => r.participant_name)).toEqual(['Ana']);
    const allBusted = [row('Ana', 1, { busted: true, correct_picks: 0 })];
    expect(podium(allBusted)).toEqual([]);
    expect(winnerText(allBusted)).toBe('No entry survived round one');
  });
});
