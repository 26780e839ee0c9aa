import { useEffect, useRef, useState, type ReactNode } from 'react';
import { keepPreviousData, skipToken } from '@tanstack/react-query';
import { Badge, Box, Button, Flex, HStack, Input, InputGroup, Stack, Text } from '@chakra-ui/react';
import { LEADERBOARD_RETRIES, STALE_TIMES } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import type { LeaderboardInput, LeaderboardRow } from '@first-round/shared/schemas';
import { shouldRetry } from '../lib/query-client';
import { bustedLine, firstPlaceShared } from '@first-round/shared/entry-words';
import { useDraftPhase, useDraftStatus, useSlotsLeft } from '../lib/queries';
import { clinchedEntry, contentionShown, pendingOf, plural, TIEBREAK_EXPLAINED, tiebreakText } from '../lib/standings-text';
import { trpc } from '../lib/trpc';
import { BenchmarkEntries } from './benchmark-entries';
import { FullPageMessage } from './full-page-message';
import { SearchIcon, XIcon } from './icons';
import { InfoTip } from './info-tip';
import { ShareEntryButton } from './share-entry-button';
import { EmptyState } from './page';
import { ContentionText, EntryStateBadge, standingsRowId, standingsSummary, StandingsTable, type RowDetails } from './standings-table';

/** Rows per page: the global standings hold thousands of entries, read a page at a time. */
export const STANDINGS_PAGE_SIZE = 100;
const SEARCH_DELAY_MS = 250;

type ListName = 'main' | 'busted';

/**
 * A group's standings as people read them: the caller's entry pinned on top with 'Jump to me', a search
 * by name over the whole standings (the server searches its ranked copy), the rows a page at a time, and,
 * once fewer entries are alive than busted, the busted ones folded under 'Busted (212)'.
 *
 * The rows come from leaderboard.group: the main list (every entry; only the alive ones while folded;
 * the matches of a search) and, when opened, the busted list. The live stream pushes the newest one on
 * screen after every pick (lib/live-refresh), the other is read again.
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
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const [bustedOpen, setBustedOpen] = useState(false);
  const [bustedOffset, setBustedOffset] = useState(0);
  const [jump, setJump] = useState<ListName | null>(null);
  const top = useRef<HTMLDivElement>(null);
  const bustedTop = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const options = { staleTime: STALE_TIMES.leaderboard, retry: shouldRetry(LEADERBOARD_RETRIES), placeholderData: keepPreviousData };
  // Whether to fold the busted entries away: decided by the counts of the whole board, which every answer
  // carries (the answer shown, even one for the other list until the new one arrives, has the same counts).
  // The query's input needs it before the answer is at hand: taken from the last answer (the rows shown
  // meanwhile are filtered by the answer's own counts below, so no busted row shows in the alive list).
  const [fold, setFold] = useState(false);
  const mainInput: LeaderboardInput = { group_id: groupId, limit: pageSize, offset, ...(search ? { search } : fold ? { status: 'alive' as const } : {}) };
  const main = trpc.leaderboard.group.useQuery(mainInput, options);
  const busted = trpc.leaderboard.group.useQuery(fold && bustedOpen && !search ? { group_id: groupId, limit: pageSize, offset: bustedOffset, status: 'busted' } : skipToken, options);

  const data = main.data;
  const started = data?.draft_started === true;
  const folding = started && data.alive < data.entries - data.alive;
  useEffect(() => setFold(folding), [folding]);
  // Another list (a search typed or cleared, the fold switching): from its first page.
  const listKey = `${search}|${fold}`;
  useEffect(() => setOffset(0), [listKey]);
  // A page past the end (the list shrank meanwhile): its last page.
  useEffect(() => {
    if (data && !main.isPlaceholderData && offset > 0 && offset >= data.matches) setOffset(Math.max(0, Math.floor((data.matches - 1) / pageSize) * pageSize));
  }, [data, main.isPlaceholderData, offset, pageSize]);

  const me = started ? data.me : null;
  const final = useDraftPhase() === 'final';
  // First place is read off the first page of the whole standings (ranks come in order).
  const sharedFirst = offset === 0 && !search && data ? firstPlaceShared(data.rankings) : undefined;
  // The leader that nobody can catch any more says so ('Clinched 1st'), on whatever page shows its row.
  const clinched = clinchedEntry(data);

  // Jump to me: load the page holding the caller's row (from their position in that list), then scroll to it.
  useEffect(() => {
    if (!jump || !me) return;
    const q = jump === 'busted' ? busted : main;
    const current = jump === 'busted' ? bustedOffset : offset;
    if (!q.data || q.isPlaceholderData || (jump === 'main' && search)) return;
    const position = q.data.me_position;
    if (position === null) return setJump(null);
    const want = Math.floor(position / pageSize) * pageSize;
    if (want !== current) return void (jump === 'busted' ? setBustedOffset(want) : setOffset(want));
    if (!q.data.rankings.some((r) => r.participant_id === me.participant_id)) return;
    setJump(null);
    requestAnimationFrame(() => {
      const row = document.getElementById(standingsRowId(me.participant_id));
      row?.scrollIntoView({ block: 'center' });
      row?.focus({ preventScroll: true });
    });
  }, [jump, me, main, busted, offset, bustedOffset, search, pageSize]);

  function jumpToMe() {
    if (!me) return;
    setText('');
    setSearch('');
    const list: ListName = fold && me.busted ? 'busted' : 'main';
    if (list === 'busted') setBustedOpen(true);
    setJump(list);
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
    if (list === 'busted') setBustedOffset(at);
    else setOffset(at);
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

      <InputGroup
        startElement={<SearchIcon size={18} />}
        endElement={
          text && (
            <Button size="xs" variant="ghost" aria-label="Clear the search" onClick={() => setText('')} px="1">
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
          onChange={(e) => setText(e.target.value)}
          bg="white"
          // The clear button is ours (Chromium would draw a second one).
          css={{ '&::-webkit-search-cancel-button': { display: 'none' } }}
        />
      </InputGroup>

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
          <Button
            width="full"
            variant="outline"
            bg="white"
            borderColor="gray.300"
            color="gray.800"
            fontWeight="bold"
            justifyContent="space-between"
            aria-expanded={bustedOpen}
            aria-controls="busted-standings"
            onClick={() => setBustedOpen((o) => !o)}
          >
            <span>Busted ({bustedCount})</span>
            <Text as="span" fontSize="xs" fontWeight="semibold" color="gray.600" aria-hidden>
              {bustedOpen ? 'Hide' : 'Show'}
            </Text>
          </Button>
          {bustedOpen && (
            <Box id="busted-standings" mt="2">
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
            </Box>
          )}
        </Box>
      )}

      {/* Below the standings: the player's own row stays in view on a phone; the benchmarks are for comparing. */}
      {!search && <BenchmarkEntries rows={data.benchmarks} me={me} final={final} />}
    </Stack>
  );
}

/** The caller's entry, pinned above the rows wherever it ranks, with the way to its row. */
function MyEntry({ row, groupId, onJump, jumping, final, sharedFirst, clinched }: { row: LeaderboardRow; groupId: number; onJump: () => void; jumping: boolean; final: boolean; sharedFirst: boolean; clinched: boolean }) {
  // Once final nothing is pending, and nobody is still in contention: the result is the news.
  const pending = final ? null : pendingOf(row);
  // Hooks before any condition: a final night must call the same hooks as a live one.
  const status = useDraftStatus().data;
  const slotsLeft = useSlotsLeft();
  const contention = !final && contentionShown(status);
  return (
    <Box
      role="region"
      aria-label="Your entry"
      bg="navy.900"
      color="white"
      borderRadius="xl"
      px={{ base: '3', md: '4' }}
      py="3"
      boxShadow="md"
    >
      <Flex align="center" justify="space-between" gap="2" mb="1">
        <Text fontSize="xs" fontWeight="bold" textTransform="uppercase" letterSpacing="wider" color="navy.100">
          Your entry
        </Text>
        <Flex gap="2" wrap="wrap" justify="flex-end">
          <ShareEntryButton groupId={groupId} compact variant="outline" borderColor="gold.400" color="gold.400" _hover={{ bg: 'navy.800' }} flexShrink={0} />
          <Button size="sm" bg="gold.400" color="navy.900" fontWeight="bold" _hover={{ bg: 'gold.500' }} onClick={onJump} loading={jumping} flexShrink={0}>
            Jump to me
          </Button>
        </Flex>
      </Flex>
      <Flex align="center" gap="3">
        <Text fontWeight="black" fontSize="2xl" lineHeight="1" aria-label={`Rank ${row.rank}`} flexShrink={0}>
          #{row.rank}
        </Text>
        <Box flex="1" minW="0">
          <Flex align="center" gap="2" minW="0" wrap="wrap">
            <Text fontWeight="bold" minW="0" wordBreak="break-word">
              {row.participant_name}
            </Text>
            <Badge bg="gold.400" color="navy.900" size="sm" flexShrink={0}>
              You
            </Badge>
            <EntryStateBadge row={row} final={final} sharedFirst={sharedFirst} />
          </Flex>
          <Text fontSize="sm" color="navy.100">
            {row.busted ? bustedLine(row, slotsLeft) : plural(row.correct_picks, 'hit')}
            {pending !== null && ` · ${pending} pending`}
          </Text>
          {contention && (
            <Text fontSize="sm">
              <ContentionText row={row} onDark clinched={clinched} />
            </Text>
          )}
          {row.tiebreak_rank !== null && (
            <Text fontSize="xs" color="navy.100">
              {tiebreakText(row.tiebreak_rank)}
            </Text>
          )}
        </Box>
      </Flex>
    </Box>
  );
}

/** 'Showing 101–200 of 302' with Previous and Next, when the list is longer than a page. */
function Pager({ total, offset, limit, onPage, label }: { total: number; offset: number; limit: number; onPage: (offset: number) => void; label: string }) {
  if (total <= limit) return null;
  const last = Math.min(total, offset + limit);
  return (
    <Flex as="nav" aria-label={label} align="center" justify="space-between" gap="2" mt="2">
      <Button size="sm" variant="outline" bg="white" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - limit))}>
        Previous
      </Button>
      <Text fontSize="sm" color="gray.700" aria-live="polite">
        {offset + 1}–{last} of {total}
      </Text>
      <Button size="sm" variant="outline" bg="white" disabled={last >= total} onClick={() => onPage(offset + limit)}>
        Next
      </Button>
    </Flex>
  );
}
