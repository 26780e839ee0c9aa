import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Box, Button, Flex, Input, Stack, Text } from '@chakra-ui/react';
import { COPY_CONFIRMATION_MS } from '@first-round/shared/constants';
import { formatWhen } from '@first-round/shared/deadline';
import { plural } from '@first-round/shared/words';
import { notify } from '../../lib/toaster';
import type { RouterOutputs } from '../../lib/trpc';
import { CheckIcon } from '../icons';
import { COPY_FAILED, copyText } from './group-utils';

// The encoder is downloaded only when someone opens the QR code.
const QrCode = lazy(() => import('./qr-code'));

/** The system share sheet (phones, some desktops); absent where the browser has none. */
const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/** A link as joinLinks.create answers it: how long it lasts, and how many of the group's links work. */
export type MadeLink = RouterOutputs['joinLinks']['create'];

/** '24 hours', '7 days'. */
export const hoursWords = (hours: number) => (hours >= 48 && hours % 24 === 0 ? plural(hours / 24, 'day') : plural(hours, 'hour'));

/** How long a link works, in one sentence: until picks lock, or for its hours (the reader's clock, named). */
const lifetimeText = (link: MadeLink) =>
  link.until_picks_lock
    ? `It works until picks lock, ${formatWhen(link.expires_at)}.`
    : `It works for ${hoursWords(link.expiration_hours)}, until ${formatWhen(link.expires_at)}.`;

/** Whether earlier links still work: making a new one never turns them off. */
const earlierLinksText = (activeLinks: number) =>
  activeLinks > 1 ? `Earlier links still work until they expire: ${activeLinks} links to this group work now.` : 'It is the only invite link to this group that works now.';

/**
 * A read-only invite URL with a Copy button that says 'Copied!' for two seconds, the system share sheet
 * where there is one, and a QR code to scan from another phone; above it how long the link works and
 * whether earlier ones still do. `groupName` titles what is shared.
 */
export function InviteLinkBox({ url, link, groupName }: { url: string; link: MadeLink; groupName?: string }) {
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
        Share this link with your friends. {lifetimeText(link)}
      </Text>
      <Text fontSize="sm" color="gray.700">
        {earlierLinksText(link.active_links)}
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
