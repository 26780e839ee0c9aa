import { describe, expect, it } from 'vitest';
import { inEntries, percentOfField, pickedWithYou } from './field-text';

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
    expect(inEntries(0.4067)).toBe('in 41 % of entries');
    expect(inEntries(0)).toBe('in no entry');
  });
});
