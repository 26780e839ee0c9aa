import { describe, expect, it } from 'vitest';
import { MAX_ID, parseId, parseWholeNumber } from './ids.js';

describe('parseId', () => {
  it('reads a positive id written in digits', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('42')).toBe(42);
    expect(parseId('007')).toBe(7);
    expect(parseId(String(MAX_ID))).toBe(MAX_ID);
    // A repeated query parameter is read by its first value.
    expect(parseId(['5', '6'])).toBe(5);
  });

  it('refuses anything else', () => {
    for (const text of ['0', '-1', '1.5', '1e3', '0x10', ' 1', '1 ', '', 'abc', '\u200b1', '1\u0000', String(MAX_ID + 1), '99999999999', '9'.repeat(300)]) {
      expect(parseId(text), JSON.stringify(text)).toBeNull();
    }
    for (const value of [undefined, null, 5, [], [5], {}]) expect(parseId(value), JSON.stringify(value)).toBeNull();
  });
});

describe('parseWholeNumber', () => {
  it('takes zero by default and keeps to the bounds it is given', () => {
    expect(parseWholeNumber('0')).toBe(0);
    expect(parseWholeNumber('32', 1, 32)).toBe(32);
    expect(parseWholeNumber('33', 1, 32)).toBeNull();
    expect(parseWholeNumber('0', 1)).toBeNull();
  });
});
