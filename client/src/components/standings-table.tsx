import { useState, type ReactNode } from 'react';
import { Badge, Box, Grid, Stack, Text, VisuallyHidden, type GridProps } from '@chakra-ui/react';
import type { LeaderboardRow, StandingOdds } from '@first-round/shared/schemas';
import { BUST_RULE, bustedLine, entryState, entryStateText, fieldSummary, firstPlaceShared, hadHitsText } from '@first-round/shared/entry-words';
import { useDraftPhase, useSlotsLeft } from '../lib/queries';
import { contentionText, pendingOf, plural, tiebreakText } from '../lib/standings-text';
import { CheckIcon, XIcon } from './icons';
import { MoveFlash, RankMove, useRankMoves } from './rank-moves';
import { Chevron, columns, SIZES, StandingsHeader, type Sizes } from './standings-layout';

/**
 * An entry's state in words and colour (never colour alone): 'Alive' or 'Busted' while round one runs;
 * once it is final 'Winner' (or 'Shared winner'), 'Survived · 7 hits' or 'Busted' (shared/src/entry-words.ts).
 * A benchmark has no rank: it can survive, never win.
 */
export function EntryStateBadge({ row, final, sharedFirst = false }: { row: { rank?: number; busted: boolean; correct_picks: number }; final: boolean; sharedFirst?: boolean }) {
  const ranked = { rank: row.rank ?? Number.POSITIVE_INFINITY, busted: row.busted, correct_picks: row.correct_picks };
  const text = entryStateText(ranked, final, sharedFirst);
  switch (entryState(ranked, final)) {
    case 'busted':
      return (
        <Badge colorPalette="red" variant="solid" size="sm" flexShrink={0} gap="1">
          <XIcon size={12} />
          {text}
        </Badge>
      );
    case 'winner':
      return (
        <Badge bg="gold.400" color="navy.900" size="sm" flexShrink={0} fontWeight="black">
          {text}
        </Badge>
      );
    default:
      return (
        <Badge bg="turf.100" color="turf.700" size="sm" flexShrink={0} gap="1">
          <CheckIcon size={12} />
          {text}
        </Badge>
      );
  }
}

/**
 * 'Can still win' or "Can't finish 1st" beside an alive entry during the draft: in words, not colour
 * alone, at AA contrast on the light rows or, `onDark`, on the navy card.
 */
export function ContentionText({ row, onDark = false, clinched = false }: { row: Pick<LeaderboardRow, 'busted' | 'can_win'>; onDark?: boolean; clinched?: boolean }) {
  const text = contentionText(row, clinched);
  if (!text) return null;
  const color = row.can_win ? (onDark ? 'gold.400' : 'turf.700') : onDark ? 'navy.100' : 'gray.700';
  return (
    <Text as="span" fontSize="xs" fontWeight="bold" color={color} whiteSpace="nowrap">
      {text}
    </Text>
  );
}

/** An entry's odds in the standings (a group's, or the global ones), in words: '37 % to survive · 12 % to win' (none once round one is complete). */
export function OddsText({ odds, onDark = false }: { odds: StandingOdds; onDark?: boolean }) {
  return (
    <Text as="span" fontSize="xs" fontWeight="semibold" color={onDark ? 'navy.100' : 'navy.700'} whiteSpace="nowrap" data-testid="entry-odds">
      {odds.text}
    </Text>
  );
}

/** 'N entries · M still alive' (once final 'M survived round one'), the line above a table of standings. */
export function standingsSummary(entries: number, alive: number, final: boolean): string {
  return fieldSummary(entries, alive, final);
}

/** A final night's moves: none. */
const NO_MOVES: ReadonlyMap<string, number> = new Map();

/** The id of a participant's row (Jump to me scrolls to it). */
export const standingsRowId = (participantId: string) => `standing-${participantId}`;

function StandingsRow({
  row,
  highlighted,
  sizes,
  label,
  trailing,
  move,
  contention,
  clinched,
  final = false,
  sharedFirst = false,
  slotsLeft = 0,
  ...rest
}: { row: LeaderboardRow; highlighted: boolean; sizes: Sizes; label?: ReactNode; trailing?: ReactNode; move?: number; type?: 'button'; contention?: boolean; clinched?: boolean; final?: boolean; sharedFirst?: boolean; slotsLeft?: number } & GridProps) {
  const pending = pendingOf(row);
  return (
    <Grid
      {...columns(sizes, Boolean(trailing))}
      px={sizes.px}
      py="3"
      columnGap={{ base: '2', md: '3' }}
      rowGap="1"
      alignItems="center"
      bg={highlighted ? 'navy.50' : row.rank === 1 && !row.busted ? 'gold.400/15' : undefined}
      boxShadow={highlighted ? 'inset 4px 0 0 var(--chakra-colors-navy-700)' : undefined}
      {...rest}
    >
      <Box gridArea="rank">
        <Text fontWeight="black" fontSize="lg" color="navy.900" aria-label={`Rank ${row.rank}`}>
          {label ?? row.rank}
        </Text>
        <RankMove delta={move} />
      </Box>
      <Box gridArea="name" display="flex" alignItems="center" gap="2" minW="0" flexWrap={highlighted ? 'wrap' : undefined}>
        {/* Others' long names are cut to fit; the player's own is never cut: it wraps. */}
        <Text fontWeight="semibold" minW="0" wordBreak="break-word">
          {row.participant_name}
        </Text>
        {highlighted && (
          <Badge bg="navy.900" color="white" size="sm" flexShrink={0}>
            You
          </Badge>
        )}
      </Box>
      {/* One box on a phone (badge and tie-break side by side); from md on its two children take their own cells. */}
      <Box gridArea="meta" display={{ base: 'flex', md: 'contents' }} alignItems="center" flexWrap="wrap" columnGap="2" rowGap="1" minW="0">
        <Box gridArea="status" justifySelf="end" display="flex">
          <EntryStateBadge row={row} final={final} sharedFirst={sharedFirst} />
        </Box>
        <Box gridArea="tb" display="flex" flexWrap="wrap" alignItems="center" columnGap="2" minW="0">
          {contention && <ContentionText row={row} clinched={clinched} />}
          <Text fontSize="xs" color="gray.600" minW="0">
            {/* A busted entry's one number, the hits it had, and why it busted (shared/src/entry-words.ts). */}
            {row.busted ? bustedLine(row, slotsLeft) : row.tiebreak_rank !== null && tiebreakText(row.tiebreak_rank)}
          </Text>
          {row.odds && <OddsText odds={row.odds} />}
        </Box>
      </Box>
      <Text
        gridArea="hits"
        {...sizes.score}
        fontWeight="black"
        color={row.busted ? 'gray.600' : 'turf.700'}
        textAlign="right"
        aria-label={row.busted ? `Busted: score 0, ${hadHitsText(row.hits)}` : `${row.correct_picks} correct ${row.correct_picks === 1 ? 'pick' : 'picks'}`}
      >
        {row.busted ? '–' : row.correct_picks}
      </Text>
      <Text gridArea="pending" fontWeight="bold" color="gray.700" textAlign="right" aria-label={pending === null ? 'No pending picks: busted' : `${plural(pending, 'pick')} pending`}>
        {pending ?? '–'}
      </Text>
      {trailing && <Box gridArea="chev">{trailing}</Box>}
    </Grid>
  );
}

/** Rows that open a panel below them: each row becomes a button, with a chevron. */
export interface RowDetails {
  /**
   * What a screen reader hears after the row's own words, open or closed ('Show picks'), not shown. The
   * button is named by what it shows, so its name holds every word a sighted or voice user reads on it (an
   * aria-label of its own left out the tie-break, the odds and 'Can still win': axe's label-content-name-mismatch).
   */
  hint: (row: LeaderboardRow, open: boolean) => string;
  panel: (row: LeaderboardRow) => ReactNode;
}

function ExpandableRow({ details, ...props }: { row: LeaderboardRow; highlighted: boolean; sizes: Sizes; move?: number; details: RowDetails; contention?: boolean; clinched?: boolean; final?: boolean; sharedFirst?: boolean; slotsLeft?: number }) {
  const { row, highlighted } = props;
  const [open, setOpen] = useState(false);
  const panelId = `picks-${row.participant_id}`;
  return (
    <>
      <StandingsRow
        as="button"
        type="button"
        {...props}
        trailing={
          <Box color="gray.500" flexShrink={0}>
            <Chevron open={open} />
            <VisuallyHidden>{details.hint(row, open)}</VisuallyHidden>
          </Box>
        }
        width="100%"
        textAlign="left"
        cursor="pointer"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        _hover={{ bg: highlighted ? 'navy.100' : 'gray.50' }}
        _focusVisible={{ outline: '3px solid', outlineColor: 'gold.400', outlineOffset: '-3px' }}
      />
      {open && (
        <Box id={panelId} px={{ base: '3', md: '4' }} pb="3" pt="1" bg={highlighted ? 'navy.50' : undefined}>
          {details.panel(row)}
        </Box>
      )}
    </>
  );
}

/**
 * Standings: rank (shared ranks as given), name, hits (correct picks), pending picks, alive or busted, and
 * the tie-break in words (the entry's boldest hit). The caller's row is highlighted; when it is not among `rows` (another page
 * of a big board) it is shown below the table as 'You: #1234'. With `entries`/`alive` a summary heads it.
 * With `details` each row is a button that opens a panel below it (a group member's picks); `variant`
 * picks the column sizes.
 */
export function StandingsTable({
  rows,
  me,
  highlightParticipantId,
  entries,
  alive,
  label = 'Rankings',
  details,
  variant = 'global',
  header = true,
  sharedFirst,
  clinched,
}: {
  rows: LeaderboardRow[];
  /** The caller's own row wherever it ranks (leaderboard `me`), or null without an entry. */
  me: LeaderboardRow | null | undefined;
  /** Whose row to highlight; defaults to `me`'s. */
  highlightParticipantId?: string;
  entries?: number;
  alive?: number;
  label?: string;
  details?: RowDetails;
  variant?: keyof typeof SIZES;
  /** The column headings (off for a second list under the same headings). */
  header?: boolean;
  /** Whether first place is shared ('Shared winner'); by default read from `rows`. */
  sharedFirst?: boolean;
  /** The entry that has clinched first place ('Clinched 1st' instead of 'Can still win'), if any. */
  clinched?: string | null;
}) {
  const sizes = SIZES[variant];
  const highlight = highlightParticipantId ?? me?.participant_id;
  const meShown = !me || rows.some((r) => r.participant_id === me.participant_id);
  const phase = useDraftPhase();
  const final = phase === 'final';
  const slotsLeft = useSlotsLeft();
  // Draft night: rows that moved since the previous pick flash once and show ▲3 / ▼2; a final night
  // has no moves to show, only results.
  const tracked = useRankMoves(rows, me);
  const { moves, version } = final ? { moves: NO_MOVES, version: tracked.version } : tracked;
  const contention = phase === 'live';
  const shared = sharedFirst ?? firstPlaceShared(rows);
  return (
    <Stack gap="2">
      {entries !== undefined && alive !== undefined && (
        <Text color="gray.700" fontSize="sm" fontWeight="semibold" aria-live="polite">
          {standingsSummary(entries, alive, final)}
        </Text>
      )}
      <Box bg="white" borderRadius="xl" borderWidth="1px" borderColor="gray.200" overflow="hidden" boxShadow="sm">
        {header && <StandingsHeader sizes={sizes} chevron={Boolean(details)} />}
        <Stack as="ol" gap="0" listStyleType="none" aria-label={label}>
          {rows.map((row) => {
            const highlighted = row.participant_id === highlight;
            const move = moves.get(row.participant_id);
            return (
              <Box
                as="li"
                key={row.participant_id}
                id={standingsRowId(row.participant_id)}
                tabIndex={-1}
                scrollMarginTop="40"
                _focusVisible={{ outline: '3px solid', outlineColor: 'gold.400', outlineOffset: '-3px' }}
                position="relative"
                borderTopWidth="1px"
                borderColor="gray.100"
                aria-current={highlighted ? 'true' : undefined}
              >
                {details ? (
                  <ExpandableRow row={row} highlighted={highlighted} sizes={sizes} move={move} details={details} contention={contention} clinched={row.participant_id === clinched} final={final} sharedFirst={shared} slotsLeft={slotsLeft} />
                ) : (
                  <StandingsRow row={row} highlighted={highlighted} sizes={sizes} move={move} contention={contention} clinched={row.participant_id === clinched} final={final} sharedFirst={shared} slotsLeft={slotsLeft} />
                )}
                <MoveFlash delta={move} version={version} />
              </Box>
            );
          })}
        </Stack>
        {!meShown && me && (
          <Box position="relative" borderTopWidth="3px" borderColor="gray.200" borderStyle="double" aria-label="Your entry" role="group">
            <StandingsRow row={me} highlighted sizes={sizes} move={moves.get(me.participant_id)} contention={contention} clinched={me.participant_id === clinched} final={final} sharedFirst={shared} slotsLeft={slotsLeft} label={<Text as="span" fontSize="md">You: #{me.rank}</Text>} />
            <MoveFlash delta={moves.get(me.participant_id)} version={version} />
          </Box>
        )}
      </Box>
      {(rows.some((r) => r.busted) || me?.busted) && (
        <Text fontSize="xs" color="gray.700" data-testid="bust-rule">
          {BUST_RULE}
        </Text>
      )}
    </Stack>
  );
}
