import { Suspense, useEffect } from 'react';
import { Box } from '@chakra-ui/react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useRouteTitle } from '../lib/document-title';
import { useAuth } from '../auth/auth-context';
import { TopNav } from './top-nav';
import { FullPageMessage } from './full-page-message';
import { withNext } from '../lib/next-path';

import { FirstLoginModal } from './first-login-modal';
import { SkipLink, MAIN_ID } from './skip-link';
import { OfflineBanner } from './offline-banner';
import { lazyNamed } from '../lib/connectivity';

// The live layer draws nothing, so it is not in the initial bundle; its own empty Suspense boundary
// means loading it never blanks the page.
const DraftLive = lazyNamed(() => import('./draft-live'), 'DraftLive');
// Draft night inside the app (components/draft-strip.tsx): the sticky live strip under the header, and the
// countdown chip or the Final card at the top of the page. Lazy too, and blank while it loads.
const LiveStrip = lazyNamed(() => import('./draft-strip'), 'LiveStrip');
// The viewing delay (no spoilers): "Delayed 45 s · Catch up" and the chooser at the top of the strip's pages
// while a delay is set; the chooser at the end of them while live.
const ViewingDelayBar = lazyNamed(() => import('./viewing-delay-bar'), 'ViewingDelayBar');
const DraftStateBanner = lazyNamed(() => import('./draft-strip'), 'DraftStateBanner');

/** Header (with tabs once signed in) and the routed page below it. */
export function AppShell() {
  const { isSignedIn } = useAuth();
  useRouteTitle(useLocation().pathname);
  return (
    <Box minH="100dvh" display="flex" flexDirection="column">
      <SkipLink />
      {/* The header and the live strip stick together (the header's height changes with the width). */}
      <Box position="sticky" top="0" zIndex="sticky">
        <TopNav signedIn={isSignedIn} />
        <OfflineBanner />
        {isSignedIn && (
          <Suspense fallback={null}>
            <LiveStrip />
          </Suspense>
        )}
      </Box>
      {isSignedIn && (
        <Suspense fallback={null}>
          <DraftLive />
        </Suspense>
      )}
      <Box as="main" id={MAIN_ID} tabIndex={-1} outline="none" flex="1" width="100%" display="flex" flexDirection="column">
        {isSignedIn && (
          <Suspense fallback={null}>
            {/* Not in the sticky box: on a phone the header and the strip already take what it can spare. */}
            <ViewingDelayBar place="top" />
            <DraftStateBanner />
          </Suspense>
        )}
        <Suspense fallback={<FullPageMessage>Loading...</FullPageMessage>}>
          <Outlet />
        </Suspense>
        {isSignedIn && (
          <Suspense fallback={null}>
            <ViewingDelayBar place="end" />
          </Suspense>
        )}
      </Box>
    </Box>
  );
}

/**
 * Protected routes: wait for auth, send visitors to /sign-in (with the page they asked for as `?next=`,
 * where signing in returns them), show the rules on a first login.
 */
export function ProtectedRoute() {
  const { isLoaded, isSignedIn } = useAuth();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  useEffect(() => {
    if (isLoaded && !isSignedIn) navigate(withNext('/sign-in', pathname === '/' ? null : pathname + search), { replace: true });
  }, [isLoaded, isSignedIn, navigate, pathname, search]);
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
