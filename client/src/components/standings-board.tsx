import { useEffect, useRef, type Dispatch, type ReactNode } from 'react';
import { keepPreviousData, skipToken } from '@tanstack/react-query';
import { Box, Button, Flex, HStack, Input, InputGroup, Stack, Text } from '@chakra-ui/react';
import { LEADERBOARD_RETRIES, STALE_TIMES } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import type { LeaderboardInput } from '@first-round/shared/schemas';
import { shouldRetry } from '../lib/query-client';
import { firstPlaceShared } from '@first-round/shared/entry-words';
import { useDraftPhase } from '../lib/queries';
import { clinchedEntry, plural, TIEBREAK_EXPLAINED } from '../lib/standings-text';
import { trpc } from '../lib/trpc';
import { BenchmarkEntries } from './benchmark-entries';
import { FullPageMessage } from './full-page-message';
import { SearchIcon, XIcon } from './icons';
import { InfoTip } from './info-tip';
import { MyEntry } from './my-entry-card';
import { EmptyState } from './page';
import { Pager } from './pager';
import { useBoardState, useJumpToMe, type BoardAction, type ListName } from './standings-board-state';
import { standingsSummary, StandingsTable, type RowDetails } from './standings-table';

/** Rows per page: the global standings hold thousands of entries, read a page at a time. */
export const STANDINGS_PAGE_SIZE = 100;

/**
 * A group's standings as people read them: the caller's entry pinned on top with 'Jump to me', a search
 * by name over the whole standings (the server searches its ranked copy), the rows a page at a time, and,
 * once fewer entries are alive than busted, the busted ones folded under 'Busted (212)'.
 *
 * The rows come from leaderboard.group: the main list (every entry; only the alive ones while folded;
 * the matches of a search) and, when opened, the busted list. The live stream pushes the newest one on
 * screen after every pick (lib/live-refresh), the other is read again. What the reader did (typed, paged,
 * opened the fold) is one reducer's (standings-board-state.ts); everything else is read off the answers.
 */
export function StandingsBoard({
  groupId,
  pageSize = STANDINGS_PAGE_SIZE,
  details,
  variant = 'global',
  highlightParticipantId,
  summary = standingsSummary,
  hint,
}: {
  groupId: number;
  pageSize?: number;
  details?: RowDetails;
  variant?: 'global' | 'group';
  /** Whose row to highlight before the first answer names the caller's own. */
  highlightParticipantId?: string;
  /** The line above the rows ('3 entries · 2 still alive', once final '… · 2 survived round one'). */
  summary?: (entries: number, alive: number, final: boolean) => string;
  /** A note beside the summary ('Tap a row to see that member's picks'). */
  hint?: ReactNode;
}) {
  const [state, dispatch] = useBoardState();
  const { text, search, fold, offset, bustedOpen, bustedOffset, jump } = state;
  const top = useRef<HTMLDivElement>(null);
  const bustedTop = useRef<HTMLDivElement>(null);

  const options = { staleTime: STALE_TIMES.leaderboard, retry: shouldRetry(LEADERBOARD_RETRIES), placeholderData: keepPreviousData };
  // Whether to fold the busted entries away: decided by the counts of the whole board, which every answer
  // carries (the answer shown, even one for the other list until the new one arrives, has the same counts).
  // The query's input needs it before the answer is at hand: taken from the last answer (the rows shown
  // meanwhile are filtered by the answer's own counts below, so no busted row shows in the alive list).
  const mainInput: LeaderboardInput = { group_id: groupId, limit: pageSize, offset, ...(search ? { search } : fold ? { status: 'alive' as const } : {}) };
  const main = trpc.leaderboard.group.useQuery(mainInput, options);
  const busted = trpc.leaderboard.group.useQuery(fold && bustedOpen && !search ? { group_id: groupId, limit: pageSize, offset: bustedOffset, status: 'busted' } : skipToken, options);

  const data = main.data;
  const started = data?.draft_started === true;
  const folding = started && data.alive < data.entries - data.alive;
  // Taken in as the answer renders (the reducer starts the list from its first page when the fold switches).
  if (folding !== fold) dispatch({ type: 'fold', fold: folding });
  // A page past the end (the list shrank meanwhile): its last page.
  useEffect(() => {
    if (data && !main.isPlaceholderData && offset > 0 && offset >= data.matches) dispatch({ type: 'page', list: 'main', offset: Math.max(0, Math.floor((data.matches - 1) / pageSize) * pageSize) });
  }, [data, main.isPlaceholderData, offset, pageSize, dispatch]);

  const me = started ? data.me : null;
  const final = useDraftPhase() === 'final';
  // First place is read off the first page of the whole standings (ranks come in order).
  const sharedFirst = offset === 0 && !search && data ? firstPlaceShared(data.rankings) : undefined;
  // The leader that nobody can catch any more says so ('Clinched 1st'), on whatever page shows its row.
  const clinched = clinchedEntry(data);

  useJumpToMe(state, dispatch, { main, busted }, me, pageSize);

  function jumpToMe() {
    if (me) dispatch({ type: 'jump', list: fold && me.busted ? 'busted' : 'main' });
  }

  if (main.isPending) return <FullPageMessage>Loading the leaderboard...</FullPageMessage>;
  if (!data)
    return (
      <EmptyState>
        <Text role="alert">{MESSAGES.leaderboardLoadFailed}</Text>
        <Button mt="4" variant="outline" size="sm" onClick={() => void main.refetch()}>
          Retry
        </Button>
      </EmptyState>
    );
  if (!data.draft_started) return <EmptyState>{MESSAGES.leaderboardBeforeStart}</EmptyState>;
  if (data.entries === 0) return <EmptyState>{MESSAGES.leaderboardEmpty}</EmptyState>;

  const highlight = me?.participant_id ?? highlightParticipantId;
  // While folded the main list holds alive entries only: an answer for another list, shown until this one
  // arrives (or while the counts are being taken in), loses its busted rows.
  const rows = (fold || folding) && !search ? data.rankings.filter((r) => !r.busted) : data.rankings;
  const bustedCount = data.entries - data.alive;
  const bustedRows = (busted.data?.rankings ?? []).filter((r) => r.busted);
  const showPage = (list: ListName, at: number) => {
    dispatch({ type: 'page', list, offset: at });
    (list === 'busted' ? bustedTop : top).current?.scrollIntoView({ block: 'start' });
  };

  return (
    <Stack gap="3">
      <Flex justify="space-between" align="center" gap="2" wrap="wrap">
        <Text color="gray.700" fontSize="sm" fontWeight="semibold" aria-live="polite">
          {summary(data.entries, data.alive, final)}
        </Text>
        <HStack gap="3" fontSize="xs" wrap="wrap">
          {hint}
          <InfoTip label="Tie-break: boldest hit (what it means)" trigger="Tie-break: boldest hit">
            {TIEBREAK_EXPLAINED}
          </InfoTip>
        </HStack>
      </Flex>

      {me && <MyEntry row={me} groupId={groupId} onJump={jumpToMe} jumping={jump !== null} final={final} sharedFirst={sharedFirst ?? false} clinched={clinched === me.participant_id} />}

      <SearchBox text={text} dispatch={dispatch} />

      <Box ref={top} scrollMarginTop="32">
        {search && (
          <Text color="gray.700" fontSize="sm" mb="2" aria-live="polite">
            {main.isPlaceholderData ? 'Searching…' : `${plural(data.matches, 'match', 'matches')} for “${search}”`}
          </Text>
        )}
        {search && !main.isPlaceholderData && data.matches === 0 ? (
          <EmptyState>No one named “{search}” in these standings.</EmptyState>
        ) : (
          <StandingsTable rows={rows} me={undefined} highlightParticipantId={highlight} details={details} variant={variant} sharedFirst={sharedFirst} clinched={clinched} />
        )}
        <Pager total={data.matches} offset={offset} limit={pageSize} onPage={(at) => showPage('main', at)} label="Pages of the standings" />
      </Box>

      {fold && !search && bustedCount > 0 && (
        <Box ref={bustedTop} scrollMarginTop="32">
          <BustedFold count={bustedCount} open={bustedOpen} onToggle={() => dispatch({ type: 'toggleBusted' })}>
            {busted.isPending ? (
              <Text color="gray.600" role="status">
                Loading the busted entries...
              </Text>
            ) : busted.isError && !busted.data ? (
              <Text role="alert">{MESSAGES.leaderboardLoadFailed}</Text>
            ) : (
              <>
                <StandingsTable rows={bustedRows} me={undefined} highlightParticipantId={highlight} details={details} variant={variant} label="Busted entries" sharedFirst={false} />
                <Pager total={busted.data?.matches ?? 0} offset={bustedOffset} limit={pageSize} onPage={(at) => showPage('busted', at)} label="Pages of the busted entries" />
              </>
            )}
          </BustedFold>
        </Box>
      )}

      {/* Below the standings: the player's own row stays in view on a phone; the benchmarks are for comparing. */}
      {!search && <BenchmarkEntries rows={data.benchmarks} me={me} final={final} />}
    </Stack>
  );
}

/** The search by name, with its own clear button. */
function SearchBox({ text, dispatch }: { text: string; dispatch: Dispatch<BoardAction> }) {
  return (
    <InputGroup
      startElement={<SearchIcon size={18} />}
      endElement={
        text && (
          <Button size="xs" variant="ghost" aria-label="Clear the search" onClick={() => dispatch({ type: 'type', text: '' })} px="1">
            <XIcon size={16} />
          </Button>
        )
      }
    >
      <Input
        type="search"
        aria-label="Search by name"
        placeholder="Search by name"
        value={text}
        onChange={(e) => dispatch({ type: 'type', text: e.target.value })}
        bg="white"
        // The clear button is ours (Chromium would draw a second one).
        css={{ '&::-webkit-search-cancel-button': { display: 'none' } }}
      />
    </InputGroup>
  );
}

/** 'Busted (212)': the busted entries, folded away until opened. */
function BustedFold({ count, open, onToggle, children }: { count: number; open: boolean; onToggle: () => void; children: ReactNode }) {
  return (
    <>
      <Button
        width="full"
        variant="outline"
        bg="white"
        borderColor="gray.300"
        color="gray.800"
        fontWeight="bold"
        justifyContent="space-between"
        aria-expanded={open}
        aria-controls="busted-standings"
        onClick={onToggle}
      >
        <span>Busted ({count})</span>
        <Text as="span" fontSize="xs" fontWeight="semibold" color="gray.600" aria-hidden>
          {open ? 'Hide' : 'Show'}
        </Text>
      </Button>
      {open && (
        <Box id="busted-standings" mt="2">
          {children}
        </Box>
      )}
    </>
  );
}
