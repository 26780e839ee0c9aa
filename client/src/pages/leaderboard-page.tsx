import { Badge, Box, Flex, Stack, Text } from '@chakra-ui/react';
import { GLOBAL_GROUP_ID, LEADERBOARD_RETRIES, STALE_TIMES } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import { EmptyState, Page } from '../components/page';
import { FullPageMessage } from '../components/full-page-message';
import { shouldRetry } from '../lib/query-client';
import { trpc } from '../lib/trpc';

export function LeaderboardTable({ rows, me }: { rows: LeaderboardRow[]; me?: string }) {
  return (
    <Box bg="white" borderRadius="xl" borderWidth="1px" borderColor="gray.200" overflow="hidden" boxShadow="sm">
      <Flex px="4" py="2" bg="navy.900" color="navy.100" fontSize="xs" fontWeight="bold" textTransform="uppercase" letterSpacing="wider" aria-hidden>
        <Text w="12">Rank</Text>
        <Text flex="1">Player</Text>
        <Text textAlign="right">Correct</Text>
      </Flex>
      <Stack as="ol" gap="0" listStyleType="none" aria-label="Rankings">
        {rows.map((row) => (
          <Flex as="li" key={row.participant_id} px="4" py="3" align="center" borderTopWidth="1px" borderColor="gray.100" bg={row.participant_id === me ? 'navy.50' : row.rank === 1 && !row.busted ? 'gold.400/15' : undefined}>
            <Text w="12" fontWeight="black" fontSize="lg" color="navy.900">
              <span aria-label={`Rank ${row.rank}`}>{row.rank}</span>
            </Text>
            <Flex flex="1" minW="0" align="center" gap="2">
              <Text fontWeight="semibold" truncate>
                {row.participant_name}
              </Text>
              {row.participant_id === me && (
                <Badge bg="navy.900" color="white" size="sm" flexShrink={0}>
                  You
                </Badge>
              )}
              {row.busted && (
                <Badge colorPalette="red" variant="solid" size="sm" flexShrink={0}>
                  Busted
                </Badge>
              )}
            </Flex>
            <Text fontWeight="black" fontSize="lg" color={row.busted ? 'gray.400' : 'turf.600'} textAlign="right" aria-label={`${row.correct_picks} correct picks`}>
              {row.correct_picks}
            </Text>
          </Flex>
        ))}
      </Stack>
    </Box>
  );
}

export function LeaderboardPage() {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: STALE_TIMES.profile });
  const board = trpc.leaderboard.group.useQuery(
    { group_id: GLOBAL_GROUP_ID },
    { staleTime: STALE_TIMES.leaderboard, retry: shouldRetry(LEADERBOARD_RETRIES) },
  );
  return (
    <Page title="Global Leaderboard" subtitle="See how you stack up against all players">
      {board.isPending ? (
        <FullPageMessage>Loading the leaderboard...</FullPageMessage>
      ) : board.isError ? (
        <EmptyState>
          <Text role="alert">{MESSAGES.leaderboardLoadFailed}</Text>
        </EmptyState>
      ) : !board.data.draft_started ? (
        <EmptyState>{MESSAGES.leaderboardBeforeStart}</EmptyState>
      ) : board.data.rankings.length === 0 ? (
        <EmptyState>{MESSAGES.leaderboardEmpty}</EmptyState>
      ) : (
        <Stack gap="3">
          <Text color="gray.600" fontSize="sm">
            {board.data.entries} {board.data.entries === 1 ? 'entry' : 'entries'}, {board.data.alive} still alive
          </Text>
          <LeaderboardTable rows={board.data.rankings} me={me.data?.participant_id} />
        </Stack>
      )}
    </Page>
  );
}
