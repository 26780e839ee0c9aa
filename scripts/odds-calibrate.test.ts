import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrationAt, fitTemperature } from '../shared/src/odds-calibration.js';
import { ODDS_TEMPERATURE } from '../shared/src/odds.js';
import { roundOne2025Ranks } from './lib/round-one-2025.js';

const { boardRanks, pickRanks } = roundOne2025Ranks(path.resolve(import.meta.dirname, '..'));

describe('the odds model on the bundled 2025 round one', () => {
  it('its temperature is the one that fits the 2025 picks best (whole numbers 1 to 40)', () => {
    expect(pickRanks).toHaveLength(32);
    expect(fitTemperature(boardRanks, pickRanks, Array.from({ length: 40 }, (_, i) => i + 1))).toBe(ODDS_TEMPERATURE);
  });

  it('the report counts every undrafted board player once, and the baseline fills exactly the open slots', () => {
    for (const after of [0, 8, 16, 24]) {
      const c = calibrationAt(boardRanks, pickRanks, after, ODDS_TEMPERATURE, 200);
      expect(c.bands.reduce((s, b) => s + b.players, 0)).toBe(boardRanks.length - after);
      expect(Math.round(c.bands.reduce((s, b) => s + b.baseline * b.players, 0))).toBe(32 - after);
      // The model too fills the open slots in every simulation: its chances add up to them.
      expect(c.bands.reduce((s, b) => s + b.modelled * b.players, 0)).toBeCloseTo(32 - after, 6);
    }
  });
});
