import { useState } from 'react';
import { Badge, Box, chakra, Flex, Stack, Text } from '@chakra-ui/react';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import { EntryStateBadge } from '../standings-table';
import { ParticipantPicks } from './participant-picks';

const RowButton = chakra('button');

function Chevron({ open }: { open: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.5} strokeLinecap="round" strokeLinejoin="round" aria-hidden focusable="false" style={{ transform: open ? 'rotate(180deg)' : undefined, transition: 'transform 0.15s' }}>
      <polyline points="6 9 12 15 18 9" />
    </svg>
  );
}

/**
 * A group's standings: rank, name, score, a busted mark and the tie-break (the lowest-ranked hit).
 * With `picksVisible` (the group's picks_public) each row opens the member's picks.
 */
export function GroupLeaderboard({ groupId, rows, me, picksVisible }: { groupId: number; rows: LeaderboardRow[]; me?: string; picksVisible: boolean }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Box bg="white" borderRadius="xl" borderWidth="1px" borderColor="gray.200" overflow="hidden" boxShadow="sm">
      <Flex px="4" py="2" gap="3" bg="navy.900" color="navy.100" fontSize="xs" fontWeight="bold" textTransform="uppercase" letterSpacing="wider" aria-hidden>
        <Text w="12" flexShrink={0}>Rank</Text>
        <Text flex="1">Player</Text>
        <Text textAlign="right">Correct</Text>
        {picksVisible && <Box w="18px" />}
      </Flex>
      <Stack as="ol" gap="0" listStyleType="none" aria-label="Rankings">
        {rows.map((row) => {
          const mine = row.participant_id === me;
          const expanded = open.has(row.participant_id);
          const panelId = `picks-${row.participant_id}`;
          const content = (
            <>
              <Text w="12" flexShrink={0} fontWeight="black" fontSize="lg" color="navy.900" textAlign="left">
                <span aria-label={`Rank ${row.rank}`}>{row.rank}</span>
              </Text>
              <Box flex="1" minW="0" textAlign="left">
                <Flex align="center" gap="2" minW="0" wrap="wrap" rowGap="1">
                  <Text fontWeight="semibold" truncate minW="0" maxW="100%">
                    {row.participant_name}
                  </Text>
                  {mine && (
                    <Badge bg="navy.900" color="white" size="sm" flexShrink={0}>
                      You
                    </Badge>
                  )}
                  <EntryStateBadge busted={row.busted} />
                </Flex>
                {row.tiebreak_rank !== null && (
                  <Text fontSize="xs" color="gray.600">
                    lowest-ranked hit: #{row.tiebreak_rank}
                  </Text>
                )}
              </Box>
              <Text flexShrink={0} fontWeight="black" fontSize="lg" color={row.busted ? 'gray.400' : 'turf.600'} textAlign="right" aria-label={`${row.correct_picks} correct ${row.correct_picks === 1 ? 'pick' : 'picks'}`}>
                {row.correct_picks}
              </Text>
              {picksVisible && (
                <Box color="gray.500" flexShrink={0}>
                  <Chevron open={expanded} />
                </Box>
              )}
            </>
          );
          const rowStyle = {
            px: '4',
            py: '3',
            gap: '3',
            alignItems: 'center',
            width: '100%',
            bg: mine ? 'navy.50' : row.rank === 1 && !row.busted ? 'gold.400/15' : undefined,
            // The caller's row as on the other standings: tinted, with a bar on the left.
            boxShadow: mine ? 'inset 4px 0 0 var(--chakra-colors-navy-700)' : undefined,
          } as const;
          return (
            <Box as="li" key={row.participant_id} borderTopWidth="1px" borderColor="gray.100" aria-current={mine ? 'true' : undefined}>
              {picksVisible ? (
                <RowButton
                  type="button"
                  display="flex"
                  {...rowStyle}
                  cursor="pointer"
                  aria-expanded={expanded}
                  aria-controls={panelId}
                  aria-label={`${row.participant_name}, rank ${row.rank}, ${row.correct_picks} correct, ${row.busted ? 'busted' : 'alive'}: ${expanded ? 'hide' : 'show'} picks`}
                  onClick={() => toggle(row.participant_id)}
                  _hover={{ bg: mine ? 'navy.100' : 'gray.50' }}
                  _focusVisible={{ outline: '3px solid', outlineColor: 'gold.400', outlineOffset: '-3px' }}
                >
                  {content}
                </RowButton>
              ) : (
                <Flex {...rowStyle}>{content}</Flex>
              )}
              {picksVisible && expanded && (
                <Box id={panelId} px={{ base: '3', md: '4' }} pb="3" pt="1" bg={mine ? 'navy.50' : undefined}>
                  <ParticipantPicks groupId={groupId} participantId={row.participant_id} name={row.participant_name} />
                </Box>
              )}
            </Box>
          );
        })}
      </Stack>
    </Box>
  );
}
