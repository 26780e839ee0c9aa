import { describe, expect, it } from 'vitest';
import { compareByDraftOrder, filterPlayers, matchesPosition, matchesSearch } from './player-filter.js';

const p = (player_name: string, position: string, school: string, rank = 1, draft_round: number | null = null, draft_pick: number | null = null) => ({
  id: rank,
  rank,
  player_name,
  position,
  school,
  draft_round,
  draft_pick,
});

describe('matchesPosition', () => {
  it('lets OL match every offensive-line position', () => {
    expect(matchesPosition('OT', 'OL')).toBe(true);
    expect(matchesPosition('IOL', 'OL')).toBe(true);
    expect(matchesPosition('OL', 'OL')).toBe(true);
    expect(matchesPosition('DL', 'OL')).toBe(false);
  });
  it('matches any slash-separated part containing the value', () => {
    expect(matchesPosition('CB/WR', 'WR')).toBe(true);
    expect(matchesPosition('LB/EDGE', 'EDGE')).toBe(true);
    expect(matchesPosition('IOL', 'OT')).toBe(false);
    // 'S' is contained in no part of 'CB' but in 'S'.
    expect(matchesPosition('S', 'S')).toBe(true);
    expect(matchesPosition('CB', 'S')).toBe(false);
    // Containment, as the rule says: OL is handled above, but 'OT' inside 'OT' only.
    expect(matchesPosition('EDGE/DL', 'DL')).toBe(true);
  });
  it('matches everything without a filter', () => {
    expect(matchesPosition('QB', '')).toBe(true);
  });
});

describe('matchesSearch', () => {
  it('matches name or school, ignoring case', () => {
    expect(matchesSearch(p('Cam Ward', 'QB', 'Miami'), 'cam')).toBe(true);
    expect(matchesSearch(p('Cam Ward', 'QB', 'Miami'), 'MIAMI')).toBe(true);
    expect(matchesSearch(p('Cam Ward', 'QB', 'Miami'), 'texas')).toBe(false);
    expect(matchesSearch(p('Cam Ward', 'QB', 'Miami'), '  ')).toBe(true);
  });
});

describe('filterPlayers', () => {
  it('applies search and position together', () => {
    const players = [p('Will Campbell', 'OT', 'LSU', 1), p('Jihaad Campbell', 'LB', 'Alabama', 2), p('Tyler Booker', 'IOL', 'Alabama', 3)];
    expect(filterPlayers(players, 'campbell', 'OL').map((x) => x.player_name)).toEqual(['Will Campbell']);
    expect(filterPlayers(players, 'alabama', '').map((x) => x.player_name)).toEqual(['Jihaad Campbell', 'Tyler Booker']);
  });
});

describe('compareByDraftOrder', () => {
  it('orders by round, pick, drafted first, then rank', () => {
    const list = [p('A', 'QB', 'X', 5), p('B', 'QB', 'X', 1), p('C', 'QB', 'X', 9, 1, 3), p('D', 'QB', 'X', 2, 1, 1), p('E', 'QB', 'X', 3, 2, 40)];
    expect([...list].sort(compareByDraftOrder).map((x) => x.player_name)).toEqual(['D', 'C', 'E', 'B', 'A']);
  });
});
