import { useState } from 'react';
import { Box, Text } from '@chakra-ui/react';
import type { GroupDto } from '@first-round/shared/schemas';
import { errorMessage, trpc, type RouterOutputs } from '../../lib/trpc';
import { Card } from '../page';
import { GroupInvite } from './invite-panel';
import { GroupPassword } from './group-password';
import { CheckboxOption } from '../checkbox-option';


type Membership = Pick<RouterOutputs['groups']['membership'], 'is_owner' | 'can_invite'>;

/**
 * What a group's page offers beside the picks, before the start: the invite (link, share, QR) to whoever
 * may invite (the owner; a member while the owner lets members invite), and the owner's settings (who may
 * invite, the group's password). Nothing for a member who may not invite.
 */
export function OwnerTools({ group, membership }: { group: Pick<GroupDto, 'id' | 'name' | 'has_password' | 'members_can_invite'>; membership: Membership }) {
  return (
    <>
      {membership.can_invite && (
        <Card>
          <Text fontWeight="bold" color="navy.900" mb="1">
            Invite friends
          </Text>
          <Text fontSize="sm" color="gray.600" mb="3">
            Anyone with the link can join this group, no password needed.
          </Text>
          <GroupInvite groupId={group.id} groupName={group.name} />
          {membership.is_owner && <MembersCanInvite groupId={group.id} on={group.members_can_invite} />}
        </Card>
      )}
      {membership.is_owner && (
        <Card>
          <GroupPassword groupId={group.id} hasPassword={group.has_password} />
        </Card>
      )}
    </>
  );
}

/**
 * The owner's switch for member invites (on by default). Off, only the owner can make links, and links
 * members made stop working until it is on again (the server's rule); the hint says so.
 */
function MembersCanInvite({ groupId, on }: { groupId: number; on: boolean }) {
  const utils = trpc.useUtils();
  const change = trpc.groups.setMembersCanInvite.useMutation();
  const [error, setError] = useState<string | null>(null);

  // The box follows the click at once and holds it while the change is saved: a read of the group landing
  // meanwhile (another member joined: every open page reads the group again) must not flip it back. Then
  // the cached group is the server's answer; a failure puts the box back.
  const [asked, setAsked] = useState<boolean | null>(null);

  async function save(next: boolean) {
    setError(null);
    setAsked(next);
    try {
      await utils.groups.get.cancel({ group_id: groupId });
      utils.groups.get.setData({ group_id: groupId }, await change.mutateAsync({ group_id: groupId, members_can_invite: next }));
      void utils.groups.mine.invalidate();
    } catch (err) {
      setError(errorMessage(err, 'Failed to change who can invite'));
    } finally {
      setAsked(null);
    }
  }

  return (
    <Box mt="4" pt="4" borderTopWidth="1px" borderColor="gray.100">
      <CheckboxOption
        id="members-can-invite"
        label="Members can invite friends"
        hint={on ? 'Every member can make invite links.' : 'Only you can invite. Links members made stop working until you turn this back on.'}
        checked={asked ?? on}
        disabled={change.isPending}
        onChange={(next) => void save(next)}
      >
        {error && (
          <Text role="alert" color="red.700" fontSize="sm">
            {error}
          </Text>
        )}
      </CheckboxOption>
    </Box>
  );
}
