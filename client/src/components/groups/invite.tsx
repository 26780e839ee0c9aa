import { useEffect, useRef, useState } from 'react';
import { Box, Button, Flex, Input, Stack, Text } from '@chakra-ui/react';
import { COPY_CONFIRMATION_MS, INVITE_HOURS_FROM_CARD, INVITE_HOURS_FROM_GROUP_PAGE } from '@first-round/shared/constants';
import { notify } from '../../lib/toaster';
import { trpc } from '../../lib/trpc';
import { CheckIcon } from '../icons';
import { copyText, inviteErrorMessage, inviteUrl } from './group-utils';

const COPY_FAILED = 'Failed to copy link to clipboard';

/** A read-only invite URL with a Copy button that says 'Copied!' for two seconds. */
export function InviteLinkBox({ url, hours }: { url: string; hours: number }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await copyText(url);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    } catch {
      notify('error', COPY_FAILED);
    }
  }

  return (
    <Stack gap="2" bg="navy.50" borderRadius="lg" p="3" borderWidth="1px" borderColor="navy.100">
      <Text fontSize="sm" fontWeight="semibold" color="navy.900">
        Share this link with your friends. It is valid for {hours >= 48 ? `${Math.round(hours / 24)} days` : `${hours} hours`}.
      </Text>
      <Flex gap="2" minW="0">
        <Input
          aria-label="Invite link"
          readOnly
          value={url}
          bg="white"
          flex="1"
          minW="0"
          fontFamily="mono"
          fontSize="sm"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button onClick={() => void copy()} bg={copied ? 'turf.600' : 'navy.900'} color="white" _hover={{ bg: copied ? 'turf.700' : 'navy.700' }} minW="24" flexShrink={0}>
          {copied ? (
            <>
              <CheckIcon size={16} /> Copied!
            </>
          ) : (
            'Copy'
          )}
        </Button>
      </Flex>
      <Text srOnly aria-live="polite">
        {copied ? 'Invite link copied' : ''}
      </Text>
    </Stack>
  );
}

/** The group page's owner control: a link valid for 30 days, shown with a Copy button. */
export function GroupInvite({ groupId }: { groupId: number }) {
  const create = trpc.joinLinks.create.useMutation();
  const [url, setUrl] = useState<string | null>(null);

  async function generate() {
    try {
      const link = await create.mutateAsync({ group_id: groupId, expiration_hours: INVITE_HOURS_FROM_GROUP_PAGE });
      setUrl(inviteUrl(link.token));
    } catch (err) {
      notify('error', inviteErrorMessage(err));
    }
  }

  return (
    <Stack gap="3">
      <Button alignSelf="flex-start" variant="outline" borderColor="navy.900" color="navy.900" fontWeight="bold" loading={create.isPending} onClick={() => void generate()}>
        {url ? 'New Invite Link' : 'Invite'}
      </Button>
      {url && <InviteLinkBox url={url} hours={INVITE_HOURS_FROM_GROUP_PAGE} />}
    </Stack>
  );
}

/** The groups list card's owner control: makes a 24-hour link and copies it at once. */
export function CardInvite({ groupId, groupName }: { groupId: number; groupName: string }) {
  const create = trpc.joinLinks.create.useMutation();
  const [fallback, setFallback] = useState<string | null>(null);

  async function invite() {
    let url: string;
    try {
      const link = await create.mutateAsync({ group_id: groupId, expiration_hours: INVITE_HOURS_FROM_CARD });
      url = inviteUrl(link.token);
    } catch (err) {
      notify('error', inviteErrorMessage(err));
      return;
    }
    try {
      await copyText(url);
      setFallback(null);
      notify('success', 'Invite link copied', `Anyone with the link can join ${groupName} for the next ${INVITE_HOURS_FROM_CARD} hours.`);
    } catch {
      // Without the clipboard the link is still useful: show it on the card to copy by hand.
      setFallback(url);
      notify('error', COPY_FAILED);
    }
  }

  return (
    <>
      <Button
        size="sm"
        variant="outline"
        borderColor="navy.900"
        color="navy.900"
        fontWeight="bold"
        position="relative"
        zIndex="1"
        loading={create.isPending}
        onClick={() => void invite()}
        aria-label={`Invite friends to ${groupName}`}
        flexShrink={0}
      >
        Invite
      </Button>
      {fallback && (
        <Box position="relative" zIndex="1" width="100%" order={3}>
          <InviteLinkBox url={fallback} hours={INVITE_HOURS_FROM_CARD} />
        </Box>
      )}
    </>
  );
}
