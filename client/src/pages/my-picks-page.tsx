import { useEffect, useMemo } from 'react';
import { Box, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { compareByDraftOrder } from '@first-round/shared/player-filter';
import { EntryStatusCard } from '../components/entry-status-card';
import { EntryOddsCard } from '../components/entry-odds-card';
import { EmptyState, Page } from '../components/page';
import { outcomeStyle, PlayerRowContent } from '../components/player-row';
import { FullPageMessage } from '../components/full-page-message';
import { PrimaryButton } from '../components/buttons';
import { PushSetting } from '../components/push-setting';
import { ShareEntryButton } from '../components/share-entry-button';
import { draftSnapshot, outcomeOf } from '../lib/draft-snapshot';
import { notify } from '../lib/toaster';
import { trpc } from '../lib/trpc';
import { useDraftPhase, useDraftStatus, useField, usePlayers } from '../lib/queries';
import { GroupEntries, useGroupEntries } from '../components/group-entries';
import { pickedByYou } from '@first-round/shared/field-words';

export function MyPicksPage() {
  const players = usePlayers();
  const draft = useDraftStatus();
  const picks = trpc.picks.mine.useQuery(undefined, { staleTime: STALE_TIMES.groupPage });
  const failed = players.isError || draft.isError || picks.isError;

  useEffect(() => {
    if (failed) notify('error', 'Failed to load your picks');
  }, [failed]);

  const started = draft.data?.draftHasStarted ?? false;
  const phase = useDraftPhase() ?? 'before';
  const groupEntries = useGroupEntries();
  // Who else picked whom, once the picks are locked (global entries). Optional: the page works without it.
  const field = useField(started);
  const shares = useMemo(() => new Map((field.data ?? []).map((r) => [r.player_id, r])), [field.data]);
  const mine = useMemo(() => {
    // Without the board or the draft status the page cannot say what the picks are: show none.
    if (failed || !players.data || !picks.data) return [];
    const ids = new Set(picks.data.picks);
    const list = players.data.filter((p) => ids.has(p.id));
    return started ? list.sort(compareByDraftOrder) : list;
  }, [failed, players.data, picks.data, started]);

  if (!failed && (players.isPending || draft.isPending || picks.isPending)) return <FullPageMessage>Loading your picks...</FullPageMessage>;
  const snapshot = started ? draftSnapshot(draft.data, players.data) : null;
  const outcomes = new Map(mine.map((p) => [p.id, snapshot ? outcomeOf(p, snapshot) : null]));

  return (
    <Page
      // 'Edit Picks' while the picks can change; once they lock the page is a status, 'My Picks'.
      title={started ? 'My Picks' : 'Edit Picks'}
      subtitle={
        phase === 'final'
          ? 'Round one is over: ✓ means the player went in round one, ✗ that he did not.'
          : started
            ? 'The draft has started and your picks are locked. ✓ means the player went in round one, ✗ that he did not; the rest are still pending.'
            : 'These are the players you think will be drafted in round one. They count on the global leaderboard and in every group you join, unless you make own picks there. You can change them until the draft starts.'
      }
    >
      {!failed && draft.data && (mine.length > 0 || !started) && <EntryStatusCard picks={mine} status={draft.data} snapshot={snapshot} />}
      {!failed && draft.data && players.data && mine.length > 0 && <EntryOddsCard board={players.data} picks={picks.data?.picks ?? []} status={draft.data} />}
      {!failed && mine.length > 0 && (
        <ShareEntryButton alignSelf="flex-start" mb="4" variant="outline" borderColor="navy.900" color="navy.900" bg="white" />
      )}

      {mine.length === 0 ? (
        <EmptyState>
          {started
            ? `You made no My Picks before the draft started${groupEntries.own.length > 0 ? ': your entries in groups are below' : ''}.`
            : `You haven't picked any players for My Picks yet${groupEntries.own.length > 0 ? ': your entries in groups are below' : ''}.`}
        </EmptyState>
      ) : (
        <Stack as="ul" gap="2" listStyleType="none" aria-label="My picks">
          {mine.map((player) => {
            const outcome = outcomes.get(player.id) ?? null;
            const share = started ? shares.get(player.id) : undefined;
            return (
              <Box as="li" key={player.id} px="3" py="2.5" borderRadius="lg" borderWidth="2px" {...outcomeStyle(outcome)}>
                <PlayerRowContent player={player} outcome={outcome} />
                {share !== undefined && (
                  <Text mt="1" pl="3.25rem" fontSize="xs" color="gray.600" data-testid="field-share">
                    {pickedByYou(share.picked_by, share.share)}
                  </Text>
                )}
              </Box>
            );
          })}
        </Stack>
      )}

      <GroupEntries linked={groupEntries.linked} own={groupEntries.own} phase={phase} />

      {!failed && mine.length > 0 && phase !== 'final' && (
        <Box mt="6">
          <PushSetting id="push-picks-my-picks" />
        </Box>
      )}

      {!started && !failed && (
        <Box position="sticky" bottom="0" mt="6" py="3" bg="gray.50">
          <PrimaryButton asChild width="full">
            <Link to="/select-players">{mine.length > 0 ? 'Edit Picks' : 'Select Players'}</Link>
          </PrimaryButton>
        </Box>
      )}
      {started && (
        <Text mt="6" color="gray.600" fontSize="sm">
          Follow the standings on the <Link to="/leaderboard" style={{ textDecoration: 'underline' }}>Global Leaderboard</Link>.
        </Text>
      )}
    </Page>
  );
}
