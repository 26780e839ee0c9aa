import { lazy, Suspense } from 'react';
import { Box } from '@chakra-ui/react';
import { Outlet, useLocation } from 'react-router-dom';
import { useRouteTitle } from '../../lib/document-title';
import { useAuth } from '../../auth/auth-context';
import { useIdle } from '../../lib/use-idle';
import { useWakeLock } from '../../lib/use-wake-lock';
import { FullPageMessage } from '../full-page-message';
import { MAIN_ID } from '../skip-link';

// The same live layer the app shell mounts (components/draft-live.tsx): the TV follows the draft exactly
// as every live page does, reconnecting and falling back to polling by the same rules.
const DraftLive = lazy(async () => ({ default: (await import('../draft-live')).DraftLive }));

/** How long the pointer rests before the cursor is hidden. */
const CURSOR_IDLE_MS = 2000;

/**
 * The layout of the watch-party TV view (/groups/{id}/tv): no header, tabs, live strip or banners, only
 * the page; the screen kept awake while it is open, and the cursor hidden while the mouse rests.
 */
export function TvShell() {
  const { isSignedIn } = useAuth();
  useRouteTitle(useLocation().pathname);
  useWakeLock();
  const idle = useIdle(CURSOR_IDLE_MS);
  return (
    <Box minH="100dvh" display="flex" flexDirection="column" cursor={idle ? 'none' : undefined} data-cursor={idle ? 'hidden' : 'shown'}>
      {isSignedIn && (
        <Suspense fallback={null}>
          <DraftLive />
        </Suspense>
      )}
      <Box as="main" id={MAIN_ID} tabIndex={-1} outline="none" flex="1" width="100%" display="flex" flexDirection="column">
        <Suspense fallback={<FullPageMessage>Loading...</FullPageMessage>}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
