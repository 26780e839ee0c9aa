import { Flex, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { trpc } from '../../lib/trpc';
import { pastSeasons, winnerLine } from './season-words';

/** Under the global leaderboard: one link per closed season to its final standings; nothing before the first. */
export function PastSeasonsLinks() {
  const seasons = trpc.seasons.list.useQuery(undefined, { staleTime: STALE_TIMES.groupLists });
  const past = pastSeasons(seasons.data);
  if (past.length === 0) return null;
  return (
    <Flex as="nav" aria-label="Past seasons" mt="8" gap="2" direction="column">
      <Text as="h2" fontSize="md" fontWeight="bold" color="navy.900">
        Past seasons
      </Text>
      {past.map((s) => (
        <Link key={s.year} to={`/leaderboard/seasons/${s.year}`}>
          <Text as="span" fontSize="sm" color="navy.900" textDecoration="underline">
            {winnerLine(s) ?? `${s.year}: no entries`} <span aria-hidden>→</span>
          </Text>
        </Link>
      ))}
    </Flex>
  );
}
