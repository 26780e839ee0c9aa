import { useSyncExternalStore } from 'react';
import { Box } from '@chakra-ui/react';
import { onlineManager } from '@tanstack/react-query';
import { MESSAGES } from '@first-round/shared/messages';

const subscribe = (onChange: () => void) => onlineManager.subscribe(onChange);
const isOnline = () => onlineManager.isOnline();

/**
 * Offline, one plain line under the header instead of error states (lib/connectivity.ts decides when), and
 * that the page shows what was last known (the cache, kept on the device by lib/persisted-queries.ts).
 * The status region is always there, empty while online, so screen readers announce the line when it comes.
 */
export function OfflineBanner() {
  const online = useSyncExternalStore(subscribe, isOnline);
  return (
    <Box role="status" aria-live="polite">
      {!online && (
        <Box bg="gray.800" color="white" px="4" py="2" textAlign="center" fontSize="sm" fontWeight="medium">
          {MESSAGES.offline}
          <Box as="span" display="block" fontWeight="normal">
            {MESSAGES.offlineLastKnown}
          </Box>
        </Box>
      )}
    </Box>
  );
}
