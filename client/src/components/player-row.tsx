import { Box, Flex, Text } from '@chakra-ui/react';
import type { PickOutcome } from '@first-round/shared/scoring';
import type { PlayerDto } from '@first-round/shared/schemas';
import { pickLabel, teamAt } from '@first-round/shared/teams';
import { useDraftStatus } from '../lib/queries';
import { CheckIcon, XIcon } from './icons';

export type PickState = PickOutcome;

/** Row colours for a pick's outcome (the text and icons carry the meaning too). */
export function outcomeStyle(outcome: PickOutcome | null | undefined) {
  return {
    bg: outcome === 'hit' ? 'turf.50' : outcome === 'miss' ? 'red.50' : 'white',
    borderColor: outcome === 'hit' ? 'turf.500' : outcome === 'miss' ? 'red.300' : 'gray.200',
  } as const;
}

function OutcomeLabel({ player, outcome }: { player: PlayerDto; outcome: PickOutcome }) {
  // A round-one pick as every screen writes it, with the team that made it ('Pick 7 · NYJ').
  const order = useDraftStatus().data?.round_one_order;
  const where = player.draft_round === null ? '' : player.draft_round === 1 && player.draft_pick !== null ? ` · ${pickLabel(player.draft_pick, teamAt(order, player.draft_pick))}` : ` · Rd ${player.draft_round}`;
  const text = outcome === 'hit' ? `✓ Hit${where}` : outcome === 'miss' ? `✗ Missed${where}` : 'Pending';
  return (
    <Text
      flexShrink={0}
      fontSize="xs"
      fontWeight="bold"
      textTransform="uppercase"
      letterSpacing="wide"
      px="2"
      py="1"
      borderRadius="full"
      bg={outcome === 'hit' ? 'turf.100' : outcome === 'miss' ? 'red.100' : 'gray.100'}
      color={outcome === 'hit' ? 'turf.700' : outcome === 'miss' ? 'red.700' : 'gray.700'}
    >
      {text}
    </Text>
  );
}

/**
 * Rank, name and 'position - school'. With an `outcome` (once the draft has started) the rank gives way to
 * a check (hit) or a cross (missed), and a label on the right says it in words: 'Hit · Pick 7 · NYJ', 'Pending',
 * 'Missed'.
 */
export function PlayerRowContent({ player, selected = false, outcome }: { player: PlayerDto; selected?: boolean; outcome?: PickOutcome | null }) {
  const state = outcome ?? 'pending';
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
        {/* Names wrap, never cut: a phone with the hit mark beside them has little room ('Travis H…'). */}
        <Text fontWeight="bold" wordBreak="break-word">
          {player.player_name}
        </Text>
        <Text fontSize="sm" color={selected ? 'navy.100' : 'gray.600'} wordBreak="break-word">
          {player.position} - {player.school}
        </Text>
      </Box>
      {outcome && <OutcomeLabel player={player} outcome={outcome} />}
    </Flex>
  );
}
