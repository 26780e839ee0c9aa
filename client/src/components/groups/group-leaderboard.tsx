import { Text } from '@chakra-ui/react';
import { StandingsBoard } from '../standings-board';
import type { RowDetails } from '../standings-table';
import { ParticipantPicks } from './participant-picks';
import { fieldSummary } from '@first-round/shared/entry-words';

const participants = (entries: number, alive: number, final: boolean) => fieldSummary(entries, alive, final, ['participant', 'participants']);

/**
 * A group's standings (the same board as the global one: the caller pinned, search, busted folded away).
 * With `picksVisible` (the group's picks_public) each row opens the member's picks.
 */
export function GroupLeaderboard({ groupId, me, picksVisible }: { groupId: number; me?: string; picksVisible: boolean }) {
  const memberPicks: RowDetails = {
    hint: (_row, open) => (open ? 'Hide picks' : 'Show picks'),
    panel: (row) => <ParticipantPicks groupId={groupId} participantId={row.participant_id} name={row.participant_name} />,
  };
  return (
    <StandingsBoard
      groupId={groupId}
      variant="group"
      highlightParticipantId={me}
      details={picksVisible ? memberPicks : undefined}
      summary={participants}
      hint={
        picksVisible && (
          <Text as="span" color="gray.600">
            Tap a row to see that member's picks
          </Text>
        )
      }
    />
  );
}
