import { Badge, Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { skipToken } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { parseId } from '@first-round/shared/ids';
import { useAuth } from '../../auth/auth-context';
import { Page } from '../../components/page';
import { FullPageMessage } from '../../components/full-page-message';
import { PrimaryButton } from '../../components/buttons';
import { BackTo, GroupLoadError } from '../../components/groups/group-frame';
import { GroupLeaderboard } from '../../components/groups/group-leaderboard';
import { OwnerTools } from '../../components/groups/owner-tools';
import { MembersList } from '../../components/groups/members-list';
import { GroupHistory } from '../../components/groups/group-history';
import { TvViewLink } from '../../components/groups/tv-view-link';
import { GroupEntryActions, GroupEntryCard, type GroupEntry } from '../../components/groups/group-entry';
import { useDraftPhase } from '../../lib/queries';
import { NotAMember } from '../../components/groups/not-a-member';
import { isHiddenGroup, membersLabel, useDraftStarted } from '../../components/groups/group-utils';
import { errorMessage, trpc } from '../../lib/trpc';

/** A group once the user has picks in it: members before the draft, the group leaderboard after (docs/web-app-groups.md). */
export function GroupPicksPage() {
  const auth = useAuth();
  const { groupId: raw } = useParams();
  const id = parseId(raw);
  if (!auth.isSignedIn) return <FullPageMessage spinner={false}>Please sign in to view this group.</FullPageMessage>;
  if (id === null) return <GroupLoadError message="Group not found" />;
  return <GroupPicks id={id} />;
}

function GroupPicks({ id }: { id: number }) {
  const opts = { staleTime: STALE_TIMES.groupPage };
  const group = trpc.groups.get.useQuery({ group_id: id }, opts);
  const membership = trpc.groups.membership.useQuery({ group_id: id }, opts);
  const isMember = membership.data?.is_member ?? false;
  const draft = useDraftStarted();
  const members = trpc.groups.members.useQuery(isMember && draft.loaded && !draft.started ? { group_id: id } : skipToken, opts);
  const myPicks = trpc.picks.mine.useQuery(isMember ? { group_id: id } : skipToken, opts);
  const globalPicks = trpc.picks.global.useQuery(isMember && draft.loaded && !draft.started ? undefined : skipToken, opts);
  const phase = useDraftPhase();

  // A private group one is not in answers as no group does (404): an ordinary state, not a failure to load.
  if (isHiddenGroup(group.error)) return <NotAMember id={id} isPublic={false} />;
  const error = group.error ?? membership.error ?? members.error;
  if (error) return <GroupLoadError message={errorMessage(error, 'Failed to load group details')} />;
  if (!group.data || !membership.data || !draft.loaded) return <FullPageMessage>Loading group...</FullPageMessage>;
  const g = group.data;
  if (!isMember) return <NotAMember id={id} name={g.name} isPublic={g.is_public} />;

  const hasPicks = (myPicks.data?.picks.length ?? 0) > 0;
  const me = membership.data.participant_id;
  const back = <BackTo to="/groups" label="Back to My Groups" />;
  const subtitle = (
    <HStack as="span" gap="2" wrap="wrap">
      <span>{membersLabel(g.member_count)}</span>
      <span aria-hidden>·</span>
      <span>Group ID {g.group_id}</span>
      {phase === 'final' ? (
        <Badge size="sm" bg="gold.400" color="navy.900">
          Final
        </Badge>
      ) : draft.started ? (
        <Badge size="sm" bg="turf.600" color="white">
          Draft under way
        </Badge>
      ) : (
        g.picks_public && (
          <Badge size="sm" variant="outline" colorPalette="gray">
            Picks visible after the start
          </Badge>
        )
      )}
    </HStack>
  );

  if (!draft.started) {
    // Until both are read the entry is not known: nothing may say 'no picks yet' meanwhile.
    const entry: GroupEntry | null =
      myPicks.data && globalPicks.data
        ? { groupId: id, groupName: g.name, mode: membership.data.entry_mode ?? 'linked', picks: myPicks.data.picks, myPicks: globalPicks.data.picks.length }
        : null;
    return (
      <Page title={g.name} before={back} subtitle={subtitle}>
        <Stack gap="6" pb="4">
          {membership.data.can_invite && <OwnerTools group={g} membership={membership.data} />}
          {entry ? <GroupEntryCard entry={entry} /> : <Text color="gray.600">Loading your entry...</Text>}
          {members.isPending || !entry ? <Text color="gray.600">Loading members...</Text> : <MembersList members={members.data ?? []} me={me} myPicks={entry.picks.length} />}
          <Text fontSize="sm" color="gray.600">
            The group leaderboard opens once the NFL Draft begins.
          </Text>
          <TvViewLink groupId={id} />
          <GroupHistory groupId={id} />
        </Stack>
        {entry && <GroupEntryActions entry={entry} />}
      </Page>
    );
  }

  return (
    <Page title={g.name} before={back} subtitle={subtitle}>
      <Box pb="4">
        <HStack gap="3" mb="4" wrap="wrap">
          <Button asChild variant="outline" size="sm" borderColor="navy.900" color="navy.900">
            <Link to={`/groups/${id}/board`}>
              Draft board <span aria-hidden>→</span>
            </Link>
          </Button>
          <TvViewLink groupId={id} />
        </HStack>
        <GroupLeaderboard groupId={id} me={me} picksVisible={g.picks_public} />
        <Box mt="8">
          <GroupHistory groupId={id} />
        </Box>
      </Box>
      {hasPicks && <PicksButton groupId={id}>View Picks</PicksButton>}
    </Page>
  );
}

/** The sticky button under the group page that opens the user's picks for this group. */
function PicksButton({ groupId, children }: { groupId: number; children: string }) {
  return (
    <Box position="sticky" bottom="0" py="3" bg="gray.50">
      <PrimaryButton asChild width="full">
        <Link to={`/select-players?groupId=${groupId}`}>{children}</Link>
      </PrimaryButton>
    </Box>
  );
}
