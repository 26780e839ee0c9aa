import type { FeedQueueItem } from './schemas.js';
import { findTeam } from './teams.js';

/**
 * A queued feed report in one line, the same on /admin and in `npm run draft -- status`:
 * "Feed says pick 17: Tyler Booker, Alabama → board #29 Tyler Booker IOL Alabama?"
 */
export function describeFeedItem(item: Pick<FeedQueueItem, 'slot' | 'kind' | 'feed' | 'suggested' | 'recorded'> & { recorded_team?: string | null }): string {
  if (item.kind === 'team') {
    const team = findTeam(item.feed.team);
    const now = item.recorded_team ? `it is set to ${item.recorded_team}` : 'it has no team set';
    return team
      ? `Feed says pick ${item.slot} belongs to ${team.abbreviation} (${team.name}), but ${now}`
      : `Feed says pick ${item.slot} belongs to "${item.feed.team}", which is not one of the 32 NFL teams; ${now}`;
  }
  const says = `Feed says pick ${item.slot}: ${item.feed.player_name}, ${item.feed.school}`;
  const s = item.suggested;
  if (item.kind === 'conflict') {
    if (item.recorded) return `${says}, but pick ${item.slot} is recorded as ${item.recorded.player_name}`;
    return `${says}, but ${s?.player_name ?? 'that player'} is already recorded at pick ${s?.draft_pick ?? '?'}`;
  }
  return s ? `${says} → board #${s.rank} ${s.player_name} ${s.position} ${s.school}?` : `${says} → no board player is close`;
}
