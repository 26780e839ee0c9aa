import { Text } from '@chakra-ui/react';
import { useParams } from 'react-router-dom';
import { GLOBAL_GROUP_ID, STALE_TIMES } from '@first-round/shared/constants';
import { parseId } from '@first-round/shared/ids';
import { useAuth } from '../auth/auth-context';
import { Page } from '../components/page';
import { FullPageMessage } from '../components/full-page-message';
import { BackTo, GroupLoadError } from '../components/groups/group-frame';
import { NotAMember } from '../components/groups/not-a-member';
import { SeasonStandings } from '../components/seasons/season-standings';
import { useProfile } from '../lib/queries';
import { errorKind, errorMessage, trpc } from '../lib/trpc';

/**
 * A closed season's final standings: in a group (/groups/{id}/seasons/{year}, members only) or globally
 * (/leaderboard/seasons/{year}). Past seasons never change: read once, kept.
 */
export function SeasonStandingsPage() {
  const auth = useAuth();
  const { groupId: rawGroup, year: rawYear } = useParams();
  const groupId = rawGroup === undefined ? GLOBAL_GROUP_ID : parseId(rawGroup);
  const year = parseId(rawYear);
  if (!auth.isSignedIn) return <FullPageMessage spinner={false}>Please sign in to view past seasons.</FullPageMessage>;
  if (groupId === null) return <GroupLoadError message="Group not found" />;
  if (year === null) return <GroupLoadError message="There is no such season" />;
  return <Standings groupId={groupId} year={year} />;
}

function Standings({ groupId, year }: { groupId: number; year: number }) {
  const opts = { staleTime: STALE_TIMES.groupLists, retry: false };
  const global = groupId === GLOBAL_GROUP_ID;
  const groupBoard = trpc.seasons.groupLeaderboard.useQuery({ year, group_id: groupId }, { ...opts, enabled: !global });
  const globalBoard = trpc.seasons.globalLeaderboard.useQuery({ year }, { ...opts, enabled: global });
  const me = useProfile();
  const board = global ? globalBoard : groupBoard;

  if (errorKind(board.error) === 'FORBIDDEN') return <NotAMember id={groupId} isPublic={false} />;
  if (board.error) return <GroupLoadError message={errorMessage(board.error, 'Could not load these standings')} />;
  if (!board.data) return <FullPageMessage>Loading final standings...</FullPageMessage>;
  const b = board.data;
  const back = global ? <BackTo to="/leaderboard" label="Back to the leaderboard" /> : <BackTo to={`/groups/${groupId}/picks`} label={`Back to ${b.group_name}`} />;
  return (
    <Page title={`${year} final standings`} before={back} subtitle={global ? 'Global leaderboard' : b.group_name}>
      <Text fontSize="sm" color="gray.700" mb="3">
        {b.entries} {b.entries === 1 ? 'entry' : 'entries'}. Open an entry to see its picks: ✓ went in round one, ✗ did not.
        {global ? ' Only your own picks are shown here.' : ''}
      </Text>
      <SeasonStandings board={b} me={me.data?.id} />
    </Page>
  );
}
