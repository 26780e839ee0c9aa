import { useState } from 'react';
import { Link as ChakraLink, Text } from '@chakra-ui/react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '@first-round/shared/messages';
import { useCodeFlow } from '../auth/use-code-flow';
import { AuthFrame } from '../components/auth-frame';
import { TextField } from '../components/form-bits';
import { InvitationCard, usePendingInvite } from '../components/invitation-card';
import { LandingPitch } from '../components/landing';
import { AuthForm, VerificationCodeStep } from '../components/verification-code-step';
import { rememberNext, safeNext, withNext } from '../lib/next-path';

export const PRODUCT_NAME = 'First Round';
export const SIGN_UP_TAGLINE = 'The game is simple. Pick the players you think will be drafted in round one. No mistakes allowed.';

/**
 * /sign-up, the landing for signed-out visitors: the pitch (Pick · Lock · Survive, an example entry, the
 * live counts), then the form. Someone who followed an invite sees the invitation first. `?email=`
 * fills the address in (sign-in and the mail to an address without an account link it); `?next=` is where
 * to go afterwards.
 */
export function SignUpPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const flow = useCodeFlow(params.get('email') ?? '');
  const invite = usePendingInvite();
  const [username, setUsername] = useState('');
  const [errors, setErrors] = useState<{ email?: string; username?: string; code?: string }>({});

  if (flow.redirect) return <Navigate to={next ?? '/groups'} replace />;
  const { auth, email, code } = flow;

  const send = () => auth.sendSignUpCode(email, username);
  const sendCode = flow.onSubmit(
    () => {
      const next = { email: email.trim() ? undefined : MESSAGES.enterEmail, username: username.trim() ? undefined : MESSAGES.enterUsername };
      setErrors(next);
      return !next.email && !next.username;
    },
    async () => {
      await send();
      flow.setCodeSent(true);
    },
    MESSAGES.sendCodeFailed,
  );

  const verify = flow.onSubmit(
    () => {
      setErrors(code.trim() ? {} : { code: MESSAGES.enterCode });
      return Boolean(code.trim());
    },
    async () => {
      const result = await auth.verifySignUpCode(email, code, username);
      if (result.status === 'complete') {
        rememberNext(next);
        navigate(result.hasSession ? '/auth/callback' : withNext('/sign-in', next));
        return;
      }
      return result.providerStatus ? `Couldn't complete signup: ${result.providerStatus}` : MESSAGES.verificationIncomplete;
    },
    MESSAGES.invalidCode,
    true,
  );

  function differentEmail() {
    flow.restart();
    setErrors({});
  }

  return (
    <AuthFrame
      title={`Join the ${PRODUCT_NAME}`}
      tagline={SIGN_UP_TAGLINE}
      before={invite && <InvitationCard invite={invite} />}
      aside={<LandingPitch />}
      asideAfter={Boolean(invite)}
      footer={
        <ChakraLink asChild color="white" fontWeight="semibold" textDecoration="underline">
          <Link to={withNext('/sign-in', next)}>I already have an account</Link>
        </ChakraLink>
      }
    >
      {flow.codeSent ? (
        <VerificationCodeStep
          flow={flow}
          onSubmit={verify}
          submitLabel="Verify & Create Account"
          codeError={errors.code}
          onDifferentEmail={differentEmail}
          onResend={() => void flow.resend(send)}
          note={auth.answersEveryAddress && <Text color="gray.700">{MESSAGES.codeStepHasAccount}</Text>}
        />
      ) : (
        <AuthForm flow={flow} onSubmit={sendCode} submitLabel="Sign Up">
          <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => flow.setEmail(e.target.value)} error={errors.email} />
          <TextField label="Username" name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} error={errors.username} />
        </AuthForm>
      )}
    </AuthFrame>
  );
}
