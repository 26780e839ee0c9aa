import { useEffect, useState, type FormEvent } from 'react';
import { Heading, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { MESSAGES } from '@first-round/shared/messages';
import { useAuth } from '../auth/auth-context';
import { Card, Page } from '../components/page';
import { PrimaryButton } from '../components/buttons';
import { TextField } from '../components/form-bits';
import { SignOutButton } from '../components/sign-out-button';
import { notify } from '../lib/toaster';
import { errorMessage, trpc } from '../lib/trpc';
import { useProfile } from '../lib/queries';
import { CheckboxOption } from '../components/checkbox-option';
import { PushSetting } from '../components/push-setting';
import { PushKindsSetting } from '../components/push-kinds-setting';
import { ViewingDelaySetting } from '../components/viewing-delay-setting';


/** "E-mail me before picks lock": reminders 24 h and 1 h before the deadline while some entry is not in. */
function RemindersSetting() {
  const utils = trpc.useUtils();
  const setting = trpc.users.reminders.useQuery();
  const save = trpc.users.setReminders.useMutation({
    onSuccess(answer) {
      utils.users.reminders.setData(undefined, answer);
      notify('success', answer.reminders ? MESSAGES.remindersOn : MESSAGES.remindersOff);
    },
    onError(error) {
      notify('error', errorMessage(error, MESSAGES.remindersSaveFailed));
    },
  });
  const checked = save.isPending ? (save.variables?.reminders ?? false) : (setting.data?.reminders ?? false);
  return (
    <Card as="section" aria-labelledby="reminders-heading">
      <Heading as="h2" id="reminders-heading" size="lg" mb="4" color="navy.900">
        Reminders
      </Heading>
      <CheckboxOption
        id="email-reminders"
        label="E-mail me before picks lock"
        hint="24 hours and 1 hour before the deadline, when some of your picks are not in yet."
        checked={checked}
        disabled={!setting.data || save.isPending}
        onChange={(reminders) => save.mutate({ reminders })}
      />
      <PushSetting />
      <PushKindsSetting />
    </Card>
  );
}

export function SettingsPage() {
  const auth = useAuth();
  const utils = trpc.useUtils();
  const me = useProfile();
  const [username, setUsername] = useState('');
  useEffect(() => {
    if (me.data?.screen_name) setUsername(me.data.screen_name);
  }, [me.data?.screen_name]);

  const update = trpc.auth.updateScreenName.useMutation({
    onSuccess(profile) {
      utils.auth.me.setData(undefined, profile);
      notify('success', MESSAGES.usernameUpdated);
    },
    onError(error) {
      notify('error', errorMessage(error, MESSAGES.usernameUpdateFailed));
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    update.mutate({ screen_name: username });
  }

  return (
    <Page title="Settings" subtitle="Your profile and account">
      <Stack gap="5">
        <Card as="section" aria-labelledby="profile-heading">
          <Heading as="h2" id="profile-heading" size="lg" mb="4" color="navy.900">
            Profile
          </Heading>
          <form onSubmit={submit}>
            <Stack gap="4">
              <TextField label="Username" name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} helper="Shown on leaderboards." />
              <PrimaryButton type="submit" loading={update.isPending} alignSelf="flex-start">
                Update Username
              </PrimaryButton>
            </Stack>
          </form>
        </Card>
        <RemindersSetting />
        <ViewingDelaySetting />
        {me.data?.is_admin && (
          <Card as="section" aria-labelledby="operator-heading">
            <Heading as="h2" id="operator-heading" size="lg" mb="2" color="navy.900">
              Draft operator
            </Heading>
            <Text color="gray.600" mb="4">
              You run draft night: start the draft, record each round-one pick, undo, and follow the audit log.
            </Text>
            <PrimaryButton asChild alignSelf="flex-start">
              <Link to="/admin">Open the draft console</Link>
            </PrimaryButton>
          </Card>
        )}
        <Card as="section" aria-labelledby="account-heading">
          <Heading as="h2" id="account-heading" size="lg" mb="4" color="navy.900">
            Account
          </Heading>
          <Text fontSize="sm" color="gray.600">
            E-mail
          </Text>
          <Text fontWeight="semibold" mb="5" wordBreak="break-all">
            {me.data?.email ?? auth.email ?? '—'}
          </Text>
          <SignOutButton>Log Out</SignOutButton>
        </Card>
      </Stack>
    </Page>
  );
}
