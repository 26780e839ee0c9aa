import { Text } from '@chakra-ui/react';
import { StandingsBoard } from '../standings-board';
import type { RowDetails } from '../standings-table';
import { ParticipantPicks } from './participant-picks';
import { entryStateText, fieldSummary, hadHitsText } from '@first-round/shared/entry-words';
import { useDraftPhase } from '../../lib/queries';

const participants = (entries: number, alive: number, final: boolean) => fieldSummary(entries, alive, final, ['participant', 'participants']);

/**
 * A group's standings (the same board as the global one: the caller pinned, search, busted folded away).
 * With `picksVisible` (the group's picks_public) each row opens the member's picks.
 */
export function GroupLeaderboard({ groupId, me, picksVisible }: { groupId: number; me?: string; picksVisible: boolean }) {
  const final = useDraftPhase() === 'final';
  const memberPicks: RowDetails = {
    label: (row, open) => `${row.participant_name}, rank ${row.rank}, ${row.busted ? hadHitsText(row.hits) : `${row.correct_picks} correct`}, ${entryStateText(row, final).toLowerCase()}: ${open ? 'hide' : 'show'} picks`,
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
