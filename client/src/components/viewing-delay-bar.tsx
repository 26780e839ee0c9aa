import { useMemo, useState } from 'react';
import { Flex, Text } from '@chakra-ui/react';
import { useLocation } from 'react-router-dom';
import { stripRoute } from '../lib/live-strip';
import { useDraftPhase } from '../lib/queries';
import { ViewingDelayBadge } from './viewing-delay-badge';
import { useViewingDelay, ViewingDelayChooser } from './viewing-delay-chooser';

/**
 * The viewing delay on the pages that show the live strip. With a delay set: at the top of the page (below
 * the sticky header and strip, not sticky itself), the badge and the chooser, also while a reloaded page
 * holds a recent change back (it may not know yet that the draft is live). Live, while round one runs: the
 * chooser is offered at the end of the page instead, so a live viewer's standings keep the room they had on
 * a phone. Once chosen there it stays there until the page changes (the field in use does not vanish).
 * `always`: on a page that is not one of the strip's (the spectators' /live), which shows it itself.
 */
export function ViewingDelayBar({ place, always = false }: { place: 'top' | 'end'; always?: boolean }) {
  const { pathname, search } = useLocation();
  const route = useMemo(() => stripRoute(pathname, search), [pathname, search]);
  const delay = useViewingDelay();
  const phase = useDraftPhase();
  const [used, setUsed] = useState<string | null>(null);
  if (!route.shown && !always) return null;
  if (place === 'top') {
    if (delay === 0) return null;
    return (
      <Flex as="section" aria-label="Viewing delay" bg="navy.900" color="white" px="4" py="1.5" gap="3" wrap="wrap" align="end" justify="space-between">
        <ViewingDelayChooser compact />
        <ViewingDelayBadge />
      </Flex>
    );
  }
  const here = pathname + search;
  if (phase !== 'live' || (delay > 0 && used !== here)) return null;
  return (
    <Flex as="section" aria-label="Watching on TV" px="4" py="4" gap="3" wrap="wrap" align="end" borderTopWidth="1px" borderColor="gray.200" onChange={() => setUsed(here)}>
      <Text fontSize="sm" color="gray.700" flexBasis="100%">
        Watching on TV or a stream? This device can show each pick when your screen does, not before.
      </Text>
      <ViewingDelayChooser />
    </Flex>
  );
}
