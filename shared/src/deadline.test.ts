import { describe, expect, it } from 'vitest';
import { formatDeadline, formatWhen } from './deadline.js';

describe('formatWhen', () => {
  it('tells a moment in the reader’s zone, named, minutes always', () => {
    const at = '2026-04-24T00:00:00.000Z';
    expect(formatWhen(at, 'America/New_York')).toBe('Thu Apr 23, 8:00 PM EDT');
    expect(formatWhen(at, 'America/Los_Angeles')).toBe('Thu Apr 23, 5:00 PM PDT');
    expect(formatWhen(at, 'Europe/Berlin')).toBe('Fri Apr 24, 2:00 AM GMT+2');
    expect(formatWhen(at, 'UTC')).toBe('Fri Apr 24, 12:00 AM UTC');
    expect(formatWhen(new Date('2026-01-10T17:30:00Z'), 'America/New_York')).toBe('Sat Jan 10, 12:30 PM EST');
    expect(formatWhen(at, 'America/New_York', { year: true })).toBe('Thu Apr 23, 2026, 8:00 PM EDT');
    // The year is the reader's: New Year's Eve in Los Angeles is already next year in UTC.
    expect(formatWhen('2027-01-01T03:00:00Z', 'America/Los_Angeles', { year: true })).toBe('Thu Dec 31, 2026, 7:00 PM PST');
  });

  it('the server tells the deadline on the Eastern clock, named', () => {
    expect(formatDeadline('2026-04-24T00:00:00.000Z')).toBe('Thu Apr 23, 8:00 PM EDT');
  });
});
