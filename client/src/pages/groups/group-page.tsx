import { useEffect, useState } from 'react';
import { Badge, Box, Button, Flex, HStack, Stack, Text } from '@chakra-ui/react';
import { skipToken } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { parseId } from '@first-round/shared/ids';
import { useAuth } from '../../auth/auth-context';
import { Card, Page } from '../../components/page';
import { FullPageMessage } from '../../components/full-page-message';
import { PrimaryButton } from '../../components/form-bits';
import { BackTo, GroupLoadError } from '../../components/groups/group-frame';
import { GroupInvite } from '../../components/groups/invite';
import { GroupPassword } from '../../components/groups/group-password';
import { MembersList } from '../../components/groups/members-list';
import { NotAMember } from '../../components/groups/not-a-member';
import { membersLabel, useDraftStarted, useRefreshGroups } from '../../components/groups/group-utils';
import { notify } from '../../lib/toaster';
import { errorKind, errorMessage, trpc } from '../../lib/trpc';

/** A group before the user has picks in it: members, the owner's invite, and the choice of picks (SPEC §2, §4). */
export function GroupPage() {
  const auth = useAuth();
  const { groupId: raw } = useParams();
  const id = parseId(raw);
  if (!auth.isSignedIn) return <FullPageMessage spinner={false}>Please sign in to view this group.</FullPageMessage>;
  // SPEC §5: only a positive integer id loads anything.
  if (id === null) return <GroupLoadError message="Group not found" />;
  return <GroupDetails id={id} />;
}

function GroupDetails({ id }: { id: number }) {
  const navigate = useNavigate();
  const refresh = useRefreshGroups();
  const opts = { staleTime: STALE_TIMES.groupPage };
  const group = trpc.groups.get.useQuery({ group_id: id }, opts);
  const membership = trpc.groups.membership.useQuery({ group_id: id }, opts);
  const isMember = membership.data?.is_member ?? false;
  const members = trpc.groups.members.useQuery(isMember ? { group_id: id } : skipToken, opts);
  const groupPicks = trpc.picks.mine.useQuery(isMember ? { group_id: id } : skipToken, opts);
  const globalPicks = trpc.picks.global.useQuery(undefined, opts);
  const draft = useDraftStarted();
  const setUseGlobal = trpc.groups.useGlobalPicks.useMutation();
  const [busy, setBusy] = useState<'reuse' | 'new' | null>(null);

  // A member with picks made here, or the draft under way: the group's picks page is the place to be.
  // (Not for a visitor who is no member: that page is members only, and they see the view below.)
  const hasGroupPicks = (groupPicks.data?.picks.length ?? 0) > 0;
  const leave = isMember && (hasGroupPicks || draft.started);
  useEffect(() => {
    if (leave) navigate(`/groups/${id}/picks`, { replace: true });
  }, [leave, id, navigate]);

  // A private group answers a non-member 403: an ordinary state, not a failure to load.
  if (errorKind(group.error) === 'FORBIDDEN') return <NotAMember id={id} isPublic={false} />;
  const error = group.error ?? membership.error ?? members.error;
  if (error) return <GroupLoadError message={errorMessage(error, 'Failed to load group details')} />;
  if (!group.data || !membership.data || !draft.loaded || (isMember && (members.isPending || groupPicks.isPending)) || leave) {
    return <FullPageMessage>Loading group...</FullPageMessage>;
  }
  const g = group.data;
  if (!isMember) return <NotAMember id={id} name={g.name} isPublic={g.is_public} />;

  const hasGlobalPicks = (globalPicks.data?.picks.length ?? 0) > 0;
  const isOwner = membership.data.is_owner;

  async function fetchGlobalPicks() {
    const { data } = await globalPicks.refetch({ throwOnError: true });
    return data?.picks ?? [];
  }

  async function reusePicks() {
    setBusy('reuse');
    try {
      // The selection screen starts from the global picks; saving stores them as this group's picks.
      const global = await fetchGlobalPicks();
      if (global.length === 0) throw new Error('no global picks');
      navigate(`/select-players?groupId=${id}&reusePicks=true`);
    } catch {
      notify('error', 'Failed to set up reused picks for this group');
      setBusy(null);
    }
  }

  async function makeNewPicks() {
    setBusy('new');
    try {
      await setUseGlobal.mutateAsync({ group_id: id, use_global_picks: false });
      await refresh();
      navigate(`/select-players?groupId=${id}`);
    } catch {
      notify('error', 'Failed to set up new picks for this group');
      setBusy(null);
    }
  }

  return (
    <Page
      title={g.name}
      before={<BackTo to="/groups" label="Back to My Groups" />}
      subtitle={
        <HStack as="span" gap="2" wrap="wrap">
          <span>{membersLabel(g.member_count)}</span>
          <span aria-hidden>·</span>
          <span>Group ID {g.group_id}</span>
          {g.is_public && (
            <Badge size="sm" variant="outline" colorPalette="gray">
              Public
            </Badge>
          )}
        </HStack>
      }
    >
      <Stack gap="6" pb="4">
        {isOwner && (
          <Card>
            <Text fontWeight="bold" color="navy.900" mb="1">
              Invite friends
            </Text>
            <Text fontSize="sm" color="gray.600" mb="3">
              Anyone with the link can join this group, no password needed.
            </Text>
            <GroupInvite groupId={id} groupName={g.name} />
          </Card>
        )}
        {isOwner && (
          <Card>
            <GroupPassword groupId={id} hasPassword={g.has_password} />
          </Card>
        )}
        <Card bg="navy.900" color="white" borderColor="navy.900">
          <Text fontWeight="bold" fontSize="lg">
            Make your picks for this group
          </Text>
          <Text color="navy.100" fontSize="sm" mt="1">
            {hasGlobalPicks
              ? 'Start from the picks on My Picks and adjust them, or make a fresh set just for this group.'
              : 'Pick the players you think go in the 1st Round. Your picks here count only in this group.'}
          </Text>
        </Card>
        <MembersList members={members.data ?? []} me={membership.data.participant_id} />
      </Stack>

      <Box position="sticky" bottom="0" py="3" bg="gray.50">
        <Flex gap="3" direction={{ base: 'column', sm: 'row' }}>
          {hasGlobalPicks && (
            <Button
              size="lg"
              flex={{ sm: '1' }}
              variant="outline"
              borderColor="navy.900"
              color="navy.900"
              fontWeight="bold"
              bg="white"
              loading={busy === 'reuse'}
              disabled={busy !== null}
              onClick={() => void reusePicks()}
            >
              Reuse Picks
            </Button>
          )}
          <PrimaryButton flex={{ sm: '1' }} loading={busy === 'new'} disabled={busy !== null} onClick={() => void makeNewPicks()}>
            Make New Picks
          </PrimaryButton>
        </Flex>
      </Box>
    </Page>
  );
}
