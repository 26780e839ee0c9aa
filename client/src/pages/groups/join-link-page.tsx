import { useEffect, useRef, useState } from 'react';
import { Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { STORAGE_KEYS } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { useAuth } from '../../auth/auth-context';
import { Card, Page } from '../../components/page';
import { PrimaryButton } from '../../components/buttons';
import { useAfterJoin } from '../../components/groups/group-utils';
import { notifyJoined } from '../../components/groups/join-words';
import { notify } from '../../lib/toaster';
import { errorMessage, trpc } from '../../lib/trpc';

/** Invite link landing (docs/web-app-groups.md): resolve, then sign up first or join, then open the group. */
export function JoinLinkPage() {
  const { token = '' } = useParams();
  const auth = useAuth();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const afterJoin = useAfterJoin();
  const join = trpc.joinLinks.join.useMutation();
  const [error, setError] = useState<string | null>(null);
  const [groupName, setGroupName] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!auth.isLoaded || started.current) return;
    started.current = true;
    void (async () => {
      let groupId: number;
      try {
        const link = await utils.joinLinks.resolve.fetch({ token });
        groupId = link.group_id;
        setGroupName(link.group_name);
      } catch (err) {
        setError(errorMessage(err, MESSAGES.joinLinkInvalid));
        return;
      }
      if (!auth.isSignedIn) {
        // The callback page joins with the token once the new account exists, then opens the group.
        localStorage.setItem(STORAGE_KEYS.redirectAfterAuth, `/groups/${groupId}`);
        localStorage.setItem(STORAGE_KEYS.pendingJoinToken, token);
        navigate('/sign-up', { replace: true });
        return;
      }
      try {
        const membership = await utils.groups.membership.fetch({ group_id: groupId }).catch(() => null);
        if (!membership?.is_member) {
          const joined = await join.mutateAsync({ token });
          await afterJoin(groupId);
          // After the start: what the newcomer will and won't see.
          notifyJoined(joined);
        }
        navigate(`/groups/${groupId}`, { replace: true });
      } catch (err) {
        const message = errorMessage(err, 'Failed to join group');
        notify('error', message);
        setError(message);
      }
    })();
  }, [auth.isLoaded, auth.isSignedIn, token, utils, join, navigate, afterJoin]);

  if (error) {
    return (
      <Page title="Error" maxW="xl">
        <Card borderColor="red.200">
          <Stack gap="4">
            <Text role="alert" fontWeight="semibold" color="red.700">
              {error}
            </Text>
            <Text color="gray.600" fontSize="sm">
              Ask the group's owner for a new invite link, or join with the group's ID.
            </Text>
            <PrimaryButton asChild alignSelf="flex-start">
              <Link to="/groups">Back to Groups</Link>
            </PrimaryButton>
          </Stack>
        </Card>
      </Page>
    );
  }
  return (
    <Stack align="center" gap="4" py="16" px="4" textAlign="center">
      <Spinner size="xl" color="navy.600" />
      <Heading as="h1" size="xl" color="navy.900">
        Processing your invitation...
      </Heading>
      <Text role="status" color="gray.600">
        {groupName ? `Joining ${groupName}` : 'Checking your invite link'}
      </Text>
    </Stack>
  );
}
