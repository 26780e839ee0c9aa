import { describe, expect, it } from 'vitest';
import { savedDescription, selectionsLabel } from './selection-text';

describe('selection texts', () => {
  it('counts selections with the right plural', () => {
    expect([0, 1, 2, 32].map(selectionsLabel)).toEqual(['0 selections', '1 selection', '2 selections', '32 selections']);
  });

  it('names the riskiest pick when picks are saved', () => {
    const picks = [
      { rank: 1, player_name: 'Travis Hunter' },
      { rank: 35, player_name: 'Jaxson Dart' },
      { rank: 12, player_name: 'Tyler Warren' },
    ];
    expect(savedDescription(picks)).toBe('3 players saved. You can change your picks until they lock. Riskiest pick: Jaxson Dart (#35).');
    expect(savedDescription([picks[0]!])).toBe('1 player saved. You can change your picks until they lock. Riskiest pick: Travis Hunter (#1).');
  });
});
