import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Box, Text } from '@chakra-ui/react';
import { STALE_TIMES } from '@first-round/shared/constants';
import type { DraftStatus } from '@first-round/shared/schemas';
import { trpc } from '../lib/trpc';

const DAY_MS = 24 * 3600 * 1000;
const MINUTE_MS = 60_000;

/** Whole days left until the deadline, rounded up; 0 once it has passed. */
export function daysLeft(deadline: Date, now: Date): number {
  const ms = deadline.getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / DAY_MS);
}

export type DraftPhase = 'before' | 'live' | 'final';

/** Where the draft is: before the lock, live (started, from the deadline on too), or round one final. */
export function draftPhase(status: Pick<DraftStatus, 'draftHasStarted' | 'round_one_complete' | 'deadline'>, now: Date): DraftPhase {
  if (status.round_one_complete) return 'final';
  if (status.draftHasStarted || now.getTime() >= new Date(status.deadline).getTime()) return 'live';
  return 'before';
}

/**
 * The sign-in and sign-up banner, following the draft ('N DAYS LEFT' before it): 'DRAFT IS LIVE ·
 * picks locked' once it starts and 'ROUND ONE FINAL' once round one is complete, then with the way to
 * the spectators' page (/live). Signed-out pages have no
 * live stream, so the status is asked again every minute while the draft is on, and the clock is read
 * every minute (the deadline passing starts the draft by itself).
 */
export function CountdownBanner() {
  const [now, setNow] = useState(() => new Date());
  const status = trpc.draft.status.useQuery(undefined, {
    staleTime: STALE_TIMES.draftStatus,
    refetchInterval: (query) => (query.state.data && draftPhase(query.state.data, new Date()) === 'live' ? MINUTE_MS : false),
  });
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), MINUTE_MS);
    return () => clearInterval(timer);
  }, []);
  if (!status.data) return <Box h="12" />;
  const phase = draftPhase(status.data, now);
  const days = daysLeft(new Date(status.data.deadline), now);
  const { main, sub, bg, color } =
    phase === 'before'
      ? { main: `${days} ${days === 1 ? 'DAY' : 'DAYS'} LEFT`, sub: 'until picks lock on draft night', bg: 'gold.400', color: 'navy.900' }
      : phase === 'live'
        ? { main: 'DRAFT IS LIVE · picks locked', sub: 'Follow every pick as it happens', bg: 'turf.700', color: 'white' }
        : { main: 'ROUND ONE FINAL', sub: 'The final standings are in', bg: 'navy.950', color: 'white' };
  return (
    <Box
      bg={bg}
      color={color}
      textAlign="center"
      py="3"
      px="4"
      borderRadius="lg"
      boxShadow="md"
      role={phase === 'before' ? 'timer' : 'status'}
      aria-live="off"
      data-phase={phase}
      borderWidth={phase === 'final' ? '1px' : undefined}
      borderColor="gold.400"
    >
      <Text fontWeight="black" fontSize={phase === 'before' ? { base: 'xl', md: '2xl' } : { base: 'lg', md: '2xl' }} letterSpacing={phase === 'before' ? 'widest' : 'wide'}>
        {main}
      </Text>
      <Text fontSize="xs" fontWeight="semibold" textTransform="uppercase" letterSpacing="wide">
        {sub}
      </Text>
      {/* Once picks are locked a visitor can still watch: the spectators' page (/live). */}
      {phase !== 'before' && (
        <Text mt="2" fontWeight="bold">
          <Link to="/live" style={{ textDecoration: 'underline' }}>
            {phase === 'live' ? 'Watch the live standings' : 'See the final standings'}
          </Link>
        </Text>
      )}
    </Box>
  );
}
