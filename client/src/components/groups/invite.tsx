import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Box, Button, Flex, Input, Stack, Text } from '@chakra-ui/react';
import { COPY_CONFIRMATION_MS, INVITE_HOURS_FROM_CARD, INVITE_HOURS_FROM_GROUP_PAGE } from '@first-round/shared/constants';
import { notify } from '../../lib/toaster';
import { trpc } from '../../lib/trpc';
import { CheckIcon } from '../icons';
import { copyText, inviteErrorMessage, inviteUrl } from './group-utils';

const COPY_FAILED = 'Failed to copy link to clipboard';

// The encoder is downloaded only when someone opens the QR code.
const QrCode = lazy(() => import('./qr-code'));

/** The system share sheet (phones, some desktops); absent where the browser has none. */
const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/**
 * A read-only invite URL with a Copy button that says 'Copied!' for two seconds, the system share sheet
 * where there is one, and a QR code to scan from another phone. `groupName` titles what is shared.
 */
export function InviteLinkBox({ url, hours, groupName }: { url: string; hours: number; groupName?: string }) {
  const [copied, setCopied] = useState(false);
  const [qr, setQr] = useState(false);
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

  async function share() {
    try {
      await navigator.share({
        title: groupName ? `Join ${groupName} on First Round` : 'Join my group on First Round',
        text: 'Pick the players you think go in round one. One miss and you’re out.',
        url,
      });
    } catch {
      // Closing the sheet is no failure.
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
      <Flex gap="2" wrap="wrap">
        {canShare() && (
          <Button size="sm" bg="turf.700" color="white" _hover={{ bg: 'turf.600' }} fontWeight="bold" onClick={() => void share()}>
            Share…
          </Button>
        )}
        <Button size="sm" variant="outline" borderColor="navy.900" color="navy.900" bg="white" aria-expanded={qr} onClick={() => setQr((open) => !open)}>
          {qr ? 'Hide QR code' : 'QR code'}
        </Button>
      </Flex>
      {qr && (
        <Box alignSelf="flex-start" bg="white" p="2" borderRadius="md" borderWidth="1px" borderColor="navy.100">
          <Suspense fallback={<Box w="48" h="48" />}>
            <QrCode text={url} label={groupName ? `QR code of the invite link to ${groupName}` : 'QR code of the invite link'} />
          </Suspense>
        </Box>
      )}
      <Text srOnly aria-live="polite">
        {copied ? 'Invite link copied' : ''}
      </Text>
    </Stack>
  );
}

/** The group page's owner control: a link valid for 30 days, shown with Copy, Share and a QR code. */
export function GroupInvite({ groupId, groupName }: { groupId: number; groupName?: string }) {
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
      {url && <InviteLinkBox url={url} hours={INVITE_HOURS_FROM_GROUP_PAGE} groupName={groupName} />}
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
          <InviteLinkBox url={fallback} hours={INVITE_HOURS_FROM_CARD} groupName={groupName} />
        </Box>
      )}
    </>
  );
}
