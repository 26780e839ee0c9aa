import { lazy, Suspense, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { Badge, Box, Button, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { STALE_TIMES } from '@first-round/shared/constants';
import { formatWhen } from '@first-round/shared/deadline';
import { MESSAGES } from '@first-round/shared/messages';
import type { DraftStatus, PlayerDto } from '@first-round/shared/schemas';
import { slotOnTheClock, teamAt } from '@first-round/shared/teams';
import { emptySlotWords } from '@first-round/shared/draft-words';
import { useAuth } from '../auth/auth-context';
import { Card, EmptyState, Page } from '../components/page';
import { FullPageMessage } from '../components/full-page-message';
import { StandingsTable, standingsSummary } from '../components/standings-table';
import { OnTheClock, TeamName } from '../components/team-name';
import { draftPhase, type DraftPhase } from '../lib/draft-phase';
import { useDraftStatus, usePlayers } from '../lib/queries';
import { errorKind, trpc } from '../lib/trpc';

// The live layer (components/draft-live.tsx) on the spectators' stream, for a visitor who is not signed in
// (a player's own is the app shell's); and the viewing delay's chooser and badge, as on the strip's pages.
// Both lazy, outside the first load, and blank while they load.
const DraftLive = lazy(async () => ({ default: (await import('../components/draft-live')).DraftLive }));
const ViewingDelayBar = lazy(async () => ({ default: (await import('../components/viewing-delay-bar')).ViewingDelayBar }));

/** The page's heading by where the draft is: live words while it runs, final ones once round one is over. */
const LIVE_PAGE_WORDS: Record<DraftPhase, { title: string; subtitle: string }> = {
  before: { title: 'Draft night, live', subtitle: "The top 100 and round one's picks as they land. Read-only." },
  live: { title: 'Draft night, live', subtitle: "The top 100 and round one's picks as they land. Read-only." },
  final: { title: 'Draft night: Final', subtitle: "Round one is complete: the final top 100 and round one's picks. Read-only." },
};

/** The call to play: before the lock, join this year's game; once picks are locked, next year's board. */
export function callToPlay(phase: DraftPhase): string {
  return phase === 'before' ? 'Join the game' : 'Sign up — next year’s board opens after the draft';
}

/**
 * /live, for anyone: the global top 100 and round one's board, read-only, kept current while the draft
 * runs, with one call to play. What it shows is what a signed-in player without an entry sees (the server's
 * leaderboard.public: nothing before the start); PUBLIC_STANDINGS=false leaves only the call to play.
 * It follows the draft as every live page does: a signed-out visitor's live layer holds the spectators'
 * stream (each change, and the top 100 after it), with the same reconnects, offline banner and viewing delay.
 */
export function LivePage() {
  const { isSignedIn } = useAuth();
  const status = useDraftStatus();
  const standings = trpc.leaderboard.public.useQuery(undefined, { staleTime: STALE_TIMES.leaderboard, retry: (count, error) => errorKind(error) !== 'NOT_FOUND' && count < 2 });
  const players = usePlayers();

  if (status.isPending) return <FullPageMessage>Loading the draft...</FullPageMessage>;
  const phase = status.data ? draftPhase(status.data) : 'before';
  const off = errorKind(standings.error) === 'NOT_FOUND';

  return (
    <Page title={LIVE_PAGE_WORDS[phase].title} subtitle={LIVE_PAGE_WORDS[phase].subtitle} maxW="5xl">
      {!off && (
        <Suspense fallback={null}>
          {!isSignedIn && <DraftLive spectator />}
          <ViewingDelayBar place="top" always />
        </Suspense>
      )}
      <Stack gap="5">
        <CallToPlay phase={phase} deadline={status.data?.deadline} signedIn={isSignedIn} off={off} />
        {!off && (
          <Box display="grid" gridTemplateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }} gap="5" alignItems="start">
            <Card as="section" aria-labelledby="top-100-heading" minW="0">
              <Heading as="h2" id="top-100-heading" size="lg" color="navy.900" mb="3">
                Top 100
              </Heading>
              {standings.isPending ? (
                <Text color="gray.600" role="status">
                  Loading the standings...
                </Text>
              ) : !standings.data ? (
                <Text role="alert">{MESSAGES.leaderboardLoadFailed}</Text>
              ) : !standings.data.draft_started ? (
                <EmptyState>{MESSAGES.leaderboardBeforeStart}</EmptyState>
              ) : standings.data.entries === 0 ? (
                <EmptyState>{MESSAGES.leaderboardEmpty}</EmptyState>
              ) : (
                <Stack gap="2">
                  <Text color="gray.700" fontSize="sm" fontWeight="semibold" aria-live="polite">
                    {standingsSummary(standings.data.entries, standings.data.alive, phase === 'final')}
                  </Text>
                  <StandingsTable rows={standings.data.rankings} me={null} label="Top 100" />
                </Stack>
              )}
            </Card>
            {status.data && <RoundOneBoard status={status.data} board={players.data} />}
          </Box>
        )}
      </Stack>
      {!off && (
        <Suspense fallback={null}>
          <ViewingDelayBar place="end" always />
        </Suspense>
      )}
    </Page>
  );
}

function CallToPlay({ phase, deadline, signedIn, off }: { phase: DraftPhase; deadline: string | undefined; signedIn: boolean; off: boolean }) {
  if (signedIn) {
    return (
      <Flex bg="navy.900" color="white" borderRadius="xl" px="4" py="3" align="center" justify="space-between" gap="3" wrap="wrap">
        <Text fontWeight="semibold">You're playing: your own entry and your groups are on your leaderboard.</Text>
        <Button asChild size="lg" bg="gold.400" color="navy.900" fontWeight="black" _hover={{ bg: 'gold.500' }}>
          <Link to="/leaderboard">Your leaderboard</Link>
        </Button>
      </Flex>
    );
  }
  return (
    <Stack bg="navy.900" color="white" borderRadius="xl" px="4" py="4" gap="3" as="section" aria-label="Play First Round">
      {off && (
        <Text fontWeight="bold" role="status">
          {MESSAGES.publicStandingsOff}
        </Text>
      )}
      <Text>
        {phase === 'before'
          ? `Pick who goes in round one${deadline ? ` before picks lock ${formatWhen(deadline)}` : ''}, then watch every pick land.`
          : 'Picks are locked for this year. Sign up now and your account is ready when next year’s board opens.'}
      </Text>
      <Flex gap="3" align="center" wrap="wrap">
        {/* Gold on navy, as the landing's own call; the longer words wrap on a phone. */}
        <Button asChild size="lg" bg="gold.400" color="navy.900" fontWeight="black" _hover={{ bg: 'gold.500' }} whiteSpace="normal" h="auto" minH="11" py="2" maxW="full" textAlign="start">
          <Link to="/sign-up">{callToPlay(phase)}</Link>
        </Button>
        <Text fontSize="sm">
          Already playing?{' '}
          <Link to="/sign-in" style={{ textDecoration: 'underline', fontWeight: 600 }}>
            Sign in
          </Link>
        </Text>
      </Flex>
    </Stack>
  );
}

/** Round one's slots: the team holding each and the player taken there, the slot on the clock marked. */
function RoundOneBoard({ status, board }: { status: DraftStatus; board: readonly PlayerDto[] | undefined }) {
  const taken = useMemo(() => new Map((board ?? []).filter((p) => p.draft_round === 1 && p.draft_pick !== null).map((p) => [p.draft_pick!, p])), [board]);
  const clock = status.draftHasStarted && !status.round_one_complete ? slotOnTheClock(taken.keys(), status.round_one_picks) : null;
  const slots = Array.from({ length: status.round_one_picks }, (_, i) => i + 1);
  return (
    <Card as="section" aria-labelledby="round-one-heading" minW="0">
      <Heading as="h2" id="round-one-heading" size="lg" color="navy.900" mb="1">
        Round one
      </Heading>
      {clock !== null && (
        <Text color="turf.700" fontWeight="bold" fontSize="sm" mb="2" aria-live="polite">
          <OnTheClock slot={clock} team={teamAt(status.round_one_order, clock)} />
        </Text>
      )}
      <Stack as="ol" listStyleType="none" gap="0" divideY="1px" divideColor="gray.100" aria-label="Round one picks" fontSize="sm">
        {slots.map((slot) => {
          const player = taken.get(slot);
          const team = teamAt(status.round_one_order, slot);
          return (
            <Flex as="li" key={slot} py="1.5" gap="2" align="baseline" data-slot={slot} bg={slot === clock ? 'turf.50' : undefined}>
              <Text fontWeight="black" color="navy.900" w="7" flexShrink={0} textAlign="right">
                {slot}
              </Text>
              <Text color="gray.600" w="10" flexShrink={0}>
                {team ? <TeamName team={team} /> : '—'}
              </Text>
              <Box flex="1" minW="0">
                {player ? (
                  <Text fontWeight="semibold" color="navy.900" wordBreak="break-word">
                    {player.player_name}{' '}
                    <Text as="span" color="gray.600" fontWeight="normal">
                      {player.position} · {player.school}
                    </Text>
                  </Text>
                ) : slot === clock ? (
                  <Badge bg="turf.700" color="white" size="sm">
                    On the clock
                  </Badge>
                ) : (
                  <Text color="gray.600">{emptySlotWords(status.round_one_complete)}</Text>
                )}
              </Box>
            </Flex>
          );
        })}
      </Stack>
    </Card>
  );
}
