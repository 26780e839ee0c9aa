import { useState } from 'react';
import { Button, Field, Flex, NativeSelect, Stack } from '@chakra-ui/react';
import { INVITE_SHORTER_HOURS } from '@first-round/shared/constants';
import { notify } from '../../lib/toaster';
import { useDraftStatus } from '../../lib/queries';
import { errorKind, trpc } from '../../lib/trpc';
import { inviteErrorMessage, inviteUrl } from './group-utils';
import { hoursWords, InviteLinkBox, type MadeLink } from './invite-link-box';

/** The lifetimes the panel offers: until picks lock (the default), and the shorter ones that end before it. */
function lifetimeChoices(deadline: string | undefined, now: number) {
  // Short enough for a phone's select (the time itself is said under the link once made).
  const lock = { value: 'lock', label: 'Until picks lock' };
  const shorter = INVITE_SHORTER_HOURS.filter((h) => !deadline || now + h * 3_600_000 < Date.parse(deadline));
  return [lock, ...shorter.map((h) => ({ value: String(h), label: hoursWords(h) }))];
}

/**
 * The group page's invite control, for whoever may invite (an owner; a member while the owner lets
 * members invite): a choice of how long the link lasts (until picks lock unless a shorter time is
 * chosen), then the link with Copy, Share and a QR code. A refusal because the owner turned member
 * invites off drops the group's cached answers, so the page stops offering the control.
 */
export function GroupInvite({ groupId, groupName }: { groupId: number; groupName?: string }) {
  const utils = trpc.useUtils();
  const create = trpc.joinLinks.create.useMutation();
  const deadline = useDraftStatus().data?.deadline;
  const [lifetime, setLifetime] = useState('lock');
  const [made, setMade] = useState<{ url: string; link: MadeLink } | null>(null);
  const choices = lifetimeChoices(deadline, Date.now());

  async function generate() {
    try {
      const link = await create.mutateAsync({ group_id: groupId, ...(lifetime === 'lock' ? {} : { expiration_hours: Number(lifetime) }) });
      setMade({ url: inviteUrl(link.token), link });
    } catch (err) {
      notify('error', inviteErrorMessage(err));
      if (errorKind(err) === 'FORBIDDEN') {
        setMade(null);
        await Promise.all([utils.groups.membership.invalidate({ group_id: groupId }), utils.groups.get.invalidate({ group_id: groupId })]);
      }
    }
  }

  return (
    <Stack gap="3">
      <Flex gap="3" align="flex-end" wrap="wrap">
        <Field.Root width="auto">
          <Field.Label fontSize="sm" fontWeight="semibold">
            Link lasts
          </Field.Label>
          <NativeSelect.Root size="sm" width="auto">
            <NativeSelect.Field value={lifetime} onChange={(e) => setLifetime(e.target.value)} bg="white">
              {choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Button variant="outline" borderColor="navy.900" color="navy.900" fontWeight="bold" loading={create.isPending} onClick={() => void generate()}>
          {made ? 'New Invite Link' : 'Invite'}
        </Button>
      </Flex>
      {made && <InviteLinkBox url={made.url} link={made.link} groupName={groupName} />}
    </Stack>
  );
}
