import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { killListItemText, needsAllOfText, survivalText } from '@first-round/shared/odds-words';
import type { DraftStatus, PlayerDto } from '@first-round/shared/schemas';
import { useEntryOdds, useOddsBoard } from '../lib/odds';

/**
 * An entry's odds on My Picks (docs/rules.md, "Odds"): '37 % to survive', what it needs, and the kill list
 * (its pending picks, the one most likely to miss round one first). Computed in the browser by the shared
 * model from the board as patched live, so it moves with every pick; the same number picks.mine answers.
 * Nothing once round one is complete (results only) or without picks.
 */
export function EntryOddsCard({ board, picks, status }: { board: PlayerDto[]; picks: readonly number[]; status: DraftStatus }) {
  const odds = useOddsBoard(board, status.round_one_picks, status.round_one_complete);
  const mine = useEntryOdds(odds, picks);
  if (!mine || picks.length === 0) return null;
  const names = new Map(board.map((p) => [p.id, p.player_name]));
  const needs = needsAllOfText(mine.kill_list.map((k) => names.get(k.player_id)!));
  return (
    <Box as="section" aria-labelledby="entry-odds-title" mb="4" p="4" borderRadius="lg" borderWidth="1px" borderColor="gray.200" bg="white" data-testid="entry-odds">
      <Heading as="h2" id="entry-odds-title" size="sm" color="gray.700" mb="1">
        Your odds
      </Heading>
      <Text fontFamily="heading" fontWeight="black" fontSize="2xl" color={mine.survive < 0.2 ? 'red.700' : 'navy.900'} data-testid="odds-survive">
        {survivalText(mine.survive)}
      </Text>
      {needs && (
        <Text fontSize="sm" color="gray.700" mt="1">
          {needs}
        </Text>
      )}
      {mine.kill_list.length > 0 && (
        <Stack as="ol" aria-label="Kill list" gap="1" mt="2" pl="5" fontSize="sm" color="gray.800">
          {mine.kill_list.map((k) => (
            <li key={k.player_id}>{killListItemText(names.get(k.player_id)!, k.misses)}</li>
          ))}
        </Stack>
      )}
    </Box>
  );
}
