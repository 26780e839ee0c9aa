import { useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Box, Flex, HStack, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { skipToken } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router-dom';
import { STALE_TIMES, STANDINGS_PUSH_WAIT_MS } from '@first-round/shared/constants';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import { trpc } from '../lib/trpc';
import { showStrip } from '../lib/draft-live';
import { jitterDelay } from '../lib/live-refresh';
import {
  countdownText,
  draftPhase,
  finalPlace,
  GLOBAL_FIRST_PAGE,
  ordinal,
  playerLine,
  podium,
  recentPicks,
  stripRoute,
  teamAt,
  winnerText,
  type StripPick,
} from '../lib/live-strip';
import { OnTheClock, TeamName } from './team-name';
import { useDraftStatus, useField, usePlayers } from '../lib/queries';
import { ofAllEntries } from '@first-round/shared/field-words';
import { plural } from '@first-round/shared/words';

/*
 * Draft night inside the app, on Leaderboard, My Picks, the group pages and player selection (a lazy
 * chunk, loaded with the live layer). Three states follow the draft: before the start a countdown chip,
 * while round one runs a sticky strip with the latest pick and a ticker of the ones before it, and once
 * round one is complete a Final card (winner, podium, your place). Everything is read from caches the live
 * layer keeps current: draft.status and the big board are patched from each change with no request; the
 * caller's picks and the final standings are read once, not on every pick (see useReadFrom).
 */

/** Picks in the ticker, after the one the strip leads with. */
const TICKER_PICKS = 5;

function useStripRoute() {
  const { pathname, search } = useLocation();
  return useMemo(() => stripRoute(pathname, search), [pathname, search]);
}


/**
 * For an answer that stays put while `on` holds (the picks once locked, the standings once final): `at`,
 * the moment from which a copy counts as current, and `due`, whether to read it now if the copy is older.
 * A tab that saw `on` begin (the start, the end of round one) counts from that moment and waits for its
 * jitter plus `wait` before reading, so thousands of open pages do not read in the same instant and a page
 * the stream brings is not read at all. A tab whose first look found `on` true reads at once if it holds no
 * copy; any copy it holds was read since (the cache starts empty at each sign-in).
 */
function useReadFrom(on: boolean | undefined, wait = 0): { at: number | null; due: boolean } {
  const [state, setState] = useState<{ at: number | null; due: boolean }>({ at: null, due: false });
  const sawOff = useRef(false);
  useEffect(() => {
    if (on === undefined) return;
    if (!on) {
      sawOff.current = true;
      setState({ at: null, due: false });
      return;
    }
    if (!sawOff.current) {
      setState({ at: 0, due: true });
      return;
    }
    const at = Date.now();
    setState({ at, due: false });
    const timer = setTimeout(() => setState({ at, due: true }), jitterDelay() + wait);
    return () => clearTimeout(timer);
    // Only `on` restarts this: `wait` is read when `on` begins, and a later change of page keeps the wait.
  }, [on]);
  return state;
}

/**
 * The players in the caller's entry: the group's on a group page (when that page has read them), the
 * global entry elsewhere. Picks are locked once the draft starts, so the global entry is read once from
 * then on and not again on every pick (the live layer refreshes picks.mine only where a page shows it).
 */
function useEntry(started: boolean | undefined, groupId: number | null): ReadonlySet<number> | null {
  const read = useReadFrom(started);
  // Read by the group page itself; only looked up here (a non-member's read would be refused).
  const group = trpc.picks.mine.useQuery(groupId ? { group_id: groupId } : skipToken, { enabled: false });
  const global = trpc.picks.mine.useQuery(undefined, { staleTime: STALE_TIMES.groupPage, enabled: false });
  const current = read.at !== null && global.data !== undefined && global.dataUpdatedAt >= read.at;
  const { refetch } = global;
  useEffect(() => {
    // Joins a read already under way (the page's own) rather than cancelling it.
    if (read.due && !current) void refetch({ cancelRefetch: false });
  }, [read.due, current, refetch]);
  const picks = (groupId && group.data?.picks) || (current ? global.data?.picks : undefined);
  return useMemo(() => (picks ? new Set(picks) : null), [picks]);
}

/** The sticky slot under the header: the live strip while round one runs (nothing in the other states). */
export function LiveStrip() {
  const route = useStripRoute();
  const status = useDraftStatus().data;
  const phase = status ? draftPhase(status) : null;
  useEffect(() => (route.shown ? showStrip() : undefined), [route.shown]);
  const entry = useEntry(phase === null ? undefined : phase !== 'before', route.groupId);
  const players = usePlayers({ enabled: phase === 'live' && route.shown });
  const order = status?.round_one_order;
  const picks = useMemo(() => (players.data && order ? recentPicks(players.data, entry, TICKER_PICKS + 1, order) : null), [players.data, entry, order]);
  // Who picked whom (the global field): locked at the start, so read once from then on, after this tab's jitter.
  const fieldRead = useReadFrom(phase === null ? undefined : phase !== 'before');
  const field = useField(fieldRead.due && route.shown && phase === 'live');
  const shares = useMemo(() => (field.data ? new Map(field.data.map((r) => [r.player_id, r.share])) : null), [field.data]);
  if (!route.shown || !status || phase !== 'live' || !picks) return null;
  const [latest, ...earlier] = picks;
  // A player no entry picked is not in the field: 0 %.
  const latestShare = latest && shares ? (shares.get(latest.player.id) ?? 0) : undefined;
  return (
    <Box as="section" aria-label="Draft live" bg="navy.800" color="white" borderTopWidth="1px" borderColor="navy.700">
      <Stack maxW="5xl" mx="auto" px={{ base: '3', md: '6' }} py="2" gap="1">
        <Flex role="status" align="center" columnGap="2" rowGap="0.5" wrap="wrap" fontSize="sm" lineHeight="short">
          <Badge bg="red.600" color="white" fontWeight="black" letterSpacing="wider" gap="1.5" flexShrink={0}>
            <Box as="span" w="2" h="2" borderRadius="full" bg="white" _motionSafe={{ animation: 'pulse 1.6s ease-in-out infinite' }} aria-hidden />
            LIVE
          </Badge>{' '}
          {latest ? (
            <LatestPick pick={latest} share={latestShare} />
          ) : (
            <Text as="span" fontWeight="bold">
              The draft has started · <OnTheClock slot={1} team={teamAt(status.round_one_order, 1)} />
            </Text>
          )}
        </Flex>
        {earlier.length > 0 && <Ticker picks={earlier} />}
      </Stack>
    </Box>
  );
}

/**
 * 'Pick 14 · IND · Tyler Warren, TE, Penn State · your entry ✓ · 41 % of everyone': the slot, the team that
 * made the pick (its full name as the title), the player. Each part is one text node (a new pick replaces
 * the pick number whole, never digit by digit), with real spaces between the parts so the text reads as one
 * sentence (stripText in lib/live-strip.ts). The share of all entries holding the player (the global field,
 * labelled as such) comes last, once it has been read.
 */
function LatestPick({ pick, share }: { pick: StripPick; share?: number }) {
  // A separator travels with the part after it, so a line never ends on a dot when the headline wraps.
  const dot = (
    <Text as="span" color="navy.200">
      ·
    </Text>
  );
  return (
    <>
      <Text as="span" fontWeight="black" color="gold.400" whiteSpace="nowrap">
        {`Pick ${pick.slot}`}
      </Text>{' '}
      {pick.team && (
        <>
          <Text as="span" fontWeight="black" color="gold.400" whiteSpace="nowrap">
            {dot} <TeamName team={pick.team} />
          </Text>{' '}
        </>
      )}
      <Text as="span" fontWeight="semibold">
        {dot} {playerLine(pick.player)}
      </Text>
      {pick.mine && (
        <>
          {' '}
          <Text as="span" whiteSpace="nowrap">
            {dot}{' '}
            <Badge bg="gold.400" color="navy.900" fontWeight="bold">
              your entry ✓
            </Badge>
          </Text>
        </>
      )}
      {share !== undefined && (
        <>
          {' '}
          <Text as="span" whiteSpace="nowrap" color="navy.100">
            {dot} {ofAllEntries(share)}
          </Text>
        </>
      )}
    </>
  );
}

/** The picks before the latest, newest first ('Pick 2 · JAX · Travis Hunter, CB/WR': tickerText), on one line that scrolls sideways on a phone. */
function Ticker({ picks }: { picks: StripPick[] }) {
  return (
    <Flex as="ol" aria-label="Earlier picks" listStyleType="none" gap="4" fontSize="xs" color="navy.100" overflowX="auto" whiteSpace="nowrap" css={{ scrollbarWidth: 'none' }}>
      {picks.map((p) => (
        <Box as="li" key={p.slot} flexShrink={0} _motionSafe={{ animation: 'fade-in 0.4s ease-out' }}>
          <Text as="span" fontWeight="bold" color="navy.200">
            Pick {p.slot}
            {p.team && (
              <>
                {' · '}
                <TeamName team={p.team} />
              </>
            )}
          </Text>
          {' · '}
          {p.player.player_name}, {p.player.position}
          {p.mine && (
            <Text as="span" color="gold.400" fontWeight="bold">
              {' '}
              ✓<VisuallyHidden> your entry</VisuallyHidden>
            </Text>
          )}
        </Box>
      ))}
    </Flex>
  );
}

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
function FinalCard({ full, read, groupId }: { full: boolean; read: { at: number | null; due: boolean }; groupId: number | null }) {
  // A group's card only for its members (the group page has read the membership; a non-member reads the global card).
  const membership = trpc.groups.membership.useQuery(groupId ? { group_id: groupId } : skipToken, { staleTime: STALE_TIMES.groupPage });
  const group = trpc.groups.get.useQuery(groupId && membership.data?.is_member ? { group_id: groupId } : skipToken, { staleTime: STALE_TIMES.groupPage });
  const ofGroup = groupId !== null && membership.data?.is_member === true;
  if (groupId !== null && membership.isPending) return null;
  return <FinalCardOf key={ofGroup ? groupId : 'global'} full={full} read={read} groupId={ofGroup ? groupId : null} groupName={ofGroup ? group.data?.name : undefined} />;
}

function FinalCardOf({ full, read, groupId, groupName }: { full: boolean; read: { at: number | null; due: boolean }; groupId: number | null; groupName?: string }) {
  const input = groupId === null ? GLOBAL_FIRST_PAGE : { ...GLOBAL_FIRST_PAGE, group_id: groupId };
  const board = trpc.leaderboard.group.useQuery(input, { staleTime: STALE_TIMES.leaderboard, enabled: false });
  // Globally, the caller's entries in groups (a player may have played only there).
  const groups = trpc.leaderboard.myGroups.useQuery(undefined, { staleTime: STALE_TIMES.leaderboard, enabled: groupId === null });
  const groupEntries = groups.data?.groups.filter((g) => g.standing !== null).length ?? 0;
  const current = read.at !== null && board.data !== undefined && board.dataUpdatedAt >= read.at;
  const { refetch } = board;
  useEffect(() => {
    // Joins a read already under way (the page's own) rather than cancelling it.
    if (read.due && !current) void refetch({ cancelRefetch: false });
  }, [read.due, current, refetch]);
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
