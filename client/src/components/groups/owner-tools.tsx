import { Text } from '@chakra-ui/react';
import type { GroupDto } from '@first-round/shared/schemas';
import { Card } from '../page';
import { GroupInvite } from './invite';
import { GroupPassword } from './group-password';

/** What only the owner sees on the group page: the invite (link, share, QR) and the group's password. */
export function OwnerTools({ group }: { group: Pick<GroupDto, 'id' | 'name' | 'has_password'> }) {
  return (
    <>
      <Card>
        <Text fontWeight="bold" color="navy.900" mb="1">
          Invite friends
        </Text>
        <Text fontSize="sm" color="gray.600" mb="3">
          Anyone with the link can join this group, no password needed.
        </Text>
        <GroupInvite groupId={group.id} groupName={group.name} />
      </Card>
      <Card>
        <GroupPassword groupId={group.id} hasPassword={group.has_password} />
      </Card>
    </>
  );
}
