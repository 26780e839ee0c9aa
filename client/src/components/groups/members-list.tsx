import { Badge, Box, Flex, Stack, Text } from '@chakra-ui/react';
import { entryModeLabel, entryModeText } from '@first-round/shared/entries';
import type { RouterOutputs } from '../../lib/trpc';
import { CheckIcon } from '../icons';

type Member = RouterOutputs['groups']['members'][number];

/**
 * The members before the draft: who has picks in, who has not, and whether each plays their My Picks here
 * or picks of their own (never the picks themselves; the caller's own row also says how many).
 */
export function MembersList({ members, me, myPicks }: { members: Member[]; me?: string; myPicks?: number }) {
  const ready = members.filter((m) => m.has_picks).length;
  return (
    <Box as="section" aria-labelledby="members-heading">
      <Flex align="baseline" justify="space-between" mb="2" gap="3">
        <Text as="h2" id="members-heading" fontSize="lg" fontWeight="bold" color="navy.900">
          Members
        </Text>
        <Text fontSize="sm" color="gray.600">
          {ready} of {members.length} ready
        </Text>
      </Flex>
      <Stack as="ul" gap="0" listStyleType="none" aria-label="Members" bg="white" borderRadius="xl" borderWidth="1px" borderColor="gray.200" boxShadow="sm" overflow="hidden">
        {members.map((m, i) => (
          <Flex as="li" key={m.participant_id} px="4" py="3" gap="3" align="center" borderTopWidth={i === 0 ? '0' : '1px'} borderColor="gray.100" bg={m.participant_id === me ? 'navy.50' : undefined}>
            <Flex
              flexShrink={0}
              w="9"
              h="9"
              borderRadius="full"
              align="center"
              justify="center"
              bg="navy.900"
              color="white"
              fontWeight="bold"
              fontSize="sm"
              aria-hidden
            >
              {(m.screen_name ?? m.participant_name).slice(0, 1).toUpperCase()}
            </Flex>
            <Box flex="1" minW="0">
              <Flex minW="0" align="center" gap="2" wrap="wrap">
                <Text fontWeight="semibold" maxW="100%" wordBreak="break-word">
                  {m.screen_name ?? m.participant_name}
                </Text>
                {m.participant_id === me && (
                  <Badge size="sm" bg="navy.900" color="white">
                    You
                  </Badge>
                )}
                {m.is_owner && (
                  <Badge size="sm" bg="gold.400" color="navy.900">
                    Owner
                  </Badge>
                )}
              </Flex>
              <Text fontSize="xs" color="gray.600" data-testid="member-entry-mode">
                {m.participant_id === me && myPicks !== undefined && myPicks > 0 ? entryModeText(m.entry_mode, myPicks) : entryModeLabel(m.entry_mode)}
              </Text>
            </Box>
            {m.has_picks ? (
              <Flex align="center" gap="1" color="turf.700" fontSize="sm" fontWeight="bold" flexShrink={0}>
                <CheckIcon size={16} /> Picks are in
              </Flex>
            ) : (
              <Text color="gray.600" fontSize="sm" fontWeight="medium" flexShrink={0}>
                No picks yet
              </Text>
            )}
          </Flex>
        ))}
      </Stack>
    </Box>
  );
}
