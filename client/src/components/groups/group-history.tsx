import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { errorMessage, trpc } from '../../lib/trpc';
import { pastSeasons, winnerLine } from '../seasons/season-words';

/**
 * The group's History: each closed season it took part in, its winner, and a link to the final standings
 * with everyone's picks ✓/✗. Past seasons never change, so they are read once per visit at most.
 */
export function GroupHistory({ groupId }: { groupId: number }) {
  const seasons = trpc.seasons.list.useQuery({ group_id: groupId }, { staleTime: STALE_TIMES.groupLists });
  const past = pastSeasons(seasons.data);
  return (
    <Box as="section" aria-labelledby="history-heading">
      <Text as="h2" id="history-heading" fontSize="lg" fontWeight="bold" color="navy.900" mb="2">
        History
      </Text>
      {seasons.isError ? (
        <Text role="alert" fontSize="sm" color="red.700">
          {errorMessage(seasons.error, 'Could not load past seasons')}
        </Text>
      ) : seasons.isPending ? (
        <Text fontSize="sm" color="gray.600">
          Loading past seasons...
        </Text>
      ) : past.length === 0 ? (
        <Text fontSize="sm" color="gray.600">
          {MESSAGES.noPastSeasons}
        </Text>
      ) : (
        <Stack as="ul" gap="0" listStyleType="none" aria-label="Past seasons" bg="white" borderRadius="xl" borderWidth="1px" borderColor="gray.200" overflow="hidden">
          {past.map((s, i) => (
            <Flex as="li" key={s.year} px="4" py="3" gap="3" align="center" justify="space-between" wrap="wrap" borderTopWidth={i === 0 ? '0' : '1px'} borderColor="gray.100">
              <Box>
                <Text fontWeight="semibold">{winnerLine(s) ?? `${s.year}: no entries`}</Text>
                {s.my_rank !== null && (
                  <Text fontSize="sm" color="gray.700">
                    You finished #{s.my_rank} of {s.entries}
                  </Text>
                )}
              </Box>
              <Link to={`/groups/${groupId}/seasons/${s.year}`}>
                <Text as="span" fontSize="sm" fontWeight="bold" color="navy.900" textDecoration="underline">
                  {s.year} final standings <span aria-hidden>→</span>
                </Text>
              </Link>
            </Flex>
          ))}
        </Stack>
      )}
    </Box>
  );
}
