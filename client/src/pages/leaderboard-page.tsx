import { useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { Box, Button, Text } from '@chakra-ui/react';
import { GLOBAL_GROUP_ID, LEADERBOARD_RETRIES, STALE_TIMES } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { EmptyState, Page } from '../components/page';
import { FullPageMessage } from '../components/full-page-message';
import { StandingsTable } from '../components/standings-table';
import { shouldRetry } from '../lib/query-client';
import { trpc } from '../lib/trpc';

/** Rows per page of the global standings (it can hold many thousands of entries). */
const PAGE_SIZE = 100;

export function LeaderboardPage() {
  const [limit, setLimit] = useState(PAGE_SIZE);
  const board = trpc.leaderboard.group.useQuery(
    { group_id: GLOBAL_GROUP_ID, limit },
    { staleTime: STALE_TIMES.leaderboard, retry: shouldRetry(LEADERBOARD_RETRIES), placeholderData: keepPreviousData },
  );
  const data = board.data;
  let content;
  if (board.isPending) content = <FullPageMessage>Loading the leaderboard...</FullPageMessage>;
  else if (!data)
    content = (
      <EmptyState>
        <Text role="alert">{MESSAGES.leaderboardLoadFailed}</Text>
      </EmptyState>
    );
  else if (!data.draft_started) content = <EmptyState>{MESSAGES.leaderboardBeforeStart}</EmptyState>;
  else if (data.rankings.length === 0) content = <EmptyState>{MESSAGES.leaderboardEmpty}</EmptyState>;
  else {
    const more = data.entries - data.rankings.length;
    content = (
      <StandingsTable
        rows={data.rankings}
        me={data.me}
        entries={data.entries}
        alive={data.alive}
        footer={
          more > 0 && (
            <Box borderTopWidth="1px" borderColor="gray.100" p="3" textAlign="center">
              <Button variant="ghost" color="navy.700" loading={board.isFetching && board.isPlaceholderData} onClick={() => setLimit((n) => n + PAGE_SIZE)}>
                Show more ({more} more)
              </Button>
            </Box>
          )
        }
      />
    );
  }
  return (
    <Page title="Global Leaderboard" subtitle="See how you stack up against all players">
      {content}
    </Page>
  );
}
