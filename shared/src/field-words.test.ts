import { describe, expect, it } from 'vitest';
import { inThisGroup, ofAllEntries, percentOfField, pickedByYou } from './field-words';

describe('field words', () => {
  it('says a share in whole percent, never 0 % for a player someone picked', () => {
    expect(percentOfField(0.1234)).toBe('12 %');
    expect(percentOfField(0.125)).toBe('13 %');
    expect(percentOfField(1)).toBe('100 %');
    expect(percentOfField(0.0049)).toBe('<1 %');
    expect(percentOfField(0.005)).toBe('1 %');
    expect(percentOfField(0)).toBe('0 %');
  });

  it('one wording for the share: of all entries, in this group', () => {
    expect(ofAllEntries(0.4067)).toBe('41 % of all entries');
    expect(inThisGroup(2, 3)).toBe('2 of 3 in this group');
    expect(inThisGroup(0, 3)).toBe('Nobody in this group had him');
  });

  it('a pick nobody else holds says so, not "you and 33 %"', () => {
    expect(pickedByYou(1, 0.3333)).toBe('Only you picked him');
    expect(pickedByYou(4, 0.12)).toBe('Picked by 12 % of all entries, you included');
  });
});
