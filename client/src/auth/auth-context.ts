import { createContext, useContext } from 'react';

/**
 * The one auth layer the screens see. Two implementations fill it (the built-in identity provider and
 * Clerk); screens never know which one runs. Flow functions throw an Error whose message is the
 * provider's first error message, or the fallback text.
 */
export interface SignUpResult {
  /** 'complete' with a session: go to /auth/callback; without one: go to /sign-in. */
  status: 'complete' | 'incomplete';
  hasSession: boolean;
  /** The provider's status when incomplete (for 'Couldn't complete signup: {status}'). */
  providerStatus?: string;
}

/**
 * A flow step the provider refused, with why when the screen acts on it (never read from the wording):
 * `unknown_account` — no account has that address (sign-in offers to create one); `throttled` — a code
 * was asked for too soon or too often.
 */
export class AuthFlowError extends Error {
  constructor(
    message: string,
    readonly reason?: 'unknown_account' | 'throttled',
  ) {
    super(message);
  }
}

export const authFailureReason = (error: unknown) => (error instanceof AuthFlowError ? error.reason : undefined);

export interface AuthApi {
  isLoaded: boolean;
  isSignedIn: boolean;
  userId: string | null;
  email: string | null;
  provider: 'local' | 'clerk';
  /**
   * The provider answers a sign-in alike for every address and mails an address without an account how
   * to make one (the built-in provider: who has an account is not told to whoever asks); false: it refuses
   * an unknown address at once (Clerk), and the sign-in form then offers to make one.
   */
  answersEveryAddress: boolean;
  getToken(): Promise<string | null>;
  signOut(): Promise<void>;
  /** Sends a sign-in code to the address. */
  sendSignInCode(email: string): Promise<void>;
  /** Checks the code and activates the session. */
  verifySignInCode(email: string, code: string): Promise<void>;
  /** Starts a sign-up with e-mail and username, sending a code. */
  sendSignUpCode(email: string, username: string): Promise<void>;
  /** Checks the code; sets the username and retries when the provider says it is missing. */
  verifySignUpCode(email: string, code: string, username: string): Promise<SignUpResult>;
  /** Forgets a half-done flow (the 'Use a different email' button). */
  resetFlow(): void;
}

export const AuthContext = createContext<AuthApi | null>(null);

export function useAuth(): AuthApi {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside an auth provider');
  return auth;
}

/** Seconds until a JWT expires (negative when expired); undefined when it cannot be read. */
export function secondsLeft(token: string, now = Date.now()): number | undefined {
  const claims = decodeClaims(token);
  return typeof claims?.exp === 'number' ? claims.exp - now / 1000 : undefined;
}

export function decodeClaims(token: string): Record<string, unknown> | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    return JSON.parse(json) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
