import { describe, expect, it } from 'vitest';
import { formatTitle, routeTitleFor } from './document-title';

describe('document titles', () => {
  it('names every route of the app', () => {
    expect(routeTitleFor('/sign-in')).toBe('Sign In');
    expect(routeTitleFor('/groups/')).toBe('My Groups');
    expect(routeTitleFor('/groups/join')).toBe('Join a Group');
    expect(routeTitleFor('/groups/join/abc123')).toBe('Group Invitation');
    expect(routeTitleFor('/groups/12')).toBe('Group');
    expect(routeTitleFor('/groups/12/picks')).toBe('Group Picks');
    expect(routeTitleFor('/groups/12/board')).toBe('Draft Board');
    expect(routeTitleFor('/groups/12/tv')).toBe('TV View');
    expect(routeTitleFor('/no/such/page')).toBeNull();
  });

  it('adds the product to a title that does not name it', () => {
    expect(formatTitle('Edit Picks')).toBe('Edit Picks · First Round');
    expect(formatTitle('Join the First Round')).toBe('Join the First Round');
    expect(formatTitle(null)).toBe('First Round');
  });
});
