import { useEffect } from 'react';
import { Box, Flex, HStack, Stack, Text } from '@chakra-ui/react';
import { skipToken } from '@tanstack/react-query';
import { STORAGE_KEYS } from '@first-round/shared/constants';
import { formatWhen } from '@first-round/shared/deadline';
import { lateJoinNotice } from '@first-round/shared/join-words';
import type { ResolvedJoinLink } from '@first-round/shared/schemas';
import { errorKind, trpc } from '../lib/trpc';
import { membersLabel } from './groups/group-utils';

/**
 * The invite a signed-out visitor followed (the join-link page stored its token before sending them to
 * sign up): what the link leads to, from the public `joinLinks.resolve`. A link that has meanwhile expired
 * is forgotten, so the callback does not try it after sign-up.
 */
export function usePendingInvite(): ResolvedJoinLink | undefined {
  const token = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEYS.pendingJoinToken);
  const invite = trpc.joinLinks.resolve.useQuery(token ? { token } : skipToken, { retry: false, staleTime: 60_000 });
  const gone = errorKind(invite.error) === 'NOT_FOUND' || errorKind(invite.error) === 'INVALID_INPUT';
  useEffect(() => {
    if (!gone) return;
    localStorage.removeItem(STORAGE_KEYS.pendingJoinToken);
    localStorage.removeItem(STORAGE_KEYS.redirectAfterAuth);
  }, [gone]);
  return invite.data;
}

const initials = (name: string) =>
  name
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => [...part][0]!.toUpperCase())
    .join('') || '?';

/** A member's initials in a navy disc (the names themselves are listed beside them). */
function Avatar({ name, index }: { name: string; index: number }) {
  const shades = ['navy.600', 'turf.600', 'navy.800', 'navy.500', 'turf.700', 'navy.700'];
  return (
    <Flex
      aria-hidden
      w="9"
      h="9"
      borderRadius="full"
      bg={shades[index % shades.length]}
      color="white"
      fontSize="xs"
      fontWeight="black"
      align="center"
      justify="center"
      borderWidth="2px"
      borderColor="white"
      ms={index === 0 ? '0' : '-2'}
      flexShrink={0}
    >
      {initials(name)}
    </Flex>
  );
}

/** 'GridironGuru, Mia and 10 others' */
function namesLine(names: string[], count: number): string {
  const others = count - names.length;
  if (names.length === 0) return membersLabel(count);
  if (others <= 0) return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${names.join(', ')} and ${others === 1 ? '1 other' : `${others} others`}`;
}

/**
 * 'You're invited': the group, who asked, who is in it, when picks lock, and the game in one line; once the
 * draft has started, what joining now will and won't show instead.
 */
export function InvitationCard({ invite }: { invite: ResolvedJoinLink }) {
  const who = invite.invited_by ?? 'A friend';
  const late = lateJoinNotice(invite);
  return (
    <Box
      as="section"
      aria-label="Your invitation"
      bg="white"
      borderRadius="2xl"
      boxShadow="xl"
      overflow="hidden"
      borderTop="6px solid"
      borderColor="gold.400"
    >
      <Stack gap="3" p={{ base: '5', md: '6' }}>
        <Text fontSize="xs" fontWeight="black" letterSpacing="widest" textTransform="uppercase" color="navy.600">
          You're invited
        </Text>
        <Text fontSize={{ base: 'lg', md: 'xl' }} color="navy.900" lineHeight="short">
          <strong>{who}</strong> invited you to
        </Text>
        <Text as="p" fontSize={{ base: '2xl', md: '3xl' }} fontWeight="black" color="navy.900" lineHeight="1.1" wordBreak="break-word" data-testid="invite-group-name">
          {invite.group_name}
        </Text>
        <HStack gap="3" align="center">
          <Flex>
            {invite.member_names.map((name, i) => (
              <Avatar key={name} name={name} index={i} />
            ))}
          </Flex>
          <Box minW="0">
            <Text fontWeight="bold" color="navy.900" fontSize="sm">
              {membersLabel(invite.member_count)}
            </Text>
            <Text color="gray.700" fontSize="sm" truncate title={namesLine(invite.member_names, invite.member_count)}>
              {namesLine(invite.member_names, invite.member_count)}
            </Text>
          </Box>
        </HStack>
        <Box bg="navy.50" borderRadius="lg" px="3" py="2">
          {late ? (
            // After the start a newcomer gets no entry: what they will and won't see, before they join.
            <Text fontWeight="bold" color="navy.900" fontSize="sm">
              {late}
            </Text>
          ) : (
            <>
              <Text fontWeight="bold" color="navy.900" fontSize="sm">
                Picks lock {formatWhen(invite.pick_deadline)}
              </Text>
              <Text color="gray.700" fontSize="sm">
                Pick the players you think go in round one. One miss and you're out.
              </Text>
            </>
          )}
        </Box>
      </Stack>
    </Box>
  );
}
