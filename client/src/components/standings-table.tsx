import { useState, type ReactNode } from 'react';
import { Badge, Box, Flex, Stack, Text, type FlexProps } from '@chakra-ui/react';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import { CheckIcon, XIcon } from './icons';

/** 'Alive' or 'Busted', in words and colour (never colour alone). */
export function EntryStateBadge({ busted }: { busted: boolean }) {
  return busted ? (
    <Badge colorPalette="red" variant="solid" size="sm" flexShrink={0} gap="1">
      <XIcon size={12} />
      Busted
    </Badge>
  ) : (
    <Badge bg="turf.100" color="turf.700" size="sm" flexShrink={0} gap="1">
      <CheckIcon size={12} />
      Alive
    </Badge>
  );
}

/** 'N entries · M still alive', the line above a table of standings. */
export function standingsSummary(entries: number, alive: number): string {
  return `${entries} ${entries === 1 ? 'entry' : 'entries'} · ${alive} still alive`;
}

function Chevron({ open }: { open: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.5} strokeLinecap="round" strokeLinejoin="round" aria-hidden focusable="false" style={{ transform: open ? 'rotate(180deg)' : undefined, transition: 'transform 0.15s' }}>
      <polyline points="6 9 12 15 18 9" />
    </svg>
  );
}

/** Column sizes: the global board's, and a group board's (fixed padding, a wider rank column, a smaller score). */
const SIZES = {
  global: { px: { base: '3', md: '4' }, rank: { minW: '9' }, score: { minW: '8', fontSize: 'xl' } },
  group: { px: '4', rank: { w: '12' }, score: { fontSize: 'lg' } },
} as const;
type Sizes = (typeof SIZES)[keyof typeof SIZES];

function StandingsRow({
  row,
  highlighted,
  sizes,
  label,
  trailing,
  ...rest
}: { row: LeaderboardRow; highlighted: boolean; sizes: Sizes; label?: ReactNode; trailing?: ReactNode; type?: 'button' } & FlexProps) {
  return (
    <Flex
      px={sizes.px}
      py="3"
      gap="3"
      align="center"
      bg={highlighted ? 'navy.50' : row.rank === 1 && !row.busted ? 'gold.400/15' : undefined}
      boxShadow={highlighted ? 'inset 4px 0 0 var(--chakra-colors-navy-700)' : undefined}
      {...rest}
    >
      <Text {...sizes.rank} flexShrink={0} fontWeight="black" fontSize="lg" color="navy.900" aria-label={`Rank ${row.rank}`}>
        {label ?? row.rank}
      </Text>
      <Box flex="1" minW="0">
        <Flex align="center" gap="2" minW="0" wrap="wrap" rowGap="1">
          <Text fontWeight="semibold" truncate minW="0" maxW="100%">
            {row.participant_name}
          </Text>
          {highlighted && (
            <Badge bg="navy.900" color="white" size="sm" flexShrink={0}>
              You
            </Badge>
          )}
          <EntryStateBadge busted={row.busted} />
        </Flex>
        {row.tiebreak_rank !== null && (
          <Text fontSize="xs" color="gray.600">
            lowest-ranked hit: #{row.tiebreak_rank}
          </Text>
        )}
      </Box>
      <Text flexShrink={0} {...sizes.score} fontWeight="black" color={row.busted ? 'gray.400' : 'turf.600'} textAlign="right" aria-label={`${row.correct_picks} correct ${row.correct_picks === 1 ? 'pick' : 'picks'}`}>
        {row.correct_picks}
      </Text>
      {trailing}
    </Flex>
  );
}

/** Rows that open a panel below them: each row becomes a button, with a chevron. */
export interface RowDetails {
  /** The button's accessible name, open or closed. */
  label: (row: LeaderboardRow, open: boolean) => string;
  panel: (row: LeaderboardRow) => ReactNode;
}

function ExpandableRow({ details, ...props }: { row: LeaderboardRow; highlighted: boolean; sizes: Sizes; details: RowDetails }) {
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
          </Box>
        }
        width="100%"
        textAlign="left"
        cursor="pointer"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={details.label(row, open)}
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
 * Standings: rank (shared ranks as given), name, correct picks, alive or busted, and the tie-break (the
 * entry's lowest-ranked hit). The caller's row is highlighted; when it is not among `rows` (another page
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
  footer,
  details,
  variant = 'global',
}: {
  rows: LeaderboardRow[];
  /** The caller's own row wherever it ranks (leaderboard `me`), or null without an entry. */
  me: LeaderboardRow | null | undefined;
  /** Whose row to highlight; defaults to `me`'s. */
  highlightParticipantId?: string;
  entries?: number;
  alive?: number;
  label?: string;
  /** Below the rows, inside the card (a 'Show more' button, say). */
  footer?: ReactNode;
  details?: RowDetails;
  variant?: keyof typeof SIZES;
}) {
  const sizes = SIZES[variant];
  const highlight = highlightParticipantId ?? me?.participant_id;
  const meShown = !me || rows.some((r) => r.participant_id === me.participant_id);
  return (
    <Stack gap="2">
      {entries !== undefined && alive !== undefined && (
        <Text color="gray.700" fontSize="sm" fontWeight="semibold" aria-live="polite">
          {standingsSummary(entries, alive)}
        </Text>
      )}
      <Box bg="white" borderRadius="xl" borderWidth="1px" borderColor="gray.200" overflow="hidden" boxShadow="sm">
        <Flex px={sizes.px} py="2" gap="3" bg="navy.900" color="navy.100" fontSize="xs" fontWeight="bold" textTransform="uppercase" letterSpacing="wider" aria-hidden>
          <Text {...sizes.rank} flexShrink={0}>
            Rank
          </Text>
          <Text flex="1">Player</Text>
          <Text textAlign="right">Correct</Text>
          {details && <Box w="18px" />}
        </Flex>
        <Stack as="ol" gap="0" listStyleType="none" aria-label={label}>
          {rows.map((row) => {
            const highlighted = row.participant_id === highlight;
            return (
              <Box as="li" key={row.participant_id} borderTopWidth="1px" borderColor="gray.100" aria-current={highlighted ? 'true' : undefined}>
                {details ? <ExpandableRow row={row} highlighted={highlighted} sizes={sizes} details={details} /> : <StandingsRow row={row} highlighted={highlighted} sizes={sizes} />}
              </Box>
            );
          })}
        </Stack>
        {!meShown && me && (
          <Box borderTopWidth="3px" borderColor="gray.200" borderStyle="double" aria-label="Your entry" role="group">
            <StandingsRow row={me} highlighted sizes={sizes} label={<Text as="span" fontSize="md">You: #{me.rank}</Text>} />
          </Box>
        )}
        {footer}
      </Box>
    </Stack>
  );
}
