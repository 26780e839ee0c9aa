import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { Page } from '../components/page';
import { StandingsBoard } from '../components/standings-board';
import { PastSeasonsLinks } from '../components/seasons/past-seasons-links';

/** The global standings: every entry, a page at a time, with search, the caller pinned and Jump to me. */
export function LeaderboardPage() {
  return (
    <Page title="Global Leaderboard" subtitle="See how you stack up against all players">
      <StandingsBoard groupId={GLOBAL_GROUP_ID} />
      <PastSeasonsLinks />
    </Page>
  );
}
