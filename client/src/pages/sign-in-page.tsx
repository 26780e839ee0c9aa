import { useState } from 'react';
import { Button, Link as ChakraLink, Stack, Text } from '@chakra-ui/react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '@first-round/shared/messages';
import { useCodeFlow } from '../auth/use-code-flow';
import { AuthFrame } from '../components/auth-frame';
import { TextField } from '../components/form-bits';
import { InvitationCard, usePendingInvite } from '../components/invitation-card';
import { AuthForm, VerificationCodeStep } from '../components/verification-code-step';
import { rememberNext, safeNext, withNext } from '../lib/next-path';

/** /sign-in. `?next=` is the page the player asked for before being sent here: they return to it. */
export function SignInPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const flow = useCodeFlow(params.get('email') ?? '');
  const invite = usePendingInvite();
  const [fieldError, setFieldError] = useState<string | null>(null);

  if (flow.redirect) return <Navigate to={next ?? '/groups'} replace />;
  const { auth, email, code } = flow;

  /** Shows `message` under the field when `value` is blank; true when it is filled in. */
  const required = (value: string, message: string) => {
    setFieldError(value.trim() ? null : message);
    return Boolean(value.trim());
  };

  const send = () => auth.sendSignInCode(email);
  const sendCode = flow.onSubmit(
    () => required(email, MESSAGES.enterEmail),
    async () => {
      await send();
      flow.setCodeSent(true);
    },
    MESSAGES.sendCodeFailed,
  );

  const verify = flow.onSubmit(
    () => required(code, MESSAGES.enterCode),
    async () => {
      await auth.verifySignInCode(email, code);
      rememberNext(next);
      navigate('/auth/callback');
    },
    MESSAGES.invalidCode,
    true,
  );

  function differentEmail() {
    flow.restart();
    setFieldError(null);
  }

  // No account has this address: offer to make one with it, as the next step rather than a dead end. A
  // provider that answers every address alike (the built-in one) cannot say there is none: the code step
  // offers it beside the code, and the mail says which it was.
  const address = email.trim();
  const createAccount = address && (
    <Button asChild variant="outline" size="lg" borderColor="navy.900" color="navy.900" fontWeight="bold" whiteSpace="normal" height="auto" py="2">
      <Link to={withNext('/sign-up', next, { email: address })}>Create an account with {address}</Link>
    </Button>
  );
  const noAccountNote = auth.answersEveryAddress && (
    <Stack gap="2">
      <Text color="gray.700">{MESSAGES.codeStepNoAccount}</Text>
      {createAccount}
    </Stack>
  );

  return (
    <AuthFrame
      title="Welcome Back to First Round"
      tagline={flow.codeSent ? undefined : 'Sign in with your email. We will send you a one-time code.'}
      before={invite && <InvitationCard invite={invite} />}
      footer={
        <ChakraLink asChild color="white" fontWeight="semibold" textDecoration="underline">
          <Link to={withNext('/sign-up', next)}>I don't have an account</Link>
        </ChakraLink>
      }
    >
      {flow.codeSent ? (
        <VerificationCodeStep
          flow={flow}
          onSubmit={verify}
          submitLabel="Verify & Sign In"
          codeError={fieldError}
          onDifferentEmail={differentEmail}
          onResend={() => void flow.resend(send)}
          note={noAccountNote}
        />
      ) : (
        <AuthForm flow={flow} onSubmit={sendCode} submitLabel="Send Code" alertExtra={flow.errorReason === 'unknown_account' && createAccount}>
          <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => flow.setEmail(e.target.value)} error={fieldError} />
        </AuthForm>
      )}
    </AuthFrame>
  );
}
