import { Text } from '@chakra-ui/react';
import { STALE_TIMES } from '@first-round/shared/constants';
import { trpc } from '../lib/trpc';
import { useDraftStatus } from '../lib/queries';

/**
 * Beside a deadline in a later year than the board: says whose draft class the board is. A fresh install
 * plays the bundled 2025 board while its deadline is the next draft night (say 2027): without a word, 'Picks
 * lock Apr 29, 2027' over Cam Ward and Travis Hunter reads like a mistake. Nothing when the years agree.
 */
export function BoardYearNote({ onDark = false }: { onDark?: boolean }) {
  const status = useDraftStatus().data;
  const seasons = trpc.seasons.list.useQuery(undefined, { staleTime: STALE_TIMES.groupLists });
  const year = seasons.data?.find((s) => s.current)?.year;
  const deadlineYear = status ? new Date(status.deadline).getFullYear() : undefined;
  if (!year || !deadlineYear || deadlineYear <= year) return null;
  return (
    <Text fontSize="sm" color={onDark ? 'navy.100' : 'gray.700'} role="note" aria-label="Which board this is">
      This board is the {year} draft class, to play with until the {deadlineYear} board is loaded: picks lock on {deadlineYear}'s draft night.
    </Text>
  );
}
