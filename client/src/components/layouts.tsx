import { lazy, Suspense, useEffect } from 'react';
import { Box } from '@chakra-ui/react';
import { Navigate, Outlet, useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/auth-context';
import { TopNav } from './top-nav';
import { FullPageMessage } from './full-page-message';

import { FirstLoginModal } from './first-login-modal';

// The live layer draws nothing, so it is not in the initial bundle; its own empty Suspense boundary
// means loading it never blanks the page.
const DraftLive = lazy(async () => ({ default: (await import('./draft-live')).DraftLive }));

/** Header (with tabs once signed in) and the routed page below it. */
export function AppShell() {
  const { isSignedIn } = useAuth();
  return (
    <Box minH="100dvh" display="flex" flexDirection="column">
      <TopNav signedIn={isSignedIn} />
      {isSignedIn && (
        <Suspense fallback={null}>
          <DraftLive />
        </Suspense>
      )}
      <Box as="main" flex="1" width="100%" display="flex" flexDirection="column">
        <Suspense fallback={<FullPageMessage>Loading...</FullPageMessage>}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}

/** Protected routes: wait for auth, send visitors to /sign-in, show the rules on a first login. */
export function ProtectedRoute() {
  const { isLoaded, isSignedIn } = useAuth();
  const navigate = useNavigate();
  useEffect(() => {
    if (isLoaded && !isSignedIn) navigate('/sign-in', { replace: true });
  }, [isLoaded, isSignedIn, navigate]);
  if (!isLoaded) return <FullPageMessage>Loading authentication...</FullPageMessage>;
  if (!isSignedIn) return <FullPageMessage spinner={false}>Please sign in to view this page</FullPageMessage>;
  return (
    <>
      <Outlet />
      <FirstLoginModal />
    </>
  );
}

/** `/`: signed-in users to /groups, everyone else to /sign-up. */
export function HomeRedirect() {
  const { isLoaded, isSignedIn } = useAuth();
  if (!isLoaded) return <FullPageMessage>Loading authentication...</FullPageMessage>;
  return <Navigate to={isSignedIn ? '/groups' : '/sign-up'} replace />;
}
