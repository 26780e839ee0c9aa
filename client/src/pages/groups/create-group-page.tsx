import { useState, type FormEvent } from 'react';
import { Box, chakra, Stack } from '@chakra-ui/react';
import { useNavigate } from 'react-router-dom';
import { GROUP_NAME_MAX, GROUP_PASSWORD_MIN } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { groupPasswordProblem } from '@first-round/shared/join-words';
import { FormAlert, TextField } from '../../components/form-bits';
import { GroupFormPage } from '../../components/groups/group-frame';
import { useDraftStarted, useRefreshGroups } from '../../components/groups/group-utils';
import { errorKind, trpc } from '../../lib/trpc';
import { CheckboxOption } from '../../components/checkbox-option';

const Details = chakra('details');
const Summary = chakra('summary');

export function CreateGroupPage() {
  const navigate = useNavigate();
  const refresh = useRefreshGroups();
  const { started } = useDraftStarted();
  const create = trpc.groups.create.useMutation();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [isPublic, setIsPublic] = useState(false);
  const [picksPublic, setPicksPublic] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    if (!name.trim()) {
      setNameError(MESSAGES.groupNameRequired);
      return;
    }
    setNameError(null);
    // A password is optional; one given follows the server's rule (at least GROUP_PASSWORD_MIN characters),
    // said here, and above the button too, as the field may sit in the closed 'Advanced options'.
    const problem = password ? groupPasswordProblem(password) : undefined;
    if (problem) {
      setPasswordError(problem);
      setFormError(problem);
      return;
    }
    setPasswordError(null);
    try {
      // Both flags default to false; only the advanced options below turn them on.
      const group = await create.mutateAsync({ name: name.trim(), picks_public: picksPublic, is_public: isPublic, ...(password ? { password } : {}) });
      await refresh();
      navigate(`/groups/${group.group_id}`);
    } catch (err) {
      // A name that exists already has its own message; any other failure the generic one.
      setFormError(errorKind(err) === 'CONFLICT' ? MESSAGES.groupExists : 'Failed to create group. Please try again.');
    }
  }

  return (
    <GroupFormPage
      title="Create a Group"
      subtitle="Start a private group and invite your friends to compete on its own leaderboard."
      notice={
        started && (
          <Box mb="4">
            <FormAlert>{MESSAGES.groupsClosed}.</FormAlert>
          </Box>
        )
      }
      onSubmit={submit}
      error={formError}
      submitLabel="Create Group"
      submitting={create.isPending}
      disabled={started}
    >
      <TextField
        label="Group Name"
        name="group-name"
        autoComplete="off"
        value={name}
        maxLength={GROUP_NAME_MAX}
        onChange={(e) => {
          setName(e.target.value);
          setNameError(null);
        }}
        error={nameError}
        placeholder="e.g. Sunday Squad"
        autoFocus
      />
      <Details borderWidth="1px" borderColor="gray.200" borderRadius="lg" px="4" py="3">
        <Summary cursor="pointer" fontWeight="semibold" color="navy.900" _focusVisible={{ outline: '2px solid', outlineColor: 'gold.400', outlineOffset: '2px' }}>
          Advanced options
        </Summary>
        <Stack gap="4" mt="4">
          <CheckboxOption
            id="group-public"
            label="Public group"
            hint="Listed under Public Groups: anyone can join with one click."
            checked={isPublic}
            onChange={setIsPublic}
          />
          <CheckboxOption
            id="group-picks-public"
            label="Members see each other's picks"
            hint="Once the draft starts, members can open each other's picks from the leaderboard."
            checked={picksPublic}
            onChange={setPicksPublic}
          />
          <TextField
            label="Password (optional)"
            name="group-password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setPasswordError(null);
            }}
            error={passwordError}
            helper={`Needed to join by group ID (at least ${GROUP_PASSWORD_MIN} characters). Invite links work without it.`}
          />
        </Stack>
      </Details>
    </GroupFormPage>
  );
}
