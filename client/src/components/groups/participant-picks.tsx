import { useMemo } from 'react';
import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import { STALE_TIMES } from '@first-round/shared/constants';
import { compareByDraftOrder } from '@first-round/shared/player-filter';
import type { PlayerDto } from '@first-round/shared/schemas';
import { errorMessage, trpc } from '../../lib/trpc';
import { CheckIcon, XIcon } from '../icons';
import { useDraftStatus, usePlayers } from '../../lib/queries';
import { possessive } from '@first-round/shared/words';
import { pickLabel, teamAt } from '@first-round/shared/teams';

type State = 'hit' | 'miss' | 'pending';

/** docs/rules.md, "Scoring": round one is a hit; a later round, or still undrafted once round one is complete, a miss. */
function stateOf(player: PlayerDto, roundOneComplete: boolean): State {
  if (player.draft_round === 1) return 'hit';
  if (player.draft_round !== null || roundOneComplete) return 'miss';
  return 'pending';
}

const STATE_TEXT: Record<State, string> = { hit: 'Hit', miss: 'Miss', pending: 'Pending' };

/** One member's picks in the group, as the leaderboard row's expanded panel. */
export function ParticipantPicks({ groupId, participantId, name }: { groupId: number; participantId: string; name: string }) {
  const picks = trpc.picks.ofParticipant.useQuery({ group_id: groupId, participant_id: participantId }, { staleTime: STALE_TIMES.leaderboard });
  const players = usePlayers();
  const draft = useDraftStatus();
  const complete = draft.data?.round_one_complete ?? false;

  const list = useMemo(() => {
    if (!picks.data || !players.data) return [];
    const ids = new Set(picks.data.picks);
    return players.data.filter((p) => ids.has(p.id)).sort(compareByDraftOrder);
  }, [picks.data, players.data]);

  if (picks.isError) return <Text role="alert" fontSize="sm" color="red.600">{errorMessage(picks.error, 'Failed to load these picks')}</Text>;
  if (players.isError) return <Text role="alert" fontSize="sm" color="red.600">Failed to load the players</Text>;
  if (picks.isPending || players.isPending) return <Text fontSize="sm" color="gray.600">Loading picks...</Text>;
  if (list.length === 0) return <Text fontSize="sm" color="gray.600">No picks.</Text>;

  return (
    <Stack as="ul" gap="1" listStyleType="none" aria-label={`${possessive(name)} picks`}>
      {list.map((p) => {
        const state = stateOf(p, complete);
        return (
          <Flex as="li" key={p.id} align="center" gap="2.5" py="1.5" px="2" borderRadius="md" bg={state === 'hit' ? 'turf.50' : state === 'miss' ? 'red.50' : 'white'}>
            <Flex
              flexShrink={0}
              w="7"
              h="7"
              borderRadius="full"
              align="center"
              justify="center"
              fontSize="xs"
              fontWeight="black"
              bg={state === 'hit' ? 'turf.500' : state === 'miss' ? 'red.500' : 'navy.50'}
              color={state === 'pending' ? 'navy.900' : 'white'}
            >
              {state === 'hit' ? <CheckIcon size={15} /> : state === 'miss' ? <XIcon size={14} /> : p.rank}
            </Flex>
            <Box flex="1" minW="0">
              <Text fontWeight="semibold" fontSize="sm" wordBreak="break-word">
                {p.player_name}
              </Text>
              <Text fontSize="xs" color="gray.600" truncate>
                {p.position} - {p.school}
              </Text>
            </Box>
            <Text flexShrink={0} fontSize="xs" fontWeight="bold" textTransform="uppercase" color={state === 'hit' ? 'turf.700' : state === 'miss' ? 'red.600' : 'gray.500'}>
              {state === 'hit' && p.draft_pick !== null ? `Hit · ${pickLabel(p.draft_pick, teamAt(draft.data?.round_one_order, p.draft_pick))}` : state === 'miss' && p.draft_round !== null ? `Miss · Rd ${p.draft_round}` : STATE_TEXT[state]}
            </Text>
          </Flex>
        );
      })}
    </Stack>
  );
}
