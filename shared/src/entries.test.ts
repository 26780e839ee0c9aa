import { describe, expect, it } from 'vitest';
import { entryModeLabel, entryModeOf, entryModeText, entrySetGroup } from './entries';

describe('which picks a member plays in a group', () => {
  it('the global set for the global group and for a linked membership, else the group’s own', () => {
    expect(entrySetGroup(1, false)).toBe(1);
    expect(entrySetGroup(12345678, true)).toBe(1);
    expect(entrySetGroup(12345678, false)).toBe(12345678);
  });

  it('says so in words', () => {
    expect(entryModeOf(true)).toBe('linked');
    expect(entryModeOf(false)).toBe('own');
    expect(entryModeText('linked', 10)).toBe('Using My Picks · 10');
    expect(entryModeText('own', 8)).toBe('Own picks · 8');
    expect(entryModeText('linked', 0)).toBe('Using My Picks · no picks yet');
    expect(entryModeLabel('own')).toBe('Own picks');
  });
});
