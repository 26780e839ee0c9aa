import { useEffect, useMemo } from 'react';
import { Badge, Box, Flex, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { skipToken } from '@tanstack/react-query';
import { STALE_TIMES } from '@first-round/shared/constants';
import { trpc } from '../lib/trpc';
import { showStrip } from '../lib/draft-live';
import { draftPhase, playerLine, recentPicks, teamAt, type StripPick } from '../lib/live-strip';
import { useCurrentCopy, useReadFrom, useStripRoute } from '../lib/read-from';
import { OnTheClock, TeamName } from './team-name';
import { useDraftStatus, useField, usePlayers } from '../lib/queries';
import { ofAllEntries } from '@first-round/shared/field-words';

/*
 * Draft night inside the app, on Leaderboard, My Picks, the group pages and player selection (a lazy
 * chunk, loaded with the live layer). Three states follow the draft: before the start a countdown chip,
 * while round one runs a sticky strip with the latest pick and a ticker of the ones before it, and once
 * round one is complete a Final card (winner, podium, your place). Everything is read from caches the live
 * layer keeps current: draft.status and the big board are patched from each change with no request; the
 * caller's picks and the final standings are read once, not on every pick (useReadFrom, lib/read-from.ts).
 * The countdown chip and the Final card: components/draft-banner.tsx.
 */

export { DraftStateBanner } from './draft-banner';

/** Picks in the ticker, after the one the strip leads with. */
const TICKER_PICKS = 5;

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
  const current = useCurrentCopy(global, read);
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

