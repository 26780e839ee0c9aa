import { useEffect, useState, type ReactNode } from 'react';
import { Box, Flex, Grid, Stack, Text } from '@chakra-ui/react';
import { skipToken } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { parseId } from '@first-round/shared/ids';
import { slotOnTheClock, teamAt } from '@first-round/shared/teams';
import { useAuth } from '../../auth/auth-context';
import { useDocumentTitle } from '../../lib/document-title';
import { showStrip } from '../../lib/draft-live';
import { FullPageMessage } from '../../components/full-page-message';
import { ViewingDelayBadge } from '../../components/viewing-delay-badge';
import { ViewingDelayChooser } from '../../components/viewing-delay-chooser';
import { GroupLoadError } from '../../components/groups/group-frame';
import { NotAMember } from '../../components/groups/not-a-member';
import { isHiddenGroup } from '../../components/groups/group-utils';
import { CurrentPick, MembersIn, NextOnTheClock, Panel, Podium, StandingsRows, WaitingForPick } from '../../components/tv/tv-panels';
import { countdownText, draftPhase, podium, recentPicks } from '../../lib/live-strip';
import { useDraftStatus, usePlayers } from '../../lib/queries';
import { entriesIn, TV_STANDINGS_ROWS } from '../../lib/tv-words';
import { errorMessage, trpc } from '../../lib/trpc';

/**
 * The watch-party TV view (/groups/{id}/tv): one screen for a room, no interaction. Members only, as the
 * group's other pages. Everything comes from the caches the live layer keeps current (the TV shell mounts
 * it, components/tv/tv-shell.tsx): the pick itself from draft.status and the big board, patched from the
 * live change with no request; who here had him from the group's draft board; the standings page from
 * the live stream.
 */
export function TvPage() {
  const auth = useAuth();
  const { groupId: raw } = useParams();
  const id = parseId(raw);
  if (!auth.isSignedIn) return <FullPageMessage spinner={false}>Please sign in to view this group.</FullPageMessage>;
  if (id === null) return <GroupLoadError message="Group not found" />;
  return <Tv id={id} />;
}

function Tv({ id }: { id: number }) {
  const opts = { staleTime: STALE_TIMES.groupPage };
  const group = trpc.groups.get.useQuery({ group_id: id }, opts);
  const membership = trpc.groups.membership.useQuery({ group_id: id }, opts);
  const isMember = membership.data?.is_member ?? false;

  if (isHiddenGroup(group.error)) return <NotAMember id={id} isPublic={false} />;
  const error = group.error ?? membership.error;
  if (error) return <GroupLoadError message={errorMessage(error, 'Failed to load group details')} />;
  if (!group.data || !membership.data) return <FullPageMessage>Loading TV view...</FullPageMessage>;
  if (!isMember) return <NotAMember id={id} name={group.data.name} isPublic={group.data.is_public} />;
  return <TvScreen id={id} name={group.data.name} />;
}

/**
 * When round one became final while this screen watched: the time the cached draft.status took the change
 * (`statusAt`, its dataUpdatedAt), taken in the render that first shows it, before any standings could be
 * brought for it; 0 when it was already final at the first look. Standings older than that predate the end.
 */
function useFinalSince(final: boolean | undefined, statusAt: number): number {
  const [seen, setSeen] = useState<{ final: boolean | undefined; since: number }>({ final, since: 0 });
  if (final !== seen.final) {
    const since = final && seen.final === false ? statusAt : 0;
    setSeen({ final, since });
    return since;
  }
  return seen.since;
}

function TvScreen({ id, name }: { id: number; name: string }) {
  useDocumentTitle(`${name} · TV`);
  // The TV shows the picks, the start and the end of round one itself, as the draft-night strip does: the
  // live layer toasts them only where neither is on screen (lib/draft-live.ts), never over the TV.
  useEffect(() => showStrip(), []);
  const statusQuery = useDraftStatus();
  const status = statusQuery.data;
  const players = usePlayers().data;
  const phase = status ? draftPhase(status) : undefined;
  const started = phase === 'live' || phase === 'final';
  const board = trpc.groups.draftBoard.useQuery(started ? { group_id: id } : skipToken, { staleTime: STALE_TIMES.groupPage });
  const standings = trpc.leaderboard.group.useQuery(started ? { group_id: id, limit: TV_STANDINGS_ROWS } : skipToken, { staleTime: STALE_TIMES.leaderboard });
  const members = trpc.groups.members.useQuery(phase === 'before' ? { group_id: id } : skipToken, { staleTime: STALE_TIMES.groupPage });
  const finalSince = useFinalSince(phase === undefined ? undefined : phase === 'final', statusQuery.dataUpdatedAt);

  if (!status || !players) return <FullPageMessage>Loading TV view...</FullPageMessage>;
  const order = status.round_one_order;
  const latest = recentPicks(players, null, 1, order)[0];
  const filled = players.flatMap((p) => (p.draft_round === 1 && p.draft_pick !== null ? [p.draft_pick] : []));
  const next = slotOnTheClock(filled, status.round_one_picks);
  // The board's copy of the latest slot, once it shows this very player (it is read just after the pick).
  const latestSlot = latest && board.data?.slots.find((s) => s.slot === latest.slot && s.player?.id === latest.player.id);
  const lb = standings.data;
  // Once final, the podium waits for standings read after round one ended: never a flash of the ranks before it.
  const finalStandings = lb && standings.dataUpdatedAt >= finalSince ? lb : undefined;

  const headline =
    phase === 'before' ? 'Before the draft' : phase === 'final' ? 'Round one is complete · Final' : `LIVE · ${filled.length} of ${status.round_one_picks} picks in`;

  return (
    <Box bg="navy.950" color="white" fontSize="28px" lineHeight="1.3" minH="100dvh" h="100dvh" px="min(3vw, 56px)" py="min(3vh, 40px)" display="flex" flexDirection="column" gap="min(2.5vh, 28px)">
      <Flex as="header" align="center" justify="space-between" gap="8" minW="0">
        <Stack gap="0" minW="0">
          <Text as="h1" fontFamily="heading" fontSize="clamp(40px, 3.6vw, 64px)" lineHeight="1.05" fontWeight="black" truncate>
            {name}
          </Text>
          <Text fontSize="clamp(28px, 3vh, 32px)" fontWeight="bold" color={phase === 'live' ? 'gold.400' : 'navy.100'} aria-live="polite" data-testid="tv-headline">
            {headline}
          </Text>
        </Stack>
        {/* No spoilers: the room's TV may run behind the draft; this screen can wait for it (lib/hold-gate.ts). */}
        <Stack data-testid="tv-corner" flexShrink={0} minW="0" gap="2" align="end">
          <ViewingDelayChooser tv />
          <ViewingDelayBadge tv />
        </Stack>
      </Flex>

      {/* Live, the standings take half the width: each row's odds need a line of it (components/tv/tv-panels.tsx). */}
      <Grid templateColumns={{ base: '1fr', lg: phase === 'live' ? 'minmax(0, 1fr) minmax(0, 1fr)' : 'minmax(0, 1.2fr) minmax(0, 1fr)' }} gap="min(2.5vw, 40px)" flex="1" minH="0">
        {phase === 'before' ? (
          <>
            <Panel id="tv-now" title="Draft night">
              <WaitingForPick>
                <Text fontSize="40px" fontWeight="bold" color="gold.400">
                  {countdownText(status.deadline, new Date())}
                </Text>
              </WaitingForPick>
            </Panel>
            <Panel id="tv-standings" title="Entries">
              {members.data ? (
                <Stack gap="2">
                  <Text fontWeight="bold" color="white" data-testid="tv-entries-in">
                    {entriesIn(members.data)}
                  </Text>
                  <MembersIn members={members.data} shown={TV_STANDINGS_ROWS - 2} />
                </Stack>
              ) : (
                <Loading>Loading members...</Loading>
              )}
            </Panel>
          </>
        ) : phase === 'final' ? (
          <>
            <Panel id="tv-now" title="Podium">
              {finalStandings ? <Podium rows={finalStandings.rankings} top={podium(finalStandings.rankings)} /> : <Loading>Loading the final standings...</Loading>}
            </Panel>
            <Panel id="tv-standings" title="Final standings">
              {finalStandings ? <StandingsRows rows={finalStandings.rankings} entries={finalStandings.entries} alive={finalStandings.alive} final /> : <Loading>Loading standings...</Loading>}
            </Panel>
          </>
        ) : (
          <>
            <Stack gap="min(2.5vh, 28px)" minW="0" minH="0">
              <Panel id="tv-now" title="The pick" flex="1" aria-live="polite">
                {latest ? <CurrentPick pick={latest} team={latest.team} slot={latestSlot} /> : <WaitingForPick />}
              </Panel>
              {next !== null && (
                <Panel id="tv-next" title="Next">
                  <NextOnTheClock slot={next} team={teamAt(order, next)} />
                </Panel>
              )}
            </Stack>
            <Panel id="tv-standings" title="Standings">
              {lb ? <StandingsRows rows={lb.rankings} entries={lb.entries} alive={lb.alive} final={false} /> : <Loading>Loading standings...</Loading>}
            </Panel>
          </>
        )}
      </Grid>
    </Box>
  );
}

function Loading({ children }: { children: ReactNode }) {
  return <Text color="navy.100">{children}</Text>;
}
