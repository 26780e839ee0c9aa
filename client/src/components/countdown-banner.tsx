import { useEffect, useState } from 'react';
import { Box, Text } from '@chakra-ui/react';
import { STALE_TIMES } from '@first-round/shared/constants';
import { trpc } from '../lib/trpc';

const DAY_MS = 24 * 3600 * 1000;

/** Whole days left until the deadline, rounded up; 0 once it has passed. */
export function daysLeft(deadline: Date, now: Date): number {
  const ms = deadline.getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / DAY_MS);
}

/** 'N DAYS LEFT' to the configured pick deadline (draft.status.deadline), recounted every 24 h. */
export function CountdownBanner() {
  const status = trpc.draft.status.useQuery(undefined, { staleTime: STALE_TIMES.draftStatus });
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), DAY_MS);
    return () => clearInterval(timer);
  }, []);
  if (!status.data) return <Box h="12" />;
  const days = daysLeft(new Date(status.data.deadline), now);
  return (
    <Box bg="gold.400" color="navy.900" textAlign="center" py="3" px="4" borderRadius="lg" boxShadow="md" role="timer" aria-live="off">
      <Text fontWeight="black" fontSize={{ base: 'xl', md: '2xl' }} letterSpacing="widest">
        {days} {days === 1 ? 'DAY' : 'DAYS'} LEFT
      </Text>
      <Text fontSize="xs" fontWeight="semibold" textTransform="uppercase" letterSpacing="wide">
        until picks lock on draft night
      </Text>
    </Box>
  );
}
