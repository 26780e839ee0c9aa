import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LocalAuthProvider } from './local-auth';
import { useAuth } from './auth-context';
import { createTrpcClient, trpc } from '../lib/trpc';
import { bindPushClient, setPushDelay } from '../lib/push';
import { getViewingDelay, subscribeViewingDelay } from '../lib/viewing-delay';
import { FullPageMessage } from '../components/full-page-message';
import { forUser } from '../lib/persisted-queries';

export interface ClientConfig {
  auth_provider: 'local' | 'clerk';
  clerk_publishable_key: string | null;
}

const ClerkAuthProvider = lazy(() => import('./clerk-auth'));

/**
 * The tRPC client, built once inside the auth layer (as create-t3-app builds it inside its provider):
 * every request asks the provider of this render for its token. The client stays the same while the
 * provider's getter changes (Clerk makes a new one when its state does), so queries keep their cache.
 */
function TrpcProvider({ children }: { children: ReactNode }) {
  const { getToken, isLoaded, isSignedIn, userId } = useAuth();
  const latestGetToken = useRef(getToken);
  latestGetToken.current = getToken;
  const queryClient = useQueryClient();
  const [client] = useState(() => {
    const created = createTrpcClient({ getToken: () => latestGetToken.current() });
    bindPushClient(created);
    // No spoilers: this device's notifications wait as long as its pages do.
    subscribeViewingDelay(() => void setPushDelay(getViewingDelay()).catch(() => {}));
    return created;
  });
  // The answers kept on this device are this person's only (a sign-out or another account drops them).
  const person = !isLoaded ? null : isSignedIn ? userId : 'visitor';
  useEffect(() => forUser(queryClient, person), [queryClient, person]);
  return (
    <trpc.Provider client={client} queryClient={queryClient}>
      {children}
    </trpc.Provider>
  );
}

/** Picks the implementation named by /api/client-config; screens only ever call useAuth() and the tRPC hooks. */
export function AuthProvider({ config, children }: { config: ClientConfig; children: ReactNode }) {
  if (config.auth_provider === 'clerk' && config.clerk_publishable_key) {
    return (
      <Suspense fallback={<FullPageMessage>Loading authentication...</FullPageMessage>}>
        <ClerkAuthProvider publishableKey={config.clerk_publishable_key}>
          <TrpcProvider>{children}</TrpcProvider>
        </ClerkAuthProvider>
      </Suspense>
    );
  }
  return (
    <LocalAuthProvider>
      <TrpcProvider>{children}</TrpcProvider>
    </LocalAuthProvider>
  );
}
