import { useEffect, useRef, useState } from 'react';
import { Box, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { useNavigate } from 'react-router-dom';
import {
  CALLBACK_AUTH_POLL_ATTEMPTS,
  CALLBACK_AUTH_POLL_MS,
  CALLBACK_ERROR_REDIRECT_MS,
  CALLBACK_JOIN_DELAY_MS,
  STORAGE_KEYS,
} from '@first-round/shared/constants';
import { useAuth } from '../auth/auth-context';
import { useAfterJoin } from '../components/groups/group-utils';
import { notifyJoined } from '../components/groups/join-words';
import { errorMessage, trpc } from '../lib/trpc';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** After sign-in or sign-up: wait for auth, sync the account, finish a pending invite, go on (docs/web-app.md, "The auth layer"). */
export function AuthCallbackPage() {
  const auth = useAuth();
  const latest = useRef(auth);
  latest.current = auth;
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const joinWithLink = trpc.joinLinks.join.useMutation();
  const afterJoin = useAfterJoin();
  const [status, setStatus] = useState('Checking your sign-in...');
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      // 1. Wait for authentication, every 500 ms, up to 10 times.
      for (let i = 0; i < CALLBACK_AUTH_POLL_ATTEMPTS && !(latest.current.isLoaded && latest.current.isSignedIn); i++) await sleep(CALLBACK_AUTH_POLL_MS);
      if (!latest.current.isSignedIn) {
        navigate('/sign-in', { replace: true });
        return;
      }
      // 2. Sync the account; a failure does not stop the flow.
      setStatus('Syncing your account...');
      try {
        await utils.auth.me.fetch();
      } catch {
        // the first authenticated call creates the participant anyway
      }
      const token = localStorage.getItem(STORAGE_KEYS.pendingJoinToken);
      const redirect = localStorage.getItem(STORAGE_KEYS.redirectAfterAuth);
      const clear = () => {
        localStorage.removeItem(STORAGE_KEYS.pendingJoinToken);
        localStorage.removeItem(STORAGE_KEYS.redirectAfterAuth);
      };
      if (!token) {
        clear();
        navigate(redirect || '/groups', { replace: true });
        return;
      }
      // 3–5. A pending invite: join unless already a member, then go to the group.
      setStatus('Joining your group...');
      await sleep(CALLBACK_JOIN_DELAY_MS);
      const groupId = redirect?.match(/\/groups\/(\d+)/)?.[1];
      try {
        let member = false;
        if (groupId) {
          try {
            member = (await utils.groups.membership.fetch({ group_id: Number(groupId) })).is_member;
          } catch {
            member = false;
          }
        }
        if (!member) {
          const joined = await joinWithLink.mutateAsync({ token });
          // The membership answer fetched above says "not a member": the group page must not show it.
          await afterJoin(joined.group_id);
          // After the start it says what the newcomer will and won't see.
          notifyJoined(joined);
        }
        clear();
        navigate(redirect || '/groups', { replace: true });
      } catch (err) {
        // 6. Show the error, forget the invite, and land on the groups list.
        setStatus(`Error joining group: ${errorMessage(err, 'Failed to join group')}`);
        clear();
        await sleep(CALLBACK_ERROR_REDIRECT_MS);
        navigate('/groups', { replace: true });
      }
    })();
  }, [navigate, utils, joinWithLink, afterJoin]);

  return (
    <Box px="4" py="16">
      <Stack align="center" gap="4" textAlign="center">
        <Spinner size="xl" color="navy.600" />
        <Heading as="h1" size="2xl" color="navy.900">
          Redirecting...
        </Heading>
        <Text role="status" color="gray.600">
          {status}
        </Text>
      </Stack>
    </Box>
  );
}
