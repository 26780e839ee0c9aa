import { describe, expect, it } from 'vitest';
import { findTeam, NFL_TEAMS, onTheClockLabel, pickLabel, slotOnTheClock, teamAt, teamName } from './teams';

describe('the 32 teams', () => {
  it('are 32, each abbreviation and name once', () => {
    expect(NFL_TEAMS).toHaveLength(32);
    expect(new Set(NFL_TEAMS.map((t) => t.abbreviation)).size).toBe(32);
    expect(new Set(NFL_TEAMS.map((t) => t.name)).size).toBe(32);
    expect(teamName('SEA')).toBe('Seattle Seahawks');
    expect(teamName('XYZ')).toBeNull();
  });

  it('are found by abbreviation, common alternative, full name or nickname, whatever the case', () => {
    expect(findTeam('sea')?.abbreviation).toBe('SEA');
    expect(findTeam(' Seattle Seahawks ')?.abbreviation).toBe('SEA');
    expect(findTeam('Seahawks')?.abbreviation).toBe('SEA');
    expect(findTeam('49ers')?.abbreviation).toBe('SF');
    expect(findTeam('WSH')?.abbreviation).toBe('WAS');
    expect(findTeam('JAC')?.abbreviation).toBe('JAX');
    // A city alone is no team (New York, Los Angeles have two); nor is anything unknown.
    expect(findTeam('New York')).toBeNull();
    expect(findTeam('Los Angeles')).toBeNull();
    expect(findTeam('Oakland Raiders')).toBeNull();
    expect(findTeam('')).toBeNull();
    expect(findTeam(null)).toBeNull();
  });
});

describe('a pick in words', () => {
  it('names the slot, the team that holds it and the player', () => {
    expect(pickLabel(18, 'SEA', 'Grey Zabel')).toBe('Pick 18 · SEA · Grey Zabel');
    expect(pickLabel(18, null, 'Grey Zabel')).toBe('Pick 18 · Grey Zabel');
    expect(pickLabel(18, 'SEA')).toBe('Pick 18 · SEA');
  });

  it('names the team on the clock', () => {
    expect(onTheClockLabel(19, 'TB')).toBe('Pick 19 · TB on the clock');
    expect(onTheClockLabel(19, null)).toBe('Pick 19 is on the clock');
  });

  it('puts the lowest open slot on the clock (picks may be recorded out of order), none once all are in', () => {
    expect(slotOnTheClock([], 32)).toBe(1);
    expect(slotOnTheClock([1, 2, 4], 32)).toBe(3);
    expect(slotOnTheClock([1, 2], 2)).toBeNull();
  });

  it('reads a slot’s team off the order, null when not known', () => {
    const order = [{ slot: 1, team: 'TEN' }, { slot: 2, team: null }];
    expect(teamAt(order, 1)).toBe('TEN');
    expect(teamAt(order, 2)).toBeNull();
    expect(teamAt(order, 9)).toBeNull();
    expect(teamAt(undefined, 1)).toBeNull();
  });
});
