import type { FormEvent, ReactNode } from 'react';
import { Button, Stack, Text } from '@chakra-ui/react';
import type { CodeFlow } from '../auth/use-code-flow';
import { FormAlert, PrimaryButton, TextField } from './form-bits';

/** A sign-in or sign-up form: its fields, the provider's error, the submit button, then `after`. */
export function AuthForm({ flow, onSubmit, submitLabel, children, after }: { flow: CodeFlow; onSubmit: (e: FormEvent) => void; submitLabel: string; children: ReactNode; after?: ReactNode }) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="4">
        {children}
        {flow.error && <FormAlert>{flow.error}</FormAlert>}
        <PrimaryButton type="submit" loading={flow.busy}>
          {submitLabel}
        </PrimaryButton>
        {after}
      </Stack>
    </form>
  );
}

/** The step after the e-mail is sent: enter the one-time code, or go back and use another address. */
export function VerificationCodeStep({ codeError, onDifferentEmail, ...form }: { codeError?: string | null; onDifferentEmail: () => void } & Omit<React.ComponentProps<typeof AuthForm>, 'children' | 'after'>) {
  const { flow } = form;
  return (
    <AuthForm
      {...form}
      after={
        <Button variant="ghost" onClick={onDifferentEmail}>
          Use a different email
        </Button>
      }
    >
      <Text color="gray.700">
        We sent a verification code to <strong>{flow.email.trim()}</strong>.
      </Text>
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
