import { Button, Flex, Text } from '@chakra-ui/react';
import { useNavigate } from 'react-router-dom';
import { MESSAGES } from '@first-round/shared/messages';
import { notify } from '../../lib/toaster';
import { errorMessage, trpc } from '../../lib/trpc';
import { Card, Page } from '../page';
import { PrimaryButton } from '../buttons';
import { BackTo } from './group-frame';
import { useAfterJoin, useDraftStarted } from './group-utils';
import { notifyJoined } from './join-words';

/**
 * A signed-in visitor who is not in the group: an ordinary state, never a load error. A public group can
 * be joined from here until the draft starts (the server refuses after it). Of a private group one is not
 * in the server says only 'Group not found', as for an id that names none (`name` unknown): the page says
 * it may be either, and how to get into a private one (an invite link, which any member may make unless
 * the owner turned that off, or its ID and password).
 */
export function NotAMember({ id, name, isPublic }: { id: number; name?: string; isPublic: boolean }) {
  const navigate = useNavigate();
  const afterJoin = useAfterJoin();
  const draft = useDraftStarted();
  const join = trpc.groups.join.useMutation();
  async function onJoin() {
    try {
      const joined = await join.mutateAsync({ group_id: id });
      await afterJoin(id);
      notifyJoined(joined);
    } catch (err) {
      notify('error', errorMessage(err, 'Failed to join group'));
    }
  }
  const canJoin = isPublic && draft.loaded && !draft.started;
  return (
    <Page title={name ?? MESSAGES.groupNotFound} before={<BackTo to="/groups" label="Back to My Groups" />} maxW="xl">
      <Card>
        <Text mb="2" fontWeight="semibold" color="navy.900">
          {name === undefined ? 'There is no group with this ID, or it is private and you are not a member of this group.' : `${MESSAGES.notGroupMember}.`}
        </Text>
        <Text mb="4" color="gray.600" fontSize="sm">
          {!isPublic
            ? 'Ask a member for an invite link, or join with its group ID and password.'
            : draft.started
              ? `${MESSAGES.publicGroupsClosed}.`
              : 'It is a public group: join it and make your picks for it.'}
        </Text>
        <Flex gap="3" wrap="wrap">
          {canJoin && (
            <PrimaryButton loading={join.isPending} onClick={() => void onJoin()}>
              Join Group
            </PrimaryButton>
          )}
          <Button size="lg" variant="outline" onClick={() => navigate('/groups')}>
            Back to My Groups
          </Button>
        </Flex>
      </Card>
    </Page>
  );
}
