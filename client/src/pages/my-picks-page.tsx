import { useEffect, useMemo } from 'react';
import { Badge, Box, HStack, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { compareByDraftOrder } from '@first-round/shared/player-filter';
import { EmptyState, Page } from '../components/page';
import { outcomeStyle, PlayerRowContent } from '../components/player-row';
import { FullPageMessage } from '../components/full-page-message';
import { PrimaryButton } from '../components/form-bits';
import { draftSnapshot, outcomeOf } from '../lib/draft-snapshot';
import { notify } from '../lib/toaster';
import { trpc } from '../lib/trpc';

export function MyPicksPage() {
  const players = trpc.players.list.useQuery(undefined, { staleTime: STALE_TIMES.players });
  const draft = trpc.draft.status.useQuery(undefined, { staleTime: STALE_TIMES.draftStatus });
  const picks = trpc.picks.mine.useQuery(undefined, { staleTime: STALE_TIMES.groupPage });
  const failed = players.isError || draft.isError || picks.isError;

  useEffect(() => {
    if (failed) notify('error', 'Failed to load your picks');
  }, [failed]);

  const started = draft.data?.draftHasStarted ?? false;
  const mine = useMemo(() => {
    // Without the board or the draft status the page cannot say what the picks are: show none.
    if (failed || !players.data || !picks.data) return [];
    const ids = new Set(picks.data.picks);
    const list = players.data.filter((p) => ids.has(p.id));
    return started ? list.sort(compareByDraftOrder) : list;
  }, [failed, players.data, picks.data, started]);

  if (!failed && (players.isPending || draft.isPending || picks.isPending)) return <FullPageMessage>Loading your picks...</FullPageMessage>;
  const snapshot = started ? draftSnapshot(draft.data, players.data) : null;
  const outcomes = new Map(mine.map((p) => [p.id, snapshot ? outcomeOf(p, snapshot) : null]));
  const count = (o: string) => [...outcomes.values()].filter((v) => v === o).length;
  const hits = count('hit');
  const misses = count('miss');
  const pending = count('pending');

  return (
    <Page
      title="Edit Picks"
      subtitle={
        started
          ? 'The draft has started and your picks are locked. ✓ means the player went in the first round, ✗ that he did not; the rest are still pending.'
          : 'These are the players you think will be drafted in the 1st Round. They count for the global leaderboard and can be reused in your groups. You can change them until the draft starts.'
      }
    >
      <HStack mb="4" gap="2" wrap="wrap">
        <Badge size="lg" bg="navy.900" color="white" px="3" py="1" borderRadius="full">
          {mine.length} selections
        </Badge>
        {started && mine.length > 0 && (
          <>
            <Badge size="lg" bg="turf.500" color="white" px="3" py="1" borderRadius="full">
              ✓ {hits} drafted in round one
            </Badge>
            <Badge size="lg" bg="gray.200" color="gray.800" px="3" py="1" borderRadius="full">
              {pending} pending
            </Badge>
            {misses > 0 && (
              <Badge size="lg" bg="red.600" color="white" px="3" py="1" borderRadius="full">
                ✗ {misses} missed
              </Badge>
            )}
          </>
        )}
      </HStack>

      {mine.length === 0 ? (
        <EmptyState>{started ? 'You made no picks before the draft started.' : "You haven't picked any players yet."}</EmptyState>
      ) : (
        <Stack as="ul" gap="2" listStyleType="none" aria-label="My picks">
          {mine.map((player) => {
            const outcome = outcomes.get(player.id) ?? null;
            return (
              <Box as="li" key={player.id} px="3" py="2.5" borderRadius="lg" borderWidth="2px" {...outcomeStyle(outcome)}>
                <PlayerRowContent player={player} outcome={outcome} />
              </Box>
            );
          })}
        </Stack>
      )}

      {!started && !failed && (
        <Box position="sticky" bottom="0" mt="6" py="3" bg="gray.50">
          <PrimaryButton asChild width="full">
            <Link to="/select-players">{mine.length > 0 ? 'Edit Picks' : 'Select Players'}</Link>
          </PrimaryButton>
        </Box>
      )}
      {started && (
        <Text mt="6" color="gray.600" fontSize="sm">
          Follow the standings on the <Link to="/leaderboard" style={{ textDecoration: 'underline' }}>Global Leaderboard</Link>.
        </Text>
      )}
    </Page>
  );
}
