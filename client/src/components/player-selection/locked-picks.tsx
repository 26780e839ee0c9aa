import { Box, Stack } from '@chakra-ui/react';
import type { DraftStatus, PlayerDto } from '@first-round/shared/schemas';
import { compareByDraftOrder } from '@first-round/shared/player-filter';
import { EmptyState } from '../page';
import { outcomeStyle, PlayerRowContent } from '../player-row';
import { draftSnapshot, outcomeOf } from '../../lib/draft-snapshot';

/** Once picks lock, the selection screen only shows the saved picks in draft order, each ✓, ✗ or pending. */
export function LockedPicks({ players, picks, draft }: { players: PlayerDto[]; picks: number[]; draft: DraftStatus | undefined }) {
  const mine = new Set(picks);
  const shown = players.filter((p) => mine.has(p.id)).sort(compareByDraftOrder);
  if (shown.length === 0) return <EmptyState>You made no picks before the draft started.</EmptyState>;
  const snapshot = draftSnapshot(draft, players);
  return (
    <Stack as="ul" gap="2" listStyleType="none" pb="28" aria-label="Your picks">
      {shown.map((player) => {
        const outcome = snapshot ? outcomeOf(player, snapshot) : null;
        return (
          <Box as="li" key={player.id} px="3" py="2.5" borderRadius="lg" borderWidth="2px" {...outcomeStyle(outcome)}>
            <PlayerRowContent player={player} outcome={outcome} />
          </Box>
        );
      })}
    </Stack>
  );
}
