import { useEffect } from 'react';
import { Badge, HStack, Stack } from '@chakra-ui/react';
import { skipToken } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { parseId } from '@first-round/shared/ids';
import { useAuth } from '../../auth/auth-context';
import { Page } from '../../components/page';
import { FullPageMessage } from '../../components/full-page-message';
import { BackTo, GroupLoadError } from '../../components/groups/group-frame';
import { OwnerTools } from '../../components/groups/owner-tools';
import { GroupEntryActions, GroupEntryCard, type GroupEntry } from '../../components/groups/group-entry';
import { MembersList } from '../../components/groups/members-list';
import { GroupHistory } from '../../components/groups/group-history';
import { TvViewLink } from '../../components/groups/tv-view-link';
import { NotAMember } from '../../components/groups/not-a-member';
import { isHiddenGroup, membersLabel, useDraftStarted } from '../../components/groups/group-utils';
import { errorMessage, trpc } from '../../lib/trpc';

/**
 * A group whose entry has no picks yet, before the start: members, the owner's invite, the entry (linked
 * to My Picks or its own) and the ways to make it.
 */
export function GroupPage() {
  const auth = useAuth();
  const { groupId: raw } = useParams();
  const id = parseId(raw);
  if (!auth.isSignedIn) return <FullPageMessage spinner={false}>Please sign in to view this group.</FullPageMessage>;
  // Only a positive integer id loads anything.
  if (id === null) return <GroupLoadError message="Group not found" />;
  return <GroupDetails id={id} />;
}

/**
 * Loads the group and what the caller is to it, and decides what to show: not a member (a private group's
 * 403 included), loading, or the page itself; a member with picks here, or once the draft is under way,
 * belongs on the group's picks page instead.
 */
function GroupDetails({ id }: { id: number }) {
  const navigate = useNavigate();
  const opts = { staleTime: STALE_TIMES.groupPage };
  const group = trpc.groups.get.useQuery({ group_id: id }, opts);
  const membership = trpc.groups.membership.useQuery({ group_id: id }, opts);
  const isMember = membership.data?.is_member ?? false;
  const members = trpc.groups.members.useQuery(isMember ? { group_id: id } : skipToken, opts);
  const groupPicks = trpc.picks.mine.useQuery(isMember ? { group_id: id } : skipToken, opts);
  const globalPicks = trpc.picks.global.useQuery(undefined, opts);
  const draft = useDraftStarted();

  // (Not for a visitor who is no member: the picks page is members only, and they see NotAMember below.)
  const hasGroupPicks = (groupPicks.data?.picks.length ?? 0) > 0;
  const leave = isMember && (hasGroupPicks || draft.started);
  useEffect(() => {
    if (leave) navigate(`/groups/${id}/picks`, { replace: true });
  }, [leave, id, navigate]);

  // A private group one is not in answers as no group does (404): an ordinary state, not a failure to load.
  if (isHiddenGroup(group.error)) return <NotAMember id={id} isPublic={false} />;
  const error = group.error ?? membership.error ?? members.error;
  if (error) return <GroupLoadError message={errorMessage(error, 'Failed to load group details')} />;
  if (!group.data || !membership.data || !draft.loaded || (isMember && (members.isPending || groupPicks.isPending || globalPicks.isPending)) || leave) {
    return <FullPageMessage>Loading group...</FullPageMessage>;
  }
  const g = group.data;
  if (!isMember) return <NotAMember id={id} name={g.name} isPublic={g.is_public} />;
  const entry: GroupEntry = {
    groupId: id,
    groupName: g.name,
    mode: membership.data.entry_mode ?? 'linked',
    picks: groupPicks.data?.picks ?? [],
    myPicks: globalPicks.data?.picks.length ?? 0,
  };

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
        {membership.data.can_invite && <OwnerTools group={g} membership={membership.data} />}
        <GroupEntryCard entry={entry} />
        <MembersList members={members.data ?? []} me={membership.data.participant_id} myPicks={entry.picks.length} />
        <TvViewLink groupId={id} />
        <GroupHistory groupId={id} />
      </Stack>
      <GroupEntryActions entry={entry} />
    </Page>
  );
}
