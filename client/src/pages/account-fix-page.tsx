import { useState, type FormEvent } from 'react';
import { Stack, Text } from '@chakra-ui/react';
import { MESSAGES } from '@first-round/shared/messages';
import { Card, Page } from '../components/page';
import { PrimaryButton } from '../components/buttons';
import { TextField } from '../components/form-bits';
import { notify } from '../lib/toaster';
import { errorMessage, trpc } from '../lib/trpc';

export function AccountFixPage() {
  const [tempId, setTempId] = useState('');
  const [clerkId, setClerkId] = useState('');
  const fix = trpc.auth.migrateParticipantId.useMutation({
    onSuccess(result) {
      notify('success', 'Account fixed', `${result.message} (${result.moved_picks} picks, ${result.moved_memberships} memberships moved)`);
    },
    onError(error) {
      notify('error', MESSAGES.accountFixFailed, errorMessage(error, ''));
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!tempId.trim() || !clerkId.trim()) return notify('error', MESSAGES.accountFixMissing);
    fix.mutate({ temp_id: tempId.trim(), clerk_id: clerkId.trim() });
  }

  return (
    <Page title="Account Fix Tool" subtitle="Moves picks and group memberships from a temporary account id made with your e-mail address to your identity-provider id.">
      <Card>
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            <TextField label="Temporary ID" name="temp_id" placeholder="temp_…" value={tempId} onChange={(e) => setTempId(e.target.value)} helper="Starts with temp_" />
            <TextField label="Clerk ID" name="clerk_id" placeholder="user_…" value={clerkId} onChange={(e) => setClerkId(e.target.value)} helper="Starts with user_" />
            <PrimaryButton type="submit" loading={fix.isPending} alignSelf="flex-start">
              Fix Account
            </PrimaryButton>
            <Text fontSize="sm" color="gray.600">
              Use this only when support asks you to.
            </Text>
          </Stack>
        </form>
      </Card>
    </Page>
  );
}
