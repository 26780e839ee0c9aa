import { describe, expect, it } from 'vitest';
import { hereCount, ofEveryone, percentOfField, pickedWithYou } from './field-text';

describe('field text', () => {
  it('says a share in whole percent, never 0 % for a player someone picked', () => {
    expect(percentOfField(0.1234)).toBe('12 %');
    expect(percentOfField(0.125)).toBe('13 %');
    expect(percentOfField(1)).toBe('100 %');
    expect(percentOfField(0.0049)).toBe('<1 %');
    expect(percentOfField(0.005)).toBe('1 %');
    expect(percentOfField(0)).toBe('0 %');
  });

  it('words the pick and the strip lines', () => {
    expect(pickedWithYou(0.12)).toBe('you and 12 % of the field');
    // A global figure says it is global; a group's says it is the group's.
    expect(ofEveryone(0.4067)).toBe('41 % of everyone');
    expect(ofEveryone(0)).toBe('0 % of everyone');
    expect(hereCount(2, 3)).toBe('2 of 3 here');
  });
});
