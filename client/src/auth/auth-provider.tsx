import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { LocalAuthProvider } from './local-auth';
import { useAuth } from './auth-context';
import { setTokenSource } from '../lib/trpc';
import { FullPageMessage } from '../components/full-page-message';

export interface ClientConfig {
  auth_provider: 'local' | 'clerk';
  clerk_publishable_key: string | null;
}

const ClerkAuthProvider = lazy(() => import('./clerk-auth'));

/** Hands the current provider's token getter to the tRPC link. */
function TokenBridge({ children }: { children: ReactNode }) {
  const { getToken } = useAuth();
  setTokenSource(getToken);
  useEffect(() => setTokenSource(getToken), [getToken]);
  return <>{children}</>;
}

/** Picks the implementation named by /api/client-config; screens only ever call useAuth(). */
export function AuthProvider({ config, children }: { config: ClientConfig; children: ReactNode }) {
  if (config.auth_provider === 'clerk' && config.clerk_publishable_key) {
    return (
      <Suspense fallback={<FullPageMessage>Loading authentication...</FullPageMessage>}>
        <ClerkAuthProvider publishableKey={config.clerk_publishable_key}>
          <TokenBridge>{children}</TokenBridge>
        </ClerkAuthProvider>
      </Suspense>
    );
  }
  return (
    <LocalAuthProvider>
      <TokenBridge>{children}</TokenBridge>
    </LocalAuthProvider>
  );
}
