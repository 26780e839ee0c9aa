import { Badge, Box, Flex, Stack, Text } from '@chakra-ui/react';
import { versusBenchmark } from '@first-round/shared/benchmark-entries';
import type { BenchmarkRowDto, LeaderboardRow } from '@first-round/shared/schemas';
import { plural } from '../lib/standings-text';
import { EntryStateBadge } from './standings-table';

// Beside the caller's entry, said of the benchmark (it is not ranked): never 'You are behind' to the #1 entry.
const VERSUS = { ahead: 'You have more hits', level: 'As many hits as you', behind: 'It has more hits than you' } as const;

/**
 * The benchmark entries beside the standings (Big board top 32, Chalk 20, Top 10 only): the consensus,
 * scored live like any entry but never ranked, so a player sees whether they beat it. Marked as
 * benchmarks in words; with the caller's entry, each says whether the caller is ahead of it.
 */
export function BenchmarkEntries({ rows, me, final }: { rows: BenchmarkRowDto[]; me: LeaderboardRow | null | undefined; final: boolean }) {
  if (rows.length === 0) return null;
  return (
    <Box as="section" aria-labelledby="benchmarks-h" bg="white" borderWidth="1px" borderColor="gray.200" borderRadius="xl" px={{ base: '3', md: '4' }} py="3">
      <Flex align="baseline" justify="space-between" gap="2" wrap="wrap" mb="2">
        <Text id="benchmarks-h" fontSize="xs" fontWeight="bold" textTransform="uppercase" letterSpacing="wider" color="gray.700">
          Benchmarks
        </Text>
        <Text fontSize="xs" color="gray.700">
          The big board's own entries, not ranked
        </Text>
      </Flex>
      <Stack as="ul" listStyleType="none" gap="2">
        {rows.map((b) => (
          <Flex as="li" key={b.key} align="center" gap="3" aria-label={`Benchmark: ${b.name}`}>
            <Box flex="1" minW="0">
              <Flex align="center" gap="2" wrap="wrap">
                <Text fontWeight="bold" color="navy.900">
                  {b.name}
                </Text>
                <Badge size="sm" variant="outline" color="gray.700" borderColor="gray.400">
                  Benchmark
                </Badge>
              </Flex>
              <Text fontSize="sm" color="gray.700">
                {plural(b.correct_picks, 'hit')}
                {!b.busted && !final && ` · ${b.pending} pending`}
                {me && ` · ${VERSUS[versusBenchmark(me, b)]}`}
              </Text>
            </Box>
            <EntryStateBadge row={b} final={final} />
          </Flex>
        ))}
      </Stack>
    </Box>
  );
}
