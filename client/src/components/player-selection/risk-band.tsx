import { useMemo } from 'react';
import { Box, HStack, Text } from '@chakra-ui/react';
import { bandRanges, formatBandRange, RISK_BAND_LABELS, RISK_BANDS, type RiskBand } from '@first-round/shared/risk-bands';

/** Light fills with dark text (AA on white and on a selected navy row alike: 6.7–7.4:1). */
const BAND_COLORS: Record<RiskBand, { bg: string; color: string }> = {
  safe: { bg: 'turf.100', color: 'turf.700' },
  bubble: { bg: 'gold.100', color: 'gold.800' },
  long_shot: { bg: 'red.100', color: 'red.800' },
};

/** A player's risk band in words ('Safe', 'Bubble', 'Long shot'): part of the row's accessible name. */
export function RiskBandChip({ band, suffix }: { band: RiskBand; suffix?: string }) {
  return (
    <Box
      as="span"
      flexShrink={0}
      fontSize="xs"
      fontWeight="bold"
      textTransform="uppercase"
      letterSpacing="wide"
      whiteSpace="nowrap"
      px="2"
      py="0.5"
      borderRadius="full"
      data-band={band}
      {...BAND_COLORS[band]}
    >
      {RISK_BAND_LABELS[band]}
      {suffix && ` ${suffix}`}
    </Box>
  );
}

/**
 * The bands as the board draws them ('Safe #1–20 · Bubble #21–40 · Long shot #41+'; names only when a
 * board mixes them), and the one rule that makes them matter.
 */
export function BandLegend({ players }: { players: readonly { rank: number; band: RiskBand }[] }) {
  const items = useMemo(() => {
    const ranges = bandRanges(players);
    if (ranges) return ranges.map((r) => ({ band: r.band, suffix: formatBandRange(r) }));
    return RISK_BANDS.filter((band) => players.some((p) => p.band === band)).map((band) => ({ band, suffix: undefined }));
  }, [players]);
  return (
    <Box mb="3">
      <HStack as="ul" aria-label="Risk bands" gap="1.5" wrap="wrap" listStyleType="none">
        {items.map((item) => (
          <li key={item.band}>
            <RiskBandChip band={item.band} suffix={item.suffix} />
          </li>
        ))}
      </HStack>
      <Text mt="1.5" fontSize="sm" color="gray.700">
        One miss zeroes the entry: every pick has to go in round one.
      </Text>
    </Box>
  );
}
