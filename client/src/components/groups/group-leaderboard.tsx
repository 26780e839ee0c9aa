import type { LeaderboardRow } from '@first-round/shared/schemas';
import { StandingsTable, type RowDetails } from '../standings-table';
import { ParticipantPicks } from './participant-picks';

/**
 * A group's standings: rank, name, score, a busted mark and the tie-break (the lowest-ranked hit).
 * With `picksVisible` (the group's picks_public) each row opens the member's picks.
 */
export function GroupLeaderboard({ groupId, rows, me, picksVisible }: { groupId: number; rows: LeaderboardRow[]; me?: string; picksVisible: boolean }) {
  const memberPicks: RowDetails = {
    label: (row, open) => `${row.participant_name}, rank ${row.rank}, ${row.correct_picks} correct, ${row.busted ? 'busted' : 'alive'}: ${open ? 'hide' : 'show'} picks`,
    panel: (row) => <ParticipantPicks groupId={groupId} participantId={row.participant_id} name={row.participant_name} />,
  };
  return <StandingsTable rows={rows} me={undefined} highlightParticipantId={me} details={picksVisible ? memberPicks : undefined} variant="group" />;
}
