import { useEffect, useState } from 'react';
import { Badge, Box, Flex, HStack, Text } from '@chakra-ui/react';
import { skipToken } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { STALE_TIMES, STANDINGS_PUSH_WAIT_MS } from '@first-round/shared/constants';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import { plural } from '@first-round/shared/words';
import { countdownText, draftPhase, finalPlace, GLOBAL_FIRST_PAGE, ordinal, podium, winnerText } from '../lib/live-strip';
import { useDraftStatus } from '../lib/queries';
import { useCurrentCopy, useReadFrom, useStripRoute, type ReadFrom } from '../lib/read-from';
import { trpc } from '../lib/trpc';

/*
 * The draft's state at the top of a page, before and after round one (a lazy chunk with the live strip,
 * components/draft-strip.tsx): the countdown chip before the start, the Final card once round one is complete.
 */

/** The slot at the top of the page: the countdown chip before the start, the Final card after round one. */
export function DraftStateBanner() {
  const route = useStripRoute();
  const status = useDraftStatus().data;
  const phase = status ? draftPhase(status) : null;
  // On the Leaderboard the stream brings the final standings: wait for them before reading.
  const finalRead = useReadFrom(phase === null ? undefined : phase === 'final', route.onLeaderboard ? STANDINGS_PUSH_WAIT_MS : 0);
  if (!route.shown || !status) return null;
  if (phase === 'before') return <CountdownChip deadline={status.deadline} />;
  if (phase === 'final') return <FinalCard full={route.onLeaderboard || route.onGroupStandings} read={finalRead} groupId={route.groupId} />;
  return null;
}

function Slot({ children }: { children: React.ReactNode }) {
  return (
    <Box width="100%" maxW="3xl" mx="auto" px={{ base: '4', md: '6' }} pt={{ base: '3', md: '5' }}>
      {children}
    </Box>
  );
}

/** 'Picks lock Thu Apr 29 · 8 PM ET · 159 d', recounted every half minute (hours and minutes on the last day). */
function CountdownChip({ deadline }: { deadline: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Slot>
      <Flex justify="center">
        <HStack bg="navy.900" color="white" borderRadius="full" px="3.5" py="1" fontSize={{ base: 'xs', sm: 'sm' }} fontWeight="semibold" gap="2" role="timer" aria-live="off">
          <Box w="2" h="2" borderRadius="full" bg="gold.400" aria-hidden />
          <span>{countdownText(deadline, now)}</span>
        </HStack>
      </Flex>
    </Slot>
  );
}

/**
 * Round one is over: the winner, the podium and the caller's final place. On a group's pages they are the
 * group's (its standings' first page, the group named), for members; elsewhere the global standings' first
 * page (the Leaderboard's own, shared in the cache) and its `me`. The full card with the podium is on the
 * Leaderboard and a group's standings; the other pages carry the same news in two lines. Standings read
 * before the end (a page visited mid-draft) are never shown as final: only a copy from after it.
 */
function FinalCard({ full, read, groupId }: { full: boolean; read: ReadFrom; groupId: number | null }) {
  // A group's card only for its members (the group page has read the membership; a non-member reads the global card).
  const membership = trpc.groups.membership.useQuery(groupId ? { group_id: groupId } : skipToken, { staleTime: STALE_TIMES.groupPage });
  const group = trpc.groups.get.useQuery(groupId && membership.data?.is_member ? { group_id: groupId } : skipToken, { staleTime: STALE_TIMES.groupPage });
  const ofGroup = groupId !== null && membership.data?.is_member === true;
  if (groupId !== null && membership.isPending) return null;
  return <FinalCardOf key={ofGroup ? groupId : 'global'} full={full} read={read} groupId={ofGroup ? groupId : null} groupName={ofGroup ? group.data?.name : undefined} />;
}

function FinalCardOf({ full, read, groupId, groupName }: { full: boolean; read: ReadFrom; groupId: number | null; groupName?: string }) {
  const input = groupId === null ? GLOBAL_FIRST_PAGE : { ...GLOBAL_FIRST_PAGE, group_id: groupId };
  const board = trpc.leaderboard.group.useQuery(input, { staleTime: STALE_TIMES.leaderboard, enabled: false });
  // Globally, the caller's entries in groups (a player may have played only there).
  const groups = trpc.leaderboard.myGroups.useQuery(undefined, { staleTime: STALE_TIMES.leaderboard, enabled: groupId === null });
  const groupEntries = groups.data?.groups.filter((g) => g.standing !== null).length ?? 0;
  const current = useCurrentCopy(board, read);
  const data = current ? board.data : undefined;
  return (
    <Slot>
      <Box as="section" aria-label="Round one final" bg="navy.900" color="white" borderRadius="xl" boxShadow="md" px={{ base: '4', md: '5' }} py={full ? '4' : '3'}>
        <Flex align="center" columnGap="3" rowGap="1" wrap="wrap" fontSize="sm">
          <Badge bg="gold.400" color="navy.900" fontWeight="black" letterSpacing="wider">
            ROUND ONE FINAL
          </Badge>
          <Text color="navy.100">Round one is complete{groupName ? ` · ${groupName}` : ''}</Text>
        </Flex>
        {data ? (
          <>
            <Text mt="2" fontSize={full ? 'xl' : 'md'} fontWeight="black">
              <Box as="span" display="inline-block" color="gold.400" verticalAlign="-0.15em" mr="2">
                <TrophyIcon />
              </Box>
              {winnerText(data.rankings)}
            </Text>
            {full && <Podium rows={podium(data.rankings)} />}
            <Flex mt="2" columnGap="3" wrap="wrap" align="baseline" fontSize="sm">
              <Text fontWeight="semibold" color="gold.400">
                {finalPlace(data.me, data.entries, groupId === null ? { groupEntries } : { groupName: groupName ?? 'this group' })}
              </Text>
              {!full && (
                <Link to={groupId === null ? '/leaderboard' : `/groups/${groupId}/picks`} style={{ textDecoration: 'underline' }}>
                  See the podium
                </Link>
              )}
            </Flex>
          </>
        ) : (
          <Text mt="2" fontSize="sm" color="navy.100">
            {board.isError ? 'The final standings could not be loaded.' : 'Counting the final standings...'}
          </Text>
        )}
      </Box>
    </Slot>
  );
}

/** Second, first, third side by side (first the tallest); in standings order for a screen reader. */
function Podium({ rows }: { rows: LeaderboardRow[] }) {
  if (rows.length === 0) return null;
  const heights = ['20', '14', '10'];
  const order = [2, 1, 3];
  return (
    <Flex as="ol" aria-label="Podium" listStyleType="none" mt="3" gap={{ base: '2', md: '3' }} align="flex-end">
      {rows.map((row, i) => (
        <Flex as="li" key={row.participant_id} order={order[i]} flex="1" minW="0" direction="column" align="center" gap="1">
          <Text fontWeight="bold" truncate maxW="100%" fontSize={{ base: 'sm', md: 'md' }}>
            {row.participant_name}
          </Text>
          <Text fontSize="xs" color="navy.100">
            {plural(row.correct_picks, 'hit')}
          </Text>
          <Flex h={heights[i]} w="100%" bg={i === 0 ? 'gold.400' : 'navy.700'} color={i === 0 ? 'navy.900' : 'white'} borderTopRadius="md" align="center" justify="center" fontWeight="black" fontSize="lg">
            {ordinal(row.rank)}
          </Flex>
        </Flex>
      ))}
    </Flex>
  );
}

/** A trophy (decorative: the text says 'Winner'); an inline SVG, where an emoji would depend on the device's fonts. */
function TrophyIcon() {
  return (
    <svg width="1em" height="1em" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden focusable="false">
      <path d="M8 21h8M12 17v4M7 4h10v5a5 5 0 0 1-10 0V4z" />
      <path d="M7 6H4v2a3 3 0 0 0 3 3M17 6h3v2a3 3 0 0 1-3 3" />
    </svg>
  );
}
