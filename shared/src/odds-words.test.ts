import { describe, expect, it } from 'vitest';
import { chanceText, survivalAfterPickText, killListItemText, needsAllOfText, riskMeterText, survivalText, winText } from './odds-words.js';

describe('the odds in words', () => {
  it('whole percent, and only a certainty reads 0 % or 100 %', () => {
    expect(chanceText(0.37)).toBe('37 %');
    expect(chanceText(0.374)).toBe('37 %');
    expect(chanceText(0)).toBe('0 %');
    expect(chanceText(1)).toBe('100 %');
    expect(chanceText(0.004)).toBe('<1 %');
    expect(chanceText(0.0005)).toBe('<1 %');
    expect(chanceText(0.996)).toBe('>99 %');
  });

  it('to survive, to win, the risk meter, the kill list', () => {
    expect(survivalText(0.37)).toBe('37 % to survive');
    expect(winText(0.12)).toBe('12 % to win');
    expect(survivalAfterPickText(0.37, 12)).toBe('37 % to survive after pick 12');
    expect(survivalAfterPickText(0.9, 0)).toBe('90 % to survive before the first pick');
    expect(riskMeterText(12, 0.08)).toBe('12 picks · 8 % to survive round one');
    expect(riskMeterText(1, 1)).toBe('1 pick · 100 % to survive round one');
    expect(killListItemText('Jalen Milroe', 0.58)).toBe('Jalen Milroe · 58 % to miss round one');
    expect(needsAllOfText(['Milroe', 'Dart', 'Zabel'])).toBe('Needs all of: Milroe, Dart and Zabel');
    expect(needsAllOfText(['Milroe'])).toBe('Needs Milroe');
    expect(needsAllOfText([])).toBeNull();
  });
});
