import { useMemo, useState } from 'react';
import { Box, Text, VisuallyHidden } from '@chakra-ui/react';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import { moveDescription, moveLabel, RankMoveTracker, type RankMoves } from '../lib/rank-moves';
import { useDraftStatus } from '../lib/queries';

/**
 * How far each row of a standings page moved since the previous pick (lib/rank-moves.ts), counted by the
 * draft version in draft.status, which the live layer patches before the re-ranked page arrives. `me` (the
 * caller's own row, shown below a page it is not on) is followed too.
 */
export function useRankMoves(rows: readonly LeaderboardRow[], me?: LeaderboardRow | null): RankMoves {
  const version = useDraftStatus().data?.last_event_id;
  const [tracker] = useState(() => new RankMoveTracker());
  const followed = useMemo(() => (me && !rows.some((r) => r.participant_id === me.participant_id) ? [...rows, me] : rows), [rows, me]);
  return useMemo(() => tracker.update(followed, version), [tracker, followed, version]);
}

/** '▲3' in green or '▼2' in red under the rank, said in words to a screen reader. */
export function RankMove({ delta }: { delta: number | undefined }) {
  if (!delta) return null;
  return (
    <Text as="span" display="block" fontSize="xs" fontWeight="bold" lineHeight="1" color={delta > 0 ? 'turf.700' : 'red.700'} whiteSpace="nowrap" data-move={delta > 0 ? 'up' : 'down'}>
      <span aria-hidden>{moveLabel(delta)}</span>
      <VisuallyHidden>{moveDescription(delta)}</VisuallyHidden>
    </Text>
  );
}

/**
 * A moved row's brief flash: a tint over the row that fades out once (a new key per draft version
 * replays it), drawn over the row without catching the pointer. With prefers-reduced-motion there is no
 * animation and so no flash; the arrow says the same.
 */
export function MoveFlash({ delta, version }: { delta: number | undefined; version: number }) {
  if (!delta) return null;
  return (
    <Box
      key={version}
      position="absolute"
      inset="0"
      pointerEvents="none"
      bg={delta > 0 ? 'turf.500/20' : 'red.500/15'}
      opacity={0}
      _motionSafe={{ animation: 'fade-out 1.8s ease-out' }}
      aria-hidden
      data-flash
    />
  );
}
