import { describe, expect, it } from 'vitest';
import { safeNext, withNext } from './next-path';

describe('safeNext', () => {
  it('keeps paths of this app and refuses everything else', () => {
    expect(safeNext('/leaderboard')).toBe('/leaderboard');
    expect(safeNext('/groups/12345678/picks?x=1')).toBe('/groups/12345678/picks?x=1');
    for (const bad of [null, undefined, '', 'leaderboard', '//evil.example', '/\\evil.example', 'https://evil.example/', '/sign-in', '/sign-up?next=/x', '/auth/callback']) {
      expect(safeNext(bad)).toBeNull();
    }
  });
  it('builds the query', () => {
    expect(withNext('/sign-in', '/leaderboard')).toBe('/sign-in?next=%2Fleaderboard');
    expect(withNext('/sign-up', null, { email: 'bob@example.com' })).toBe('/sign-up?email=bob%40example.com');
    expect(withNext('/sign-up', null)).toBe('/sign-up');
  });
});
