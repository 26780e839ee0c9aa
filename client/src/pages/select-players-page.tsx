import { useEffect } from 'react';
import { Box, IconButton, Text } from '@chakra-ui/react';
import { skipToken } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { parseId } from '@first-round/shared/ids';
import { useAuth } from '../auth/auth-context';
import { Page } from '../components/page';
import { BackIcon } from '../components/icons';
import { FullPageMessage } from '../components/full-page-message';
import { LockedPicks } from '../components/player-selection/locked-picks';
import { PicksEditor, type EditedEntry } from '../components/player-selection/picks-editor';
import { BoardYearNote } from '../components/board-year-note';
import { notify } from '../lib/toaster';
import { trpc } from '../lib/trpc';
import { selectPlayersTitle } from '../lib/select-title';
import { useDraftStatus, usePlayers } from '../lib/queries';
import { forgetUnsaved, unsavedKey } from '../lib/unsaved-picks';
import { plural } from '@first-round/shared/words';

/**
 * The selection screen, for My Picks or a group's entry (`?groupId=`). A group entry that follows My Picks
 * (linked) is edited as My Picks, and the screen says so: saving changes every group that uses them. A
 * group's own picks are edited as themselves (`&reusePicks=true` starts them from My Picks). Before the
 * lock the editor; after it the saved picks with their outcomes.
 */
export function SelectPlayersPage() {
  const [params] = useSearchParams();
  const groupId = parseId(params.get('groupId'));
  const groupMode = groupId !== null;
  const auth = useAuth();

  const players = usePlayers();
  const draft = useDraftStatus();
  const opts = { staleTime: STALE_TIMES.groupPage };
  const group = trpc.groups.get.useQuery(groupMode ? { group_id: groupId } : skipToken, opts);
  const membership = trpc.groups.membership.useQuery(groupMode ? { group_id: groupId } : skipToken, opts);
  // Which entry this screen edits: a group's own picks, or My Picks (the global entry, which a linked group plays).
  const ownGroupPicks = groupMode && membership.data?.entry_mode === 'own';
  const reuse = ownGroupPicks && params.get('reusePicks') === 'true';
  const saved = trpc.picks.mine.useQuery(groupMode ? { group_id: groupId } : undefined, opts);
  const globalPicks = trpc.picks.global.useQuery(undefined, opts);
  const myGroups = trpc.leaderboard.myGroups.useQuery(undefined, { staleTime: STALE_TIMES.groupLists });
  const source = ownGroupPicks ? (reuse ? globalPicks : saved) : globalPicks;
  const baseline = ownGroupPicks ? saved : globalPicks;
  useEffect(() => {
    if (source.isError) notify('error', reuse ? 'Failed to load your global picks' : 'Failed to load your picks');
  }, [source.isError, reuse]);

  const started = draft.data?.draftHasStarted ?? false;
  const storageKey = auth.userId ? unsavedKey(auth.userId, ownGroupPicks ? groupId : null) : null;
  // Once picks lock, a selection left unsaved can never be saved: drop it.
  useEffect(() => {
    if (started && storageKey) forgetUnsaved(localStorage, storageKey);
  }, [started, storageKey]);

  const title = selectPlayersTitle({ started, groupMode: ownGroupPicks || (started && groupMode), reuse, hasPicks: (baseline.data?.picks.length ?? 0) > 0 });
  const backTo = groupMode ? `/groups/${groupId}/picks` : null;

  // Wait for what decides which entry this is (and, once locked, the saved picks: an empty list would say
  // 'You made no picks' for a moment).
  const deciding = groupMode && (membership.isPending || group.isPending);
  if (players.isPending || draft.isPending || deciding || (started && saved.isPending)) return <FullPageMessage>Loading players...</FullPageMessage>;

  const groupName = group.data?.name ?? 'this group';
  const linkedGroups = myGroups.data?.groups.filter((g) => g.entry_mode === 'linked').length ?? 0;
  const entry: EditedEntry = {
    groupId: ownGroupPicks ? groupId : null,
    saved: baseline.data?.picks,
    initial: source.data?.picks,
    storageKey,
    label: ownGroupPicks ? `your picks for ${groupName}` : 'My Picks',
  };

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
          ? 'Picks are locked. ✓ marks a pick that went in round one, ✗ one that did not.'
          : 'Tap a player to add or remove him. Pick between 1 and 32 players you think go in round one.'
      }
    >
      {!started && <EditingWhat own={ownGroupPicks} groupName={groupMode ? groupName : null} linkedGroups={linkedGroups} />}
      {!started && (
        <Box mb="3">
          <BoardYearNote />
        </Box>
      )}
      {started ? (
        <LockedPicks players={players.data ?? []} picks={saved.data?.picks ?? []} draft={draft.data} />
      ) : (
        <PicksEditor players={players.data ?? []} entry={entry} doneTo={backTo ?? '/my-picks'} roundOnePicks={draft.data?.round_one_picks} />
      )}
    </Page>
  );
}

/**
 * Which entry the screen edits, in words: My Picks (and where they count), or a group's own picks.
 */
function EditingWhat({ own, groupName, linkedGroups }: { own: boolean; groupName: string | null; linkedGroups: number }) {
  const others = Math.max(0, linkedGroups - 1);
  const where = groupName
    ? `They count on the global leaderboard and in ${groupName}${others > 0 ? ` and ${plural(others, 'other group')}` : ''} that use My Picks: saving changes them all.`
    : linkedGroups > 0
      ? `They count on the global leaderboard and in the ${plural(linkedGroups, 'group')} that use My Picks: saving changes them all.`
      : 'They count on the global leaderboard, and in every group you join unless you make own picks there.';
  return (
    <Box role="note" aria-label="Which picks you are editing" bg="white" borderWidth="1px" borderColor="gray.200" borderLeftWidth="4px" borderLeftColor={own ? 'gold.500' : 'navy.700'} borderRadius="lg" px="4" py="3" mb="4">
      <Text fontWeight="bold" color="navy.900">
        {own ? `Own picks for ${groupName}` : 'Editing My Picks'}
      </Text>
      <Text fontSize="sm" color="gray.700">
        {own ? 'They count only in this group: changing My Picks does not change them.' : where}
      </Text>
    </Box>
  );
}
