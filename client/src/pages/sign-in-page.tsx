import { useState } from 'react';
import { Link as ChakraLink } from '@chakra-ui/react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { MESSAGES } from '@first-round/shared/messages';
import { useCodeFlow } from '../auth/use-code-flow';
import { AuthFrame } from '../components/auth-frame';
import { TextField } from '../components/form-bits';
import { AuthForm, VerificationCodeStep } from '../components/verification-code-step';

export function SignInPage() {
  const navigate = useNavigate();
  const flow = useCodeFlow();
  const [fieldError, setFieldError] = useState<string | null>(null);

  if (flow.redirect) return <Navigate to="/groups" replace />;
  const { auth, email, code } = flow;

  /** Shows `message` under the field when `value` is blank; true when it is filled in. */
  const required = (value: string, message: string) => {
    setFieldError(value.trim() ? null : message);
    return Boolean(value.trim());
  };

  const sendCode = flow.onSubmit(
    () => required(email, MESSAGES.enterEmail),
    async () => {
      await auth.sendSignInCode(email);
      flow.setCodeSent(true);
    },
    MESSAGES.sendCodeFailed,
  );

  const verify = flow.onSubmit(
    () => required(code, MESSAGES.enterCode),
    async () => {
      await auth.verifySignInCode(email, code);
      navigate('/auth/callback');
    },
    MESSAGES.invalidCode,
    true,
  );

  function differentEmail() {
    flow.restart();
    setFieldError(null);
  }

  return (
    <AuthFrame
      title="Welcome Back to First Round"
      tagline={flow.codeSent ? undefined : 'Sign in with your email. We will send you a one-time code.'}
      footer={
        <ChakraLink asChild color="white" fontWeight="semibold" textDecoration="underline">
          <Link to="/sign-up">I don't have an account</Link>
        </ChakraLink>
      }
    >
      {flow.codeSent ? (
        <VerificationCodeStep flow={flow} onSubmit={verify} submitLabel="Verify & Sign In" codeError={fieldError} onDifferentEmail={differentEmail} />
      ) : (
        <AuthForm flow={flow} onSubmit={sendCode} submitLabel="Send Code">
          <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => flow.setEmail(e.target.value)} error={fieldError} />
        </AuthForm>
      )}
    </AuthFrame>
  );
}
