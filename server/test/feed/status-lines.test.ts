import { describe, expect, it } from 'vitest';
import type { FeedStatus } from '@first-round/shared/schemas';
import { describeFeedItem } from '@first-round/shared/feed-words';
import { describeFeedStatus } from '../../src/modules/feed/feed.service.js';

const base: FeedStatus = {
  configured: true,
  kind: 'espn',
  interval_seconds: 10,
  last_poll_at: '2025-04-24T00:10:00.000Z',
  last_success_at: '2025-04-24T00:09:50.000Z',
  last_error: 'The feed answered HTTP 503',
  lag_seconds: 12,
  picks_seen: 16,
  consecutive_failures: 1,
  next_poll_at: null,
  next_poll_in_seconds: null,
  backing_off: false,
  queue: [],
};
const booker = { id: 19, rank: 29, player_name: 'Tyler Booker', position: 'IOL', school: 'Alabama', draft_round: null, draft_pick: null, band: 'late' } as never;

describe('the feed status for the terminal', () => {
  it('says when no feed is configured, and shows what a polling server left when run without its FEED_URL', () => {
    expect(describeFeedStatus({ ...base, configured: false, last_poll_at: null, last_success_at: null, lag_seconds: null, last_error: null })).toEqual([
      'Feed: not configured (set FEED_URL to poll a results feed)',
    ]);
    expect(describeFeedStatus({ ...base, configured: false, last_error: null })).toEqual([
      'Feed (polled by the server): last poll 2025-04-24T00:10:00.000Z, last success 12 s ago, 16 round-one picks seen',
    ]);
  });

  it('shows the last poll, lag, error and the queue', () => {
    const lines = describeFeedStatus({
      ...base,
      queue: [
        { id: 3, slot: 17, kind: 'confirm', status: 'open', feed: { player_name: 'Tyler Bookr', school: 'Alabama', position: 'IOL', team: 'CIN' }, suggested: booker, recorded: null, score: 0.93, recorded_team: null, created_at: base.last_poll_at! },
      ],
    });
    expect(lines[0]).toBe('Feed: espn, every 10 s while the draft is live; last poll 2025-04-24T00:10:00.000Z, last success 12 s ago, 16 round-one picks seen');
    expect(lines[1]).toBe('  Last error: The feed answered HTTP 503');
    expect(lines[2]).toBe('  To confirm #3: Feed says pick 17: Tyler Bookr, Alabama → board #29 Tyler Booker IOL Alabama?');
  });

  it('words a conflict and an unmatched name', () => {
    const item = { slot: 2, feed: { player_name: 'Shedeur Sanders', school: 'Colorado', position: 'QB', team: null } };
    const hunter = { ...(booker as object), player_name: 'Travis Hunter', draft_pick: 2 } as never;
    expect(describeFeedItem({ ...item, kind: 'conflict', suggested: null, recorded: hunter })).toBe('Feed says pick 2: Shedeur Sanders, Colorado, but pick 2 is recorded as Travis Hunter');
    expect(describeFeedItem({ ...item, kind: 'conflict', suggested: hunter, recorded: null })).toBe('Feed says pick 2: Shedeur Sanders, Colorado, but Travis Hunter is already recorded at pick 2');
    expect(describeFeedItem({ ...item, kind: 'confirm', suggested: null, recorded: null })).toBe('Feed says pick 2: Shedeur Sanders, Colorado → no board player is close');
  });

  it('words a team the feed names against the operator’s, and one it does not know', () => {
    const item = { slot: 3, kind: 'team' as const, suggested: null, recorded: null, feed: { player_name: 'Abdul Carter', school: 'Penn State', position: null, team: 'NYG' } };
    expect(describeFeedItem({ ...item, recorded_team: 'DAL' })).toBe('Feed says pick 3 belongs to NYG (New York Giants), but it is set to DAL');
    expect(describeFeedItem({ ...item, feed: { ...item.feed, team: 'Team 99' }, recorded_team: 'SEA' })).toBe(
      'Feed says pick 3 belongs to "Team 99", which is not one of the 32 NFL teams; it is set to SEA',
    );
    expect(describeFeedItem({ ...item, feed: { ...item.feed, team: 'Team 99' }, recorded_team: null })).toBe(
      'Feed says pick 3 belongs to "Team 99", which is not one of the 32 NFL teams; it has no team set',
    );
  });
});
