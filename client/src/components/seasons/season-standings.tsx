import { hitsText } from '@first-round/shared/entry-words';
import { Badge, Box, Flex, Stack, Text } from '@chakra-ui/react';
import type { SeasonEntry, SeasonLeaderboard, SeasonPick } from '@first-round/shared/schemas';
import { EmptyState } from '../page';
import { CheckIcon, XIcon } from '../icons';
import { possessive } from '@first-round/shared/words';
import { TeamName } from '../team-name';

/**
 * A closed season's final standings: one row per entry (rank, name, score), each opening onto its picks
 * with ✓/✗. A native <details> per entry: keyboard and screen readers get expand/collapse for free.
 * ✓ and ✗ are drawn, and always said in words too ("Hit · Pick 3 · NYG": the slot and the team that made the
 * pick, as the season's order had it; "Miss"), never by colour alone.
 */
export function SeasonStandings({ board, me }: { board: SeasonLeaderboard; me: string | undefined }) {
  if (board.rankings.length === 0) return <EmptyState>Nobody had picks in {board.year}.</EmptyState>;
  return (
    <Stack as="ol" gap="2" listStyleType="none" aria-label={`Final standings ${board.year}`}>
      {board.rankings.map((entry) => (
        <Box as="li" key={entry.participant_id}>
          <EntryRow entry={entry} mine={entry.participant_id === me} />
        </Box>
      ))}
    </Stack>
  );
}

function EntryRow({ entry, mine }: { entry: SeasonEntry; mine: boolean }) {
  const score = hitsText({ busted: entry.busted, hits: entry.busted ? entry.hits : entry.correct_picks });
  const summary = (
    <Flex align="center" gap="3" px="4" py="3" cursor={entry.pick_list ? 'pointer' : undefined}>
      <Text fontWeight="black" color="navy.900" minW="8">
        {entry.rank}.
      </Text>
      <Flex flex="1" minW="0" align="center" gap="2" wrap="wrap">
        <Text fontWeight="semibold" truncate>
          {entry.participant_name}
        </Text>
        {mine && (
          <Badge size="sm" bg="navy.900" color="white">
            You
          </Badge>
        )}
      </Flex>
      <Text fontSize="sm" fontWeight="bold" color={entry.busted ? 'red.700' : 'turf.700'} flexShrink={0}>
        {score}
      </Text>
    </Flex>
  );
  const frame = { bg: mine ? 'navy.50' : 'white', borderRadius: 'xl', borderWidth: '1px', borderColor: 'gray.200' } as const;
  // Where the picks are not the caller's to see (others' global picks, a group with private picks), no toggle.
  if (!entry.pick_list) return <Box {...frame}>{summary}</Box>;
  return (
    <Box as="details" {...frame}>
      <Box as="summary" listStyleType="none" css={{ '&::-webkit-details-marker': { display: 'none' } }}>
        {summary}
      </Box>
      <Box px="4" pb="3">
        <PickList picks={entry.pick_list} name={entry.participant_name} />
      </Box>
    </Box>
  );
}

function PickList({ picks, name }: { picks: SeasonPick[]; name: string }) {
  if (picks.length === 0) return <Text fontSize="sm" color="gray.600">No picks.</Text>;
  return (
    <Stack as="ul" gap="1" listStyleType="none" aria-label={`${possessive(name)} picks`}>
      {picks.map((p) => (
        <Flex as="li" key={p.player_id} align="center" gap="2.5" py="1.5" px="2" borderRadius="md" bg={p.hit ? 'turf.50' : 'red.50'}>
          <Flex flexShrink={0} w="7" h="7" borderRadius="full" align="center" justify="center" bg={p.hit ? 'turf.700' : 'red.700'} color="white" aria-hidden>
            {p.hit ? <CheckIcon size={15} /> : <XIcon size={14} />}
          </Flex>
          <Box flex="1" minW="0">
            <Text fontWeight="semibold" fontSize="sm" truncate>
              {p.player_name}
            </Text>
            <Text fontSize="xs" color="gray.700" truncate>
              {p.position} - {p.school}
            </Text>
          </Box>
          <Text flexShrink={0} fontSize="xs" fontWeight="bold" textTransform="uppercase" color={p.hit ? 'turf.700' : 'red.700'}>
            {p.hit && p.draft_pick !== null ? (
              <>
                Hit · Pick {p.draft_pick}
                {p.team && (
                  <>
                    {' · '}
                    <TeamName team={p.team} />
                  </>
                )}
              </>
            ) : (
              'Miss'
            )}
          </Text>
        </Flex>
      ))}
    </Stack>
  );
}
