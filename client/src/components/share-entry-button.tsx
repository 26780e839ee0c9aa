import { Button, type ButtonProps } from '@chakra-ui/react';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { notify } from '../lib/toaster';
import { errorMessage, trpc } from '../lib/trpc';
import { copyText } from './groups/group-utils';

/** The system share sheet (phones, some desktops); absent where the browser has none. */
const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/**
 * 'Share my entry': makes (or finds) the link to the caller's card for this group (global without one)
 * and hands it to the system share sheet, or copies it where there is none. The link shows the card
 * picture in chats; before the start it says only how many picks are in.
 */
export function ShareEntryButton({
  groupId = GLOBAL_GROUP_ID,
  compact = false,
  ...props
}: {
  groupId?: number;
  /** 'Share' on screen where space is short (the pinned entry on a phone); still named 'Share my entry'. */
  compact?: boolean;
} & Omit<ButtonProps, 'onClick'>) {
  const create = trpc.share.createLink.useMutation();

  async function share() {
    let url: string;
    try {
      const link = await create.mutateAsync({ group_id: groupId });
      url = new URL(link.url, window.location.origin).toString();
    } catch (err) {
      notify('error', errorMessage(err, 'Failed to create the share link'));
      return;
    }
    if (canShare()) {
      try {
        await navigator.share({ title: 'My First Round entry', text: 'How my First Round picks are doing', url });
      } catch {
        // Closing the sheet is no failure.
      }
      return;
    }
    try {
      await copyText(url);
      notify('success', 'Share link copied', 'Paste it in a chat: it shows your card.');
    } catch {
      notify('error', 'Failed to copy link to clipboard', url);
    }
  }

  return (
    <Button size="sm" fontWeight="bold" loading={create.isPending} onClick={() => void share()} aria-label={compact ? 'Share my entry' : undefined} {...props}>
      {compact ? 'Share' : 'Share my entry'}
    </Button>
  );
}
