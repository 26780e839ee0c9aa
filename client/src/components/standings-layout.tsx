import { Grid, Text, type GridProps } from '@chakra-ui/react';

/* The standings' grid: column sizes and areas, the headings, the chevron of a row that opens (standings-table.tsx). */

export function Chevron({ open }: { open: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.5} strokeLinecap="round" strokeLinejoin="round" aria-hidden focusable="false" style={{ transform: open ? 'rotate(180deg)' : undefined, transition: 'transform 0.15s' }}>
      <polyline points="6 9 12 15 18 9" />
    </svg>
  );
}

/** Column sizes: the global board's, and a group board's (fixed padding, a larger score). */
export const SIZES = {
  global: { px: { base: '3', md: '4' }, rank: '3rem', score: { fontSize: 'xl' } },
  group: { px: '4', rank: '3rem', score: { fontSize: 'lg' } },
} as const;
export type Sizes = (typeof SIZES)[keyof typeof SIZES];

/**
 * The columns: rank, player (name; under it the tie-break), hits, pending, status. On a phone the status
 * badge goes under the name with the tie-break (`meta`), so the name keeps its width; from md on it has
 * a column of its own. `chevron`: rows that open a panel end with one.
 */
export function columns(sizes: Sizes, chevron: boolean): Pick<GridProps, 'templateColumns' | 'templateAreas'> {
  const end = chevron ? ' chev' : '';
  const endCol = chevron ? ' 18px' : '';
  return {
    templateColumns: { base: `${sizes.rank} minmax(0, 1fr) 2.5rem 4rem${endCol}`, md: `${sizes.rank} minmax(0, 1fr) 3rem 4.5rem 8.5rem${endCol}` },
    templateAreas: {
      base: `"rank name hits pending${end}" "rank meta meta meta${end}"`,
      md: `"rank name hits pending status${end}" "rank tb hits pending status${end}"`,
    },
  };
}

/** The column headings (for sighted readers: each cell of a row names itself to a screen reader). */
export function StandingsHeader({ variant = 'global', sizes = SIZES[variant], chevron = false }: { variant?: keyof typeof SIZES; sizes?: Sizes; chevron?: boolean }) {
  return (
    <Grid
      {...columns(sizes, chevron)}
      templateAreas={{ base: `"rank name hits pending${chevron ? ' chev' : ''}"`, md: `"rank name hits pending status${chevron ? ' chev' : ''}"` }}
      px={sizes.px}
      py="2"
      columnGap={{ base: '2', md: '3' }}
      bg="navy.900"
      color="navy.100"
      fontSize="xs"
      fontWeight="bold"
      textTransform="uppercase"
      letterSpacing={{ base: 'normal', md: 'wider' }}
      aria-hidden
    >
      <Text gridArea="rank">Rank</Text>
      <Text gridArea="name">Player</Text>
      <Text gridArea="hits" textAlign="right">
        Hits
      </Text>
      <Text gridArea="pending" textAlign="right">
        Pending
      </Text>
      <Text gridArea="status" textAlign="right" display={{ base: 'none', md: 'block' }}>
        Status
      </Text>
    </Grid>
  );
}
