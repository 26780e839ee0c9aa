import { useState, type FormEvent } from 'react';
import { Button, Link as ChakraLink, Stack, Text } from '@chakra-ui/react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { MESSAGES } from '@first-round/shared/messages';
import { useAuth } from '../auth/auth-context';
import { AuthFrame } from '../components/auth-frame';
import { FormAlert, PrimaryButton, TextField } from '../components/form-bits';
import { errorMessage } from '../lib/trpc';

export const PRODUCT_NAME = 'First Round';
export const SIGN_UP_TAGLINE = 'The game is simple. Pick the players you think will be drafted in the 1st Round. No mistakes allowed.';

export function SignUpPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [step, setStep] = useState<'details' | 'code'>('details');
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ email?: string; username?: string; code?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [completing, setCompleting] = useState(false);

  if (auth.isLoaded && auth.isSignedIn && !completing) return <Navigate to="/groups" replace />;

  async function sendCode(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const next = { email: email.trim() ? undefined : MESSAGES.enterEmail, username: username.trim() ? undefined : MESSAGES.enterUsername };
    setErrors(next);
    if (next.email || next.username) return;
    if (!auth.isLoaded) return setError(MESSAGES.authNotReady);
    setBusy(true);
    try {
      await auth.sendSignUpCode(email, username);
      setStep('code');
    } catch (err) {
      setError(errorMessage(err, MESSAGES.sendCodeFailed));
    } finally {
      setBusy(false);
    }
  }

  async function verify(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!code.trim()) return setErrors({ code: MESSAGES.enterCode });
    setErrors({});
    if (!auth.isLoaded) return setError(MESSAGES.authNotReady);
    setBusy(true);
    setCompleting(true);
    try {
      const result = await auth.verifySignUpCode(email, code, username);
      if (result.status === 'complete') {
        navigate(result.hasSession ? '/auth/callback' : '/sign-in');
        return;
      }
      setCompleting(false);
      setError(result.providerStatus ? `Couldn't complete signup: ${result.providerStatus}` : MESSAGES.verificationIncomplete);
    } catch (err) {
      setCompleting(false);
      setError(errorMessage(err, MESSAGES.invalidCode));
    } finally {
      setBusy(false);
    }
  }

  function differentEmail() {
    auth.resetFlow();
    setStep('details');
    setCode('');
    setError(null);
    setErrors({});
  }

  return (
    <AuthFrame
      title={`Join the ${PRODUCT_NAME}`}
      tagline={SIGN_UP_TAGLINE}
      footer={
        <ChakraLink asChild color="white" fontWeight="semibold" textDecoration="underline">
          <Link to="/sign-in">I already have an account</Link>
        </ChakraLink>
      }
    >
      {step === 'details' ? (
        <form onSubmit={sendCode} noValidate>
          <Stack gap="4">
            <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} />
            <TextField label="Username" name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} error={errors.username} />
            {error && <FormAlert>{error}</FormAlert>}
            <PrimaryButton type="submit" loading={busy}>
              Sign Up
            </PrimaryButton>
          </Stack>
        </form>
      ) : (
        <form onSubmit={verify} noValidate>
          <Stack gap="4">
            <Text color="gray.700">
              We sent a verification code to <strong>{email.trim()}</strong>.
            </Text>
            <TextField
              label="Verification code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              error={errors.code}
              autoFocus
            />
            {error && <FormAlert>{error}</FormAlert>}
            <PrimaryButton type="submit" loading={busy}>
              Verify &amp; Create Account
            </PrimaryButton>
            <Button variant="ghost" onClick={differentEmail}>
              Use a different email
            </Button>
          </Stack>
        </form>
      )}
    </AuthFrame>
  );
}
