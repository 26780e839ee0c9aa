import { Badge, Box, Button, Flex, Text } from '@chakra-ui/react';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import { bustedLine } from '@first-round/shared/entry-words';
import { useDraftStatus, useSlotsLeft } from '../lib/queries';
import { contentionShown, pendingOf, plural, tiebreakText } from '../lib/standings-text';
import { ShareEntryButton } from './share-entry-button';
import { ContentionText, EntryStateBadge, OddsText } from './standings-table';

/** The caller's entry, pinned above the rows wherever it ranks, with the way to its row. */
export function MyEntry({ row, groupId, onJump, jumping, final, sharedFirst, clinched }: { row: LeaderboardRow; groupId: number; onJump: () => void; jumping: boolean; final: boolean; sharedFirst: boolean; clinched: boolean }) {
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
          {/* Its odds as its row says them (none once round one is complete: the server sends none). */}
          {row.odds && (
            <Text fontSize="xs">
              <OddsText odds={row.odds} onDark />
            </Text>
          )}
        </Box>
      </Flex>
    </Box>
  );
}
