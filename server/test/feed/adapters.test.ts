import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { espnAdapter, FeedFormatError, genericAdapter } from '../../src/modules/feed/feed.adapters.js';
import { matchPlayer, normaliseName, normaliseSchool, similarity } from '../../src/modules/feed/feed.match.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/feed');
const fixture = (name: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));

const board = fs
  .readFileSync(path.join(dir, '../../../../shared/data/players-2025.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [rank, playerName, position, school] = line.split(',');
    return { id: Number(rank), playerName: playerName!, position: position!, school: school! };
  });

describe('feed adapters', () => {
  it('reads the generic feed', () => {
    const picks = genericAdapter(fixture('generic.json'));
    expect(picks).toHaveLength(6);
    expect(picks[0]).toEqual({ overall: 1, round: 1, playerName: 'Cam Ward', school: 'Miami', position: 'QB', team: 'TEN' });
  });

  it('reads only the made picks of the ESPN feed, with school and position', () => {
    const picks = espnAdapter(fixture('espn.json'));
    expect(picks.map((p) => p.overall)).toEqual([1, 2, 3, 9]);
    expect(picks[3]).toEqual({ overall: 9, round: 1, playerName: 'Kelvin Banks Jr.', school: 'Texas', position: 'OT', team: 'NO' });
  });

  it('refuses malformed documents as a whole', () => {
    expect(() => genericAdapter(fixture('generic-malformed.json'))).toThrow(FeedFormatError);
    expect(() => genericAdapter({ picks: [] })).toThrow(FeedFormatError);
    expect(() => espnAdapter(fixture('espn-malformed.json'))).toThrow(FeedFormatError);
    expect(() => espnAdapter([])).toThrow(FeedFormatError);
    expect(() => espnAdapter({ picks: [{ overall: 1, status: 'SELECTION_MADE', athlete: {} }] })).toThrow(/names no athlete/);
  });

  it('reads the repeated, out-of-order and corrected variants', () => {
    expect(genericAdapter(fixture('generic-repeated.json')).map((p) => p.overall)).toEqual([12, 9, 4, 3, 2, 1]);
    expect(genericAdapter(fixture('generic-out-of-order.json')).map((p) => p.overall)).toContain(6);
    expect(genericAdapter(fixture('generic-corrected.json'))[1]).toMatchObject({ overall: 2, playerName: 'Shedeur Sanders' });
  });
});

describe('matching a feed pick to the board', () => {
  it('normalises names and schools', () => {
    expect(normaliseName('Kelvin Banks Jr.')).toBe('kelvin banks');
    expect(normaliseName('Luther Burden III')).toBe('luther burden');
    expect(normaliseName("T.J. Sanders")).toBe('tj sanders');
    expect(normaliseName('JOSÉ  Núñez-Smith')).toBe('jose nunez smith');
    expect(normaliseSchool('Texas A&M')).toBe(normaliseSchool('texas a and m'));
    expect(normaliseSchool('Boise St.')).toBe('boise state');
    expect(similarity('abc', 'abc')).toBe(1);
  });

  it('exact, then normalised name with school, then fuzzy, then none', () => {
    expect(matchPlayer({ playerName: 'Cam Ward', school: 'Miami' }, board)).toMatchObject({ kind: 'exact', player: { playerName: 'Cam Ward' } });
    expect(matchPlayer({ playerName: 'kelvin banks', school: 'TEXAS' }, board)).toMatchObject({ kind: 'normalised', player: { playerName: 'Kelvin Banks Jr.' } });
    // Same name, another school: not normalised, only suggested.
    expect(matchPlayer({ playerName: 'Kelvin Banks', school: 'Oregon' }, board)).toMatchObject({ kind: 'fuzzy', player: { playerName: 'Kelvin Banks Jr.' } });
    const fuzzy = matchPlayer({ playerName: 'Tyler Bookr', school: 'Alabama' }, board);
    expect(fuzzy).toMatchObject({ kind: 'fuzzy', player: { playerName: 'Tyler Booker' } });
    expect(fuzzy.score).toBeLessThan(1);
    expect(matchPlayer({ playerName: 'Zzyzx Qwerty', school: 'Nowhere' }, board)).toMatchObject({ kind: 'none', player: null });
  });
});
