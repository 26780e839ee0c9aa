import { useState, type FormEvent } from 'react';
import { MESSAGES } from '@first-round/shared/messages';
import { errorMessage } from '../lib/trpc';
import { useAuth } from './auth-context';

export type CodeFlow = ReturnType<typeof useCodeFlow>;

/**
 * The state the sign-in and sign-up pages share: the e-mail and the one-time code, whether the code has
 * been sent (the code step shows), the provider's error and the busy flag. `redirect`: already signed in
 * (and not just finishing this flow), so the page sends the user to /groups.
 */
export function useCodeFlow() {
  const auth = useAuth();
  const [codeSent, setCodeSent] = useState(false);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [completing, setCompleting] = useState(false);

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
        setError(errorMessage(err, fallback));
      } finally {
        setBusy(false);
      }
    };
  }

  /** 'Use a different email': forget the half-done flow and go back to the first step. */
  function restart() {
    auth.resetFlow();
    setCodeSent(false);
    setCode('');
    setError(null);
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
    busy,
    onSubmit,
    restart,
  };
}
