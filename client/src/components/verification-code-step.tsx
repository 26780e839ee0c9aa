import type { FormEvent, ReactNode } from 'react';
import { Button, Flex, Stack, Text } from '@chakra-ui/react';
import type { CodeFlow } from '../auth/use-code-flow';
import { PrimaryButton } from './buttons';
import { FormAlert, TextField } from './form-bits';

/** A sign-in or sign-up form: its fields, the provider's error (and `alertExtra` under it), the submit button, then `after`. */
export function AuthForm({
  flow,
  onSubmit,
  submitLabel,
  children,
  after,
  alertExtra,
}: {
  flow: CodeFlow;
  onSubmit: (e: FormEvent) => void;
  submitLabel: string;
  children: ReactNode;
  after?: ReactNode;
  alertExtra?: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="4">
        {children}
        {flow.error && <FormAlert>{flow.error}</FormAlert>}
        {alertExtra}
        <PrimaryButton type="submit" loading={flow.busy}>
          {submitLabel}
        </PrimaryButton>
        {after}
      </Stack>
    </form>
  );
}

/** '0:42' */
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * The step after the e-mail is sent: enter the one-time code, ask for another once the wait is over
 * ('Resend code in 0:42' until then), or go back and use another address. `note`: what the page adds
 * under 'We sent a verification code to …'.
 */
export function VerificationCodeStep({
  codeError,
  onDifferentEmail,
  onResend,
  note,
  ...form
}: { codeError?: string | null; onDifferentEmail: () => void; onResend: () => void; note?: ReactNode } & Omit<React.ComponentProps<typeof AuthForm>, 'children' | 'after'>) {
  const { flow } = form;
  const wait = flow.resendWait;
  return (
    <AuthForm
      {...form}
      after={
        <Flex gap="2" wrap="wrap" justify="space-between">
          <Button variant="ghost" onClick={onDifferentEmail}>
            Use a different email
          </Button>
          <Button variant="ghost" color="navy.700" disabled={wait > 0 || flow.busy} onClick={onResend} aria-describedby={wait > 0 ? 'resend-wait' : undefined}>
            {wait > 0 ? `Resend code in ${clock(wait)}` : 'Resend code'}
          </Button>
          {wait > 0 && (
            <Text id="resend-wait" srOnly>
              You can ask for a new code once the wait is over.
            </Text>
          )}
        </Flex>
      }
    >
      <Text color="gray.700">
        We sent a verification code to <strong>{flow.email.trim()}</strong>.
      </Text>
      {note}
      <TextField
        label="Verification code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={flow.code}
        onChange={(e) => flow.setCode(e.target.value)}
        error={codeError}
        autoFocus
      />
    </AuthForm>
  );
}
