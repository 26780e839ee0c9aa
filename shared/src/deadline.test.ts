import { describe, expect, it } from 'vitest';
import { formatDeadline } from './deadline.js';

describe('formatDeadline', () => {
  it('tells the deadline on the Eastern clock, minutes only when there are some', () => {
    expect(formatDeadline('2026-04-24T00:00:00.000Z')).toBe('Thu Apr 23 · 8 PM ET');
    expect(formatDeadline('2026-04-24T00:30:00.000Z')).toBe('Thu Apr 23 · 8:30 PM ET');
    expect(formatDeadline(new Date('2026-01-10T17:00:00Z'))).toBe('Sat Jan 10 · 12 PM ET');
  });
});
