import { lazy, Suspense, useState } from 'react';
import { Box, Button } from '@chakra-ui/react';
import { formatWhen } from '@first-round/shared/deadline';
import { notify } from '../../lib/toaster';
import { trpc } from '../../lib/trpc';
import { COPY_FAILED, copyText, inviteErrorMessage, inviteUrl } from './group-utils';
import type { MadeLink } from './invite-link-box';

// The link box (an input, Copy, Share, the QR code) is loaded only when a card must show its link (the
// clipboard refused it), and the group page's panel is in invite-panel.tsx: the groups list, a first
// screen, loads only the card's control.
const InviteLinkBox = lazy(async () => ({ default: (await import('./invite-link-box')).InviteLinkBox }));

/** The groups list card's control: makes a link that lasts until picks lock and copies it at once. */
export function CardInvite({ groupId, groupName }: { groupId: number; groupName: string }) {
  const create = trpc.joinLinks.create.useMutation();
  const [fallback, setFallback] = useState<{ url: string; link: MadeLink } | null>(null);

  async function invite() {
    let made: { url: string; link: MadeLink };
    try {
      const link = await create.mutateAsync({ group_id: groupId });
      made = { url: inviteUrl(link.token), link };
    } catch (err) {
      notify('error', inviteErrorMessage(err));
      return;
    }
    try {
      await copyText(made.url);
      setFallback(null);
      notify('success', 'Invite link copied', `Anyone with the link can join ${groupName} until picks lock (${formatWhen(made.link.expires_at)}).`);
    } catch {
      // Without the clipboard the link is still useful: show it on the card to copy by hand.
      setFallback(made);
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
          <Suspense fallback={null}>
            <InviteLinkBox url={fallback.url} link={fallback.link} groupName={groupName} />
          </Suspense>
        </Box>
      )}
    </>
  );
}
