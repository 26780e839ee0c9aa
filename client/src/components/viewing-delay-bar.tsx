import { useMemo } from 'react';
import { Flex } from '@chakra-ui/react';
import { useLocation } from 'react-router-dom';
import { stripRoute } from '../lib/live-strip';
import { useDraftPhase } from '../lib/queries';
import { ViewingDelayBadge } from './viewing-delay-badge';
import { useViewingDelay, ViewingDelayChooser } from './viewing-delay-chooser';

/**
 * Under the live strip, on the pages that show it: the viewing-delay chooser and badge, while round one
 * runs or whenever a delay is set (a page waiting out its delay does not know yet that the draft is live).
 */
export function ViewingDelayBar() {
  const { pathname, search } = useLocation();
  const route = useMemo(() => stripRoute(pathname, search), [pathname, search]);
  const delay = useViewingDelay();
  const phase = useDraftPhase();
  if (!route.shown || (delay === 0 && phase !== 'live')) return null;
  return (
    <Flex as="section" aria-label="Viewing delay" bg="navy.900" color="white" px="4" py="1.5" gap="3" wrap="wrap" align="end" justify="space-between">
      <ViewingDelayChooser compact />
      <ViewingDelayBadge />
    </Flex>
  );
}
