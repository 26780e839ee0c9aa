import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { MAX_PICKS } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { PrimaryButton } from '../buttons';
import { riskMeterText } from '@first-round/shared/odds-words';
import { selectionsLabel } from '../../lib/selection-text';

/**
 * The sticky bottom bar of the selection screen: '10 / 32' with a progress bar, the
 * '{n} selections' counter, the risk meter ('12 picks · 8 % to survive round one', when `survive` is
 * known) and Save (disabled until there is something to save).
 */
export function SelectionBar({
  count,
  saving,
  onSave,
  unsaved = false,
  onDiscard,
  survive = null,
}: {
  count: number;
  saving: boolean;
  onSave: () => void;
  unsaved?: boolean;
  onDiscard?: () => void;
  survive?: number | null;
}) {
  const full = count >= MAX_PICKS;
  const hint = count === 0 ? MESSAGES.noPlayersSelected : full ? `That's the limit: ${MAX_PICKS} picks. Remove one to add another.` : null;
  return (
    <Box position="fixed" bottom="0" insetX="0" bg="white" borderTopWidth="1px" borderColor="gray.200" boxShadow="0 -4px 16px rgba(11,31,58,0.12)" zIndex="docked">
      <HStack maxW="3xl" mx="auto" px={{ base: '4', md: '6' }} py="3" justify="space-between" gap="4">
        <Stack gap="1.5" flex="1" minW="0">
          <HStack gap={{ base: '2', md: '3' }} align="baseline" whiteSpace="nowrap">
            <Text fontFamily="heading" fontWeight="black" color="navy.900" fontSize={{ base: '2xl', md: '3xl' }} lineHeight="1" aria-hidden data-testid="pick-count">
              {count} / {MAX_PICKS}
            </Text>
            <Text fontSize="sm" fontWeight="semibold" color="gray.700" aria-live="polite">
              {selectionsLabel(count)}
            </Text>
          </HStack>
          <Box
            role="progressbar"
            aria-label="Picks used"
            aria-valuemin={0}
            aria-valuemax={MAX_PICKS}
            aria-valuenow={count}
            aria-valuetext={`${count} of ${MAX_PICKS} picks`}
            h="2"
            maxW="xs"
            bg="gray.200"
            borderRadius="full"
            overflow="hidden"
          >
            <Box h="full" width={`${(Math.min(count, MAX_PICKS) / MAX_PICKS) * 100}%`} bg={full ? 'gold.500' : 'navy.600'} borderRadius="full" transition="width 0.15s" />
          </Box>
          {survive !== null && (
            <Text fontSize="sm" fontWeight="semibold" color={survive < 0.2 ? 'red.700' : 'navy.900'} aria-live="polite" data-testid="risk-meter">
              {riskMeterText(count, survive)}
            </Text>
          )}
          {hint && (
            <Text fontSize="xs" color="gray.700">
              {hint}
            </Text>
          )}
          {unsaved && (
            <HStack gap="2" fontSize="xs" role="status">
              <Text fontWeight="bold" color="red.700">
                Unsaved changes
              </Text>
              {onDiscard && (
                <Button size="2xs" variant="plain" textDecoration="underline" color="gray.700" px="0" onClick={onDiscard}>
                  Discard
                </Button>
              )}
            </HStack>
          )}
        </Stack>
        <PrimaryButton onClick={onSave} loading={saving} disabled={count === 0} minW={{ base: '28', md: '36' }} flexShrink={0}>
          Save Picks
        </PrimaryButton>
      </HStack>
    </Box>
  );
}
