import { Box, Flex, Text } from '@chakra-ui/react';
import type { PlayerDto } from '@first-round/shared/schemas';
import { CheckIcon, XIcon } from './icons';

export type PickState = 'hit' | 'miss' | 'pending';

/** A pick is a hit once its player goes in round one, a miss once taken later. */
export function pickState(player: PlayerDto): PickState {
  if (player.draft_round === null) return 'pending';
  return player.draft_round === 1 ? 'hit' : 'miss';
}

/** Rank (or a check once drafted in round one), name, and 'position - school'. */
export function PlayerRowContent({ player, selected = false, showDraft = false }: { player: PlayerDto; selected?: boolean; showDraft?: boolean }) {
  const state = showDraft ? pickState(player) : 'pending';
  return (
    <Flex align="center" gap="3" minW="0" flex="1">
      <Flex
        flexShrink={0}
        w="10"
        h="10"
        borderRadius="full"
        align="center"
        justify="center"
        fontWeight="black"
        fontSize="sm"
        bg={state === 'hit' ? 'turf.500' : state === 'miss' ? 'red.500' : selected ? 'gold.400' : 'navy.50'}
        color={state === 'pending' ? 'navy.900' : 'white'}
      >
        {state === 'hit' ? <CheckIcon size={20} label="Drafted in round one" /> : state === 'miss' ? <XIcon size={18} label="Not drafted in round one" /> : player.rank}
      </Flex>
      <Box minW="0" flex="1" textAlign="left">
        <Text fontWeight="bold" truncate>
          {player.player_name}
        </Text>
        <Text fontSize="sm" color={selected ? 'navy.100' : 'gray.600'} truncate>
          {player.position} - {player.school}
        </Text>
      </Box>
      {showDraft && player.draft_round !== null && (
        <Text flexShrink={0} fontSize="xs" fontWeight="bold" color={state === 'hit' ? 'turf.700' : 'red.600'} textTransform="uppercase">
          Rd {player.draft_round}
          {player.draft_pick !== null ? ` · #${player.draft_pick}` : ''}
        </Text>
      )}
    </Flex>
  );
}
