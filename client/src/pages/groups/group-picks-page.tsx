import { Badge, Box, Button, Flex, HStack, Stack, Text } from '@chakra-ui/react';
import { skipToken } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { LEADERBOARD_RETRIES, STALE_TIMES } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { useAuth } from '../../auth/auth-context';
import { Card, EmptyState, Page } from '../../components/page';
import { FullPageMessage } from '../../components/full-page-message';
import { PrimaryButton } from '../../components/form-bits';
import { BackTo, GroupLoadError } from '../../components/groups/group-frame';
import { GroupLeaderboard } from '../../components/groups/group-leaderboard';
import { GroupInvite } from '../../components/groups/invite';
import { MembersList } from '../../components/groups/members-list';
import { membersLabel, useDraftStarted } from '../../components/groups/group-utils';
import { shouldRetry } from '../../lib/query-client';
import { parseId } from '../../lib/select-title';
import { errorMessage, trpc } from '../../lib/trpc';

/** A group once the user has picks in it: members before the draft, the group leaderboard after (SPEC §2). */
export function GroupPicksPage() {
  const auth = useAuth();
  const { groupId: raw } = useParams();
  const id = parseId(raw);
  if (!auth.isSignedIn) return <FullPageMessage spinner={false}>Please sign in to view this group.</FullPageMessage>;
  if (id === null) return <GroupLoadError message="Group not found" onRefresh={() => undefined} />;
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
  const board = trpc.leaderboard.group.useQuery(isMember && draft.started ? { group_id: id } : skipToken, {
    staleTime: STALE_TIMES.leaderboard,
    retry: shouldRetry(LEADERBOARD_RETRIES),
  });

  const error = group.error ?? membership.error ?? members.error;
  if (error) return <GroupLoadError message={errorMessage(error, 'Failed to load group details')} onRefresh={() => void Promise.all([group.refetch(), membership.refetch(), members.refetch()])} />;
  if (!group.data || !membership.data || !draft.loaded) return <FullPageMessage>Loading group...</FullPageMessage>;
  const g = group.data;
  if (!isMember) return <GroupLoadError message={MESSAGES.notGroupMember} onRefresh={() => void membership.refetch()} />;

  const hasPicks = (myPicks.data?.picks.length ?? 0) > 0;
  const me = membership.data.participant_id;
  const back = <BackTo to="/groups" label="Back to My Groups" />;
  const subtitle = (
    <HStack as="span" gap="2" wrap="wrap">
      <span>{membersLabel(g.member_count)}</span>
      <span aria-hidden>·</span>
      <span>Group ID {g.group_id}</span>
      {draft.started ? (
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
    return (
      <Page title={g.name} before={back} subtitle={subtitle}>
        <Stack gap="6" pb="4">
          {membership.data.is_owner && (
            <Card>
              <Text fontWeight="bold" color="navy.900" mb="3">
                Invite friends
              </Text>
              <GroupInvite groupId={id} />
            </Card>
          )}
          <Card>
            <Text fontWeight="bold" color="navy.900">
              {hasPicks ? 'Your picks for this group are in.' : 'You have no picks in this group yet.'}
            </Text>
            <Text fontSize="sm" color="gray.600" mt="1">
              You can change them until the draft starts. The group leaderboard opens once the NFL Draft begins.
            </Text>
          </Card>
          {members.isPending ? <Text color="gray.600">Loading members...</Text> : <MembersList members={members.data ?? []} me={me} />}
        </Stack>
        <PicksButton groupId={id}>Edit Picks</PicksButton>
      </Page>
    );
  }

  return (
    <Page title={g.name} before={back} subtitle={subtitle}>
      <Stack gap="3" pb="4">
        {board.isPending ? (
          <FullPageMessage>Loading the leaderboard...</FullPageMessage>
        ) : board.isError ? (
          <EmptyState>
            <Text role="alert">{MESSAGES.leaderboardLoadFailed}</Text>
            <Button mt="4" variant="outline" size="sm" onClick={() => void board.refetch()}>
              Retry
            </Button>
          </EmptyState>
        ) : board.data.rankings.length === 0 ? (
          <EmptyState>{MESSAGES.leaderboardEmpty}</EmptyState>
        ) : (
          <>
            <Flex justify="space-between" align="baseline" gap="3" wrap="wrap">
              <Text color="gray.600" fontSize="sm">
                {board.data.entries} {board.data.entries === 1 ? 'participant' : 'participants'} · {board.data.alive} still alive
              </Text>
              {g.picks_public && (
                <Text color="gray.500" fontSize="xs">
                  Tap a row to see that member's picks
                </Text>
              )}
            </Flex>
            <GroupLeaderboard groupId={id} rows={board.data.rankings} me={me} picksVisible={g.picks_public} />
            {board.data.me && !board.data.rankings.some((r) => r.participant_id === me) && (
              <Text fontSize="sm" color="gray.600">
                You are ranked #{board.data.me.rank} with {board.data.me.correct_picks} correct picks.
              </Text>
            )}
          </>
        )}
      </Stack>
      {hasPicks && (
        <PicksButton groupId={id}>View Picks</PicksButton>
      )}
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
