import { useState, type FormEvent } from 'react';
import { Badge, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { MESSAGES } from '@first-round/shared/messages';
import { groupPasswordProblem } from '@first-round/shared/join-words';
import { notify } from '../../lib/toaster';
import { errorMessage, trpc } from '../../lib/trpc';
import { TextField } from '../form-bits';

/**
 * The owner's password control. The password is stored hashed, so it is never shown: only whether one
 * is set. The owner sets a new one or removes it; joining by group ID then asks for the new one (or
 * none); invite links never ask.
 */
export function GroupPassword({ groupId, hasPassword }: { groupId: number; hasPassword: boolean }) {
  const utils = trpc.useUtils();
  const change = trpc.groups.setPassword.useMutation();
  const [editing, setEditing] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function save(next: string | null) {
    setError(null);
    try {
      const group = await change.mutateAsync({ group_id: groupId, password: next });
      utils.groups.get.setData({ group_id: groupId }, group);
      void utils.groups.mine.invalidate();
      setEditing(false);
      setPassword('');
      notify('success', next === null ? MESSAGES.groupPasswordRemoved : MESSAGES.groupPasswordSet);
    } catch (err) {
      setError(errorMessage(err, 'Failed to change the group password'));
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    // The server's rule, said before asking it: not blank, at least GROUP_PASSWORD_MIN characters.
    const problem = groupPasswordProblem(password);
    if (problem) return setError(problem);
    void save(password);
  }

  return (
    <Stack gap="3">
      <Flex align="center" gap="2" wrap="wrap">
        <Text fontWeight="bold" color="navy.900">
          Group password
        </Text>
        <Badge size="sm" bg={hasPassword ? 'navy.900' : 'gray.100'} color={hasPassword ? 'white' : 'gray.800'} data-testid="password-state">
          {hasPassword ? 'Password set' : 'No password'}
        </Badge>
      </Flex>
      <Text fontSize="sm" color="gray.600">
        {hasPassword ? 'Joining by group ID asks for it.' : 'Anyone with the group ID can join.'} Invite links never ask for it.
      </Text>
      {editing ? (
        <form onSubmit={submit} noValidate>
          <Stack gap="3">
            <TextField label="New password" type="password" name="new-group-password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} error={error} autoFocus />
            <Flex gap="2" wrap="wrap">
              <Button type="submit" bg="navy.900" color="white" _hover={{ bg: 'navy.700' }} loading={change.isPending}>
                Save Password
              </Button>
              <Button variant="ghost" onClick={() => (setEditing(false), setError(null), setPassword(''))}>
                Cancel
              </Button>
            </Flex>
          </Stack>
        </form>
      ) : (
        <Flex gap="2" wrap="wrap">
          <Button variant="outline" borderColor="navy.900" color="navy.900" fontWeight="bold" onClick={() => setEditing(true)}>
            {hasPassword ? 'Change Password' : 'Set a Password'}
          </Button>
          {hasPassword && (
            <Button variant="ghost" color="red.700" loading={change.isPending} onClick={() => void save(null)}>
              Remove Password
            </Button>
          )}
        </Flex>
      )}
      {!editing && error && (
        <Text role="alert" color="red.700" fontSize="sm">
          {error}
        </Text>
      )}
    </Stack>
  );
}
