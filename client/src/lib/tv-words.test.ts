import { describe, expect, it } from 'vitest';
import { entriesIn, entryState, hadByText, hitsText, restOfStandings, rowsThatFit, tvStandingsLines } from './tv-words';

const named = (...names: string[]) => names.map((participant_name) => ({ participant_name }));

describe('the TV view words', () => {
  it('says who here had the pick, summing up a long list', () => {
    expect(hadByText([], 0)).toBe('Nobody here had him');
    expect(hadByText(named('Ana'), 1)).toBe('Ana had him');
    expect(hadByText(named('Ana', 'Bo'), 2)).toBe('Ana and Bo had him');
    expect(hadByText(named('Ana', 'Bo', 'Cy'), 3)).toBe('Ana, Bo and Cy had him');
    expect(hadByText(named('Ana', 'Bo', 'Cy', 'Di', 'Ed', 'Flo'), 6)).toBe('Ana, Bo, Cy, Di and 2 more had him');
  });

  it('counts, never names, the members a group with private picks does not name', () => {
    expect(hadByText(named('Ana'), 3)).toBe('Ana and 2 others had him');
    expect(hadByText(named('Ana'), 2)).toBe('Ana and 1 other had him');
    expect(hadByText([], 3)).toBe('3 members here had him');
    expect(hadByText([], 1)).toBe('1 member here had him');
  });

  it('sums up the standings beyond the rows shown', () => {
    expect(restOfStandings(12, 12, 5, 5, false)).toBeNull();
    expect(restOfStandings(20, 12, 9, 12, false)).toBe('+ 8 more · 3 still alive');
    expect(restOfStandings(20, 12, 2, 2, true)).toBe('+ 8 more · 0 survived');
  });

  it('writes states, hits and entries in', () => {
    expect([entryState(false, false), entryState(true, false), entryState(false, true), entryState(true, true)]).toEqual(['Alive', 'Busted', 'Survived', 'Busted']);
    expect([hitsText(1), hitsText(0), hitsText(7)]).toEqual(['1 hit', '0 hits', '7 hits']);
    expect(entriesIn([{ has_picks: true }, { has_picks: false }, { has_picks: true }])).toBe('2 of 3 members have picks in');
    expect(entriesIn([{ has_picks: true }])).toBe('1 of 1 member has picks in');
  });
});

describe("the TV standings' lines", () => {
  it('are 12 on a 720p screen and 18 on a 1080p one; a row with odds takes two, a busted row three', () => {
    expect(tvStandingsLines(720)).toBe(12);
    expect(tvStandingsLines(768)).toBe(12);
    expect(tvStandingsLines(1080)).toBe(18);
    const odds = { survive: 0.5, win: 0.1 };
    const rows = (n: number, r: { busted: boolean; odds?: unknown }) => Array.from({ length: n }, () => r);
    expect(rowsThatFit(rows(20, { busted: false, odds }), 12)).toHaveLength(6);
    expect(rowsThatFit(rows(20, { busted: false, odds }), 18)).toHaveLength(9);
    expect(rowsThatFit(rows(20, { busted: false }), 12)).toHaveLength(12);
    expect(rowsThatFit([...rows(2, { busted: false }), ...rows(10, { busted: true })], 18)).toHaveLength(7);
  });
});
