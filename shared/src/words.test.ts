import { describe, expect, it } from 'vitest';
import { ordinal, plural, possessive } from './words';

describe('words', () => {
  it('plural and ordinal', () => {
    expect(plural(1, 'pick')).toBe('1 pick');
    expect(plural(2, 'miss', 'misses')).toBe('2 misses');
    expect([1, 2, 3, 11, 22, 113].map(ordinal)).toEqual(['1st', '2nd', '3rd', '11th', '22nd', '113th']);
  });

  it("possessives: Ana's, and Chris' for a name ending in s", () => {
    expect(possessive('Ana')).toBe("Ana's");
    expect(possessive('Chris')).toBe("Chris'");
    expect(possessive('MARCUS')).toBe("MARCUS'");
  });
});
