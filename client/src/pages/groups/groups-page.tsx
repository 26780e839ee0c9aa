import { Box, Button, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link, useNavigate } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import type { GroupDto } from '@first-round/shared/schemas';
import { EmptyState, Page } from '../../components/page';
import { FullPageMessage } from '../../components/full-page-message';
import { PrimaryButton } from '../../components/buttons';
import { SignOutButton } from '../../components/sign-out-button';
import { GroupCard, GroupCardText, GroupTag } from '../../components/groups/group-card';
import { useAfterJoin, useDraftStarted } from '../../components/groups/group-utils';
import { notify } from '../../lib/toaster';
import { useDraftPhase } from '../../lib/queries';
import { errorKind, errorMessage, trpc } from '../../lib/trpc';
import { MESSAGES } from '@first-round/shared/messages';

export function GroupsPage() {
  const groups = trpc.groups.mine.useQuery(undefined, { staleTime: STALE_TIMES.groupLists });
  const publicGroups = trpc.groups.publicGroups.useQuery(undefined, { staleTime: STALE_TIMES.groupLists });
  const { started } = useDraftStarted();
  const phase = useDraftPhase() ?? 'before';
  // Each card's place and status (re-read after every pick: the live layer marks leaderboard reads stale).
  const cards = trpc.leaderboard.myGroups.useQuery(undefined, { staleTime: STALE_TIMES.leaderboard, enabled: (groups.data?.length ?? 0) > 0 });
  // Shown only once it agrees with the draft status: right after the start, not the pre-draft line.
  const standingOf = (groupId: number) => (cards.data?.draft_started === started ? cards.data.groups.find((c) => c.group_id === groupId) : undefined);

  if (groups.isPending) return <FullPageMessage>Loading your groups...</FullPageMessage>;
  if (groups.isError) return <GroupsError error={groups.error} onRetry={() => void groups.refetch()} retrying={groups.isFetching} />;

  return (
    <Page title="My Groups" subtitle="Play against your friends: each group has its own leaderboard.">
      <Flex gap="3" mb="5" wrap="wrap">
        {!started && (
          <PrimaryButton asChild flex={{ base: '1', sm: 'none' }}>
            <Link to="/groups/create">Create a Group</Link>
          </PrimaryButton>
        )}
        <Button asChild size="lg" variant="outline" borderColor="navy.900" color="navy.900" fontWeight="bold" flex={{ base: '1', sm: 'none' }}>
          <Link to="/groups/join">Join a Group</Link>
        </Button>
      </Flex>

      {groups.data.length === 0 ? (
        <EmptyState>You haven't joined any groups yet. Create one and play against your friends.</EmptyState>
      ) : (
        <Stack as="ul" gap="3" listStyleType="none" aria-label="My groups">
          {groups.data.map((g) => (
            <GroupCard key={g.group_id} group={g} phase={phase} standing={standingOf(g.group_id)} />
          ))}
        </Stack>
      )}

      <Box as="section" aria-labelledby="public-groups-heading" mt="10">
        <Heading as="h2" id="public-groups-heading" size="xl" color="navy.900" mb="1">
          Public Groups
        </Heading>
        <Text color="gray.600" mb="4">
          {started ? `${MESSAGES.publicGroupsClosed}.` : 'Open to everyone: join with one click.'}
        </Text>
        {publicGroups.isPending ? (
          <Text color="gray.600">Loading public groups...</Text>
        ) : publicGroups.isError ? (
          <EmptyState>
            <Text role="alert">{errorMessage(publicGroups.error, 'Failed to fetch groups')}</Text>
          </EmptyState>
        ) : publicGroups.data.length === 0 ? (
          <EmptyState>No public groups available to join.</EmptyState>
        ) : (
          <SimpleGrid as="ul" columns={{ base: 1, md: 2 }} gap="3" listStyleType="none" aria-label="Public groups">
            {publicGroups.data.map((g) => (
              <PublicGroupCard key={g.group_id} group={g} canJoin={!started} />
            ))}
          </SimpleGrid>
        )}
      </Box>
    </Page>
  );
}

/** A public group; its Join button goes once the draft starts (the server refuses such joins then). */
function PublicGroupCard({ group, canJoin }: { group: GroupDto; canJoin: boolean }) {
  const join = trpc.groups.join.useMutation();
  const afterJoin = useAfterJoin();
  const navigate = useNavigate();

  async function onJoin() {
    // A password-protected public group needs its password: the join form asks for it.
    if (group.has_password) return navigate(`/groups/join?groupId=${group.group_id}`);
    try {
      await join.mutateAsync({ group_id: group.group_id });
      await afterJoin(group.group_id);
      notify('success', MESSAGES.joined);
      navigate(`/groups/${group.group_id}`);
    } catch (err) {
      notify('error', errorMessage(err, 'Failed to join group'));
    }
  }

  return (
    <Flex as="li" bg="white" borderRadius="xl" borderWidth="1px" borderColor="gray.200" boxShadow="sm" p="4" align="center" gap="3" minW="0">
      <GroupCardText
        name={
          <Text fontWeight="bold" color="navy.900" wordBreak="break-word" title={group.name}>
            {group.name}
          </Text>
        }
        badges={group.has_password && <GroupTag>Password</GroupTag>}
        memberCount={group.member_count}
      />
      {canJoin && (
        <Button
          size="sm"
          bg="turf.600"
          color="white"
          fontWeight="bold"
          _hover={{ bg: 'turf.700' }}
          loading={join.isPending}
          onClick={() => void onJoin()}
          aria-label={`Join Group ${group.name}`}
          flexShrink={0}
        >
          Join Group
        </Button>
      )}
    </Flex>
  );
}

function GroupsError({ error, onRetry, retrying }: { error: unknown; onRetry: () => void; retrying: boolean }) {
  const unauthenticated = errorKind(error) === 'UNAUTHORIZED';
  return (
    <Page title="My Groups">
      <Box bg="white" borderRadius="xl" borderWidth="1px" borderColor="red.200" boxShadow="sm" p={{ base: '4', md: '6' }}>
        <Heading as="h2" size="lg" color="red.700" mb="2">
          {unauthenticated ? 'Please sign in to view your groups' : 'Failed to fetch groups'}
        </Heading>
        <Text role="alert" color="gray.700" mb="5" wordBreak="break-word">
          {errorMessage(error, 'Failed to fetch groups')}
        </Text>
        <Flex gap="3" wrap="wrap">
          <PrimaryButton onClick={onRetry} loading={retrying}>
            Retry
          </PrimaryButton>
          <Button asChild size="lg" variant="outline">
            <Link to="/auth-test">Test Authentication</Link>
          </Button>
          <SignOutButton size="lg">Sign Out &amp; Reset</SignOutButton>
        </Flex>
      </Box>
    </Page>
  );
}
