import { useMemo, useRef, type ReactNode } from 'react';
import { ClerkProvider, useAuth as useClerkAuth, useSignIn, useSignUp, useUser } from '@clerk/react';
import { MESSAGES } from '@first-round/shared/messages';
import { AuthContext, AuthFlowError, type AuthApi, type SignUpResult } from './auth-context';

/** The provider's first error message, else the fallback text (shared/src/messages.ts). */
function firstMessage(error: unknown, fallback: string): string {
  const e = error as { errors?: { longMessage?: string; message?: string }[]; longMessage?: string; message?: string } | null;
  return e?.errors?.[0]?.longMessage || e?.errors?.[0]?.message || e?.longMessage || e?.message || fallback;
}

/** Clerk's error codes the screens act on (https://clerk.com/docs/errors). */
function reasonOf(error: unknown): 'unknown_account' | 'throttled' | undefined {
  const code = (error as { errors?: { code?: string }[]; code?: string } | null)?.errors?.[0]?.code ?? (error as { code?: string } | null)?.code;
  if (code === 'form_identifier_not_found') return 'unknown_account';
  if (code === 'too_many_requests') return 'throttled';
  return undefined;
}

function fail(error: unknown, fallback: string): never {
  throw new AuthFlowError(firstMessage(error, fallback), reasonOf(error));
}

/** Clerk's custom email-code flows (Core 3 `useSignIn` / `useSignUp`) behind the same auth layer. */
function ClerkBridge({ children }: { children: ReactNode }) {
  const clerk = useClerkAuth();
  const { user } = useUser();
  const signInState = useSignIn();
  const signUpState = useSignUp();
  // Flow functions await several steps: read the latest resources, not the ones of the first render.
  const latest = useRef({ signInState, signUpState });
  latest.current = { signInState, signUpState };

  const value = useMemo<AuthApi>(
    () => ({
      isLoaded: clerk.isLoaded,
      isSignedIn: Boolean(clerk.isSignedIn),
      userId: clerk.userId ?? null,
      email: user?.primaryEmailAddress?.emailAddress ?? null,
      provider: 'clerk',
      answersEveryAddress: false,
      getToken: () => clerk.getToken(),
      signOut: () => clerk.signOut(),
      async sendSignInCode(emailAddress) {
        const signIn = latest.current.signInState.signIn;
        if (!signIn) throw new Error(MESSAGES.authNotReady);
        const { error } = await signIn.emailCode.sendCode({ emailAddress: emailAddress.trim() });
        if (error) fail(error, MESSAGES.sendCodeFailed);
      },
      async verifySignInCode(_email, code) {
        const signIn = latest.current.signInState.signIn;
        if (!signIn) throw new Error(MESSAGES.authNotReady);
        const { error } = await signIn.emailCode.verifyCode({ code: code.trim() });
        if (error) fail(error, MESSAGES.invalidCode);
        const current = latest.current.signInState.signIn ?? signIn;
        if (current.status !== 'complete') throw new Error(MESSAGES.verificationIncomplete);
        const done = await current.finalize();
        if (done.error) fail(done.error, MESSAGES.verificationIncomplete);
      },
      async sendSignUpCode(emailAddress, username) {
        const signUp = latest.current.signUpState.signUp;
        if (!signUp) throw new Error(MESSAGES.authNotReady);
        const created = await signUp.create({ emailAddress: emailAddress.trim(), username: username.trim() });
        if (created.error) fail(created.error, MESSAGES.sendCodeFailed);
        const sent = await signUp.verifications.sendEmailCode();
        if (sent.error) fail(sent.error, MESSAGES.sendCodeFailed);
      },
      async verifySignUpCode(_email, code, username): Promise<SignUpResult> {
        const signUp = latest.current.signUpState.signUp;
        if (!signUp) throw new Error(MESSAGES.authNotReady);
        const verified = await signUp.verifications.verifyEmailCode({ code: code.trim() });
        const alreadyVerified = (verified.error as { code?: string } | null)?.code === 'verification_already_verified';
        if (verified.error && !alreadyVerified) fail(verified.error, MESSAGES.invalidCode);
        let current = latest.current.signUpState.signUp ?? signUp;
        // A missing username (or a code verified earlier): set the username, then carry on (docs/web-app.md, "The auth layer").
        if (alreadyVerified || (current.status === 'missing_requirements' && current.missingFields.includes('username'))) {
          const updated = await current.update({ username: username.trim() });
          if (updated.error) fail(updated.error, `Couldn't complete signup: ${current.status}`);
          current = latest.current.signUpState.signUp ?? current;
        }
        if (current.status !== 'complete') return { status: 'incomplete', hasSession: false, providerStatus: current.status ?? 'unknown' };
        const done = await current.finalize();
        if (done.error) return { status: 'complete', hasSession: false };
        return { status: 'complete', hasSession: Boolean(current.createdSessionId) };
      },
      resetFlow() {
        void latest.current.signInState.signIn?.reset();
      },
    }),
    [clerk, user],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** Loaded lazily: only installations configured for Clerk download it. */
export default function ClerkAuthProvider({ publishableKey, children }: { publishableKey: string; children: ReactNode }) {
  return (
    <ClerkProvider publishableKey={publishableKey} afterSignOutUrl="/sign-in">
      <ClerkBridge>{children}</ClerkBridge>
    </ClerkProvider>
  );
}
