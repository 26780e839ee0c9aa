import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { parseId } from '@first-round/shared/ids';
import { MESSAGES } from '@first-round/shared/messages';
import { Text } from '@chakra-ui/react';
import { TextField } from '../../components/form-bits';
import { GroupFormPage } from '../../components/groups/group-frame';
import { useAfterJoin } from '../../components/groups/group-utils';
import { joinFailureText, notifyJoined, useLateJoinNotice } from '../../components/groups/join-words';
import { trpc } from '../../lib/trpc';

export function JoinGroupPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const afterJoin = useAfterJoin();
  const join = trpc.groups.join.useMutation();
  const [groupId, setGroupId] = useState(() => params.get('groupId') ?? '');
  // Arriving from a password-protected public group: the id is filled in, the password is next.
  const [prefilled] = useState(() => params.has('groupId'));
  const [password, setPassword] = useState('');
  const [idError, setIdError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const lateNotice = useLateJoinNotice();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const raw = groupId.trim();
    if (!raw) {
      setIdError(MESSAGES.groupIdRequired);
      return;
    }
    setIdError(null);
    // The id goes to the server as an integer; something that is not one cannot be a group.
    const id = parseId(raw);
    if (id === null) {
      setFormError(MESSAGES.joinFailedById);
      return;
    }
    try {
      const result = await join.mutateAsync({ group_id: id, ...(password ? { password } : {}) });
      await afterJoin(result.group_id);
      notifyJoined(result);
      navigate(`/groups/${result.group_id}`);
    } catch (err) {
      // A wrong password says the tries left, a lock when it lifts; any other failure keeps the generic message.
      setFormError(joinFailureText(err));
    }
  }

  return (
    <GroupFormPage
      title="Join a Group"
      subtitle="Ask the group's owner for its ID (and its password, if it has one)."
      onSubmit={submit}
      error={formError}
      submitLabel="Join Group"
      submitting={join.isPending}
      notice={
        lateNotice && (
          <Text mb="5" fontSize="sm" fontWeight="semibold" color="navy.900" bg="navy.50" borderRadius="md" px="3" py="2">
            {lateNotice}
          </Text>
        )
      }
    >
      <TextField
        label="Group ID"
        name="group-id"
        inputMode="numeric"
        autoComplete="off"
        value={groupId}
        onChange={(e) => {
          setGroupId(e.target.value);
          setIdError(null);
        }}
        error={idError}
        placeholder="e.g. 48213597"
        autoFocus={!prefilled}
      />
      <TextField
        label="Password"
        name="group-password"
        type="password"
        autoComplete="off"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        helper="Leave blank if the group has no password"
        autoFocus={prefilled}
      />
    </GroupFormPage>
  );
}
