import { useEffect, useState, type FormEvent } from 'react';
import { CODE_RESEND_WAIT_S } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { errorMessage } from '../lib/trpc';
import { authFailureReason, useAuth, type AuthFlowError } from './auth-context';

export type CodeFlow = ReturnType<typeof useCodeFlow>;

/**
 * The state the sign-in and sign-up pages share: the e-mail and the one-time code, whether the code has
 * been sent (the code step shows), the provider's error (and why, when the page acts on it), the busy
 * flag, and the wait before another code may be asked for. `redirect`: already signed in (and not just
 * finishing this flow), so the page sends the user on.
 */
export function useCodeFlow(initialEmail = '') {
  const auth = useAuth();
  const [codeSent, setCodeSentState] = useState(false);
  const [email, setEmail] = useState(initialEmail);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [errorReason, setErrorReason] = useState<AuthFlowError['reason']>(undefined);
  const [busy, setBusy] = useState(false);
  const [completing, setCompleting] = useState(false);
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());

  // Counts the resend wait down once a second while it runs.
  useEffect(() => {
    if (!codeSent || now >= resendAt) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1000, resendAt - now));
    return () => clearTimeout(timer);
  }, [codeSent, now, resendAt]);

  function setCodeSent(sent: boolean) {
    setCodeSentState(sent);
    if (sent) {
      const at = Date.now();
      setNow(at);
      setResendAt(at + CODE_RESEND_WAIT_S * 1000);
    }
  }

  function fail(err: unknown, fallback: string) {
    setError(errorMessage(err, fallback));
    setErrorReason(authFailureReason(err));
  }

  /**
   * A form's submit handler: nothing is sent unless `fieldsValid()` (which shows the field errors) passes;
   * then `call` talks to the provider while the form is busy. A thrown error (or `fallback`), or the
   * message `call` returns, becomes the form's error. `completes`: the call signs the user in, so the page
   * must not redirect meanwhile.
   */
  function onSubmit(fieldsValid: () => boolean, call: () => Promise<string | void>, fallback: string, completes = false) {
    return async (e: FormEvent) => {
      e.preventDefault();
      setError(null);
      setErrorReason(undefined);
      if (!fieldsValid()) return;
      if (!auth.isLoaded) return setError(MESSAGES.authNotReady);
      setBusy(true);
      if (completes) setCompleting(true);
      try {
        const failure = await call();
        if (failure) {
          setCompleting(false);
          setError(failure);
        }
      } catch (err) {
        setCompleting(false);
        fail(err, fallback);
      } finally {
        setBusy(false);
      }
    };
  }

  /** 'Resend code': asks for a new code (the wait starts again); a refusal shows as the form's error. */
  async function resend(send: () => Promise<void>) {
    setError(null);
    setErrorReason(undefined);
    setBusy(true);
    try {
      await send();
      setCode('');
      setCodeSent(true);
    } catch (err) {
      fail(err, MESSAGES.sendCodeFailed);
    } finally {
      setBusy(false);
    }
  }

  /** 'Use a different email': forget the half-done flow and go back to the first step. */
  function restart() {
    auth.resetFlow();
    setCodeSentState(false);
    setCode('');
    setError(null);
    setErrorReason(undefined);
  }

  return {
    auth,
    redirect: auth.isLoaded && auth.isSignedIn && !completing,
    codeSent,
    setCodeSent,
    email,
    setEmail,
    code,
    setCode,
    error,
    errorReason,
    busy,
    onSubmit,
    resend,
    /** Whole seconds until 'Resend code' may be used (0: now). */
    resendWait: Math.max(0, Math.ceil((resendAt - now) / 1000)),
    restart,
  };
}
