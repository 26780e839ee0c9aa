import { useState, type FormEvent } from 'react';
import { Button, Link as ChakraLink, Stack, Text } from '@chakra-ui/react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { MESSAGES } from '@first-round/shared/messages';
import { useAuth } from '../auth/auth-context';
import { AuthFrame } from '../components/auth-frame';
import { FormAlert, PrimaryButton, TextField } from '../components/form-bits';
import { errorMessage } from '../lib/trpc';

export function SignInPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [completing, setCompleting] = useState(false);

  if (auth.isLoaded && auth.isSignedIn && !completing) return <Navigate to="/groups" replace />;

  async function sendCode(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!email.trim()) return setFieldError(MESSAGES.enterEmail);
    setFieldError(null);
    if (!auth.isLoaded) return setError(MESSAGES.authNotReady);
    setBusy(true);
    try {
      await auth.sendSignInCode(email);
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
    if (!code.trim()) return setFieldError(MESSAGES.enterCode);
    setFieldError(null);
    if (!auth.isLoaded) return setError(MESSAGES.authNotReady);
    setBusy(true);
    setCompleting(true);
    try {
      await auth.verifySignInCode(email, code);
      navigate('/auth/callback');
    } catch (err) {
      setCompleting(false);
      setError(errorMessage(err, MESSAGES.invalidCode));
    } finally {
      setBusy(false);
    }
  }

  function differentEmail() {
    auth.resetFlow();
    setStep('email');
    setCode('');
    setError(null);
    setFieldError(null);
  }

  return (
    <AuthFrame
      title="Welcome Back to First Round"
      tagline={step === 'email' ? 'Sign in with your email. We will send you a one-time code.' : undefined}
      footer={
        <ChakraLink asChild color="white" fontWeight="semibold" textDecoration="underline">
          <Link to="/sign-up">I don't have an account</Link>
        </ChakraLink>
      }
    >
      {step === 'email' ? (
        <form onSubmit={sendCode} noValidate>
          <Stack gap="4">
            <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={fieldError} />
            {error && <FormAlert>{error}</FormAlert>}
            <PrimaryButton type="submit" loading={busy}>
              Send Code
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
              error={fieldError}
              autoFocus
            />
            {error && <FormAlert>{error}</FormAlert>}
            <PrimaryButton type="submit" loading={busy}>
              Verify &amp; Sign In
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
