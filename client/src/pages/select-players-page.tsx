import { useEffect } from 'react';
import { IconButton } from '@chakra-ui/react';
import { Link, useSearchParams } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { parseId } from '@first-round/shared/ids';
import { Page } from '../components/page';
import { BackIcon } from '../components/icons';
import { FullPageMessage } from '../components/full-page-message';
import { LockedPicks } from '../components/player-selection/locked-picks';
import { PicksEditor } from '../components/player-selection/picks-editor';
import { notify } from '../lib/toaster';
import { trpc } from '../lib/trpc';
import { selectPlayersTitle } from '../lib/select-title';
import { useDraftStatus, usePlayers } from '../lib/queries';

/**
 * The selection screen, for the global entry or a group's (`?groupId=`, `&reusePicks=true` to start from
 * the global picks): the editor before the lock, the saved picks with their outcomes after it.
 */
export function SelectPlayersPage() {
  const [params] = useSearchParams();
  const groupId = parseId(params.get('groupId'));
  const groupMode = groupId !== null;
  const reuse = groupMode && params.get('reusePicks') === 'true';

  const players = usePlayers();
  const draft = useDraftStatus();
  const saved = trpc.picks.mine.useQuery(groupMode ? { group_id: groupId } : undefined, { staleTime: STALE_TIMES.groupPage });
  const globalPicks = trpc.picks.global.useQuery(undefined, { enabled: reuse, staleTime: STALE_TIMES.groupPage });
  // The editor starts from the saved picks, or from the global ones when reusing them.
  const source = reuse ? globalPicks : saved;
  useEffect(() => {
    if (source.isError) notify('error', reuse ? 'Failed to load your global picks' : 'Failed to load your picks');
  }, [source.isError, reuse]);

  const started = draft.data?.draftHasStarted ?? false;
  const title = selectPlayersTitle({ started, groupMode, reuse, hasPicks: (saved.data?.picks.length ?? 0) > 0 });
  const backTo = groupMode ? `/groups/${groupId}/picks` : null;

  // Once locked, wait for the saved picks too: an empty list would say 'You made no picks' for a moment.
  if (players.isPending || draft.isPending || (started && saved.isPending)) return <FullPageMessage>Loading players...</FullPageMessage>;

  const back = backTo && (
    <IconButton asChild aria-label="Back to group picks" variant="ghost" size="sm" alignSelf="flex-start" ms="-2">
      <Link to={backTo}>
        <BackIcon />
      </Link>
    </IconButton>
  );

  return (
    <Page
      title={title}
      before={back}
      subtitle={
        started
          ? 'The draft has started: picks are locked. ✓ marks a pick that went in the first round, ✗ one that did not.'
          : 'Tap a player to add or remove him. Pick between 1 and 32 players you think go in the 1st Round.'
      }
    >
      {started ? (
        <LockedPicks players={players.data ?? []} picks={saved.data?.picks ?? []} draft={draft.data} />
      ) : (
        <PicksEditor players={players.data ?? []} initial={source.data?.picks} groupId={groupId} doneTo={backTo ?? '/my-picks'} />
      )}
    </Page>
  );
}
