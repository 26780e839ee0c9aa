import type { ReactNode } from 'react';
import { Badge, Box, chakra, Flex, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import type { GroupDto, MyGroupStanding } from '@first-round/shared/schemas';
import { entryModeLabel, entryModeText } from '@first-round/shared/entries';
import { bustedLine, entryStateText, placeText } from '@first-round/shared/entry-words';
import type { DraftPhase } from '../../lib/draft-phase';
import { useSlotsLeft } from '../../lib/queries';
import { errorMessage, trpc } from '../../lib/trpc';
import { CardInvite } from './invite';
import { membersLabel } from './group-utils';

const CardLink = chakra(Link);

/**
 * One of the user's groups. The name is the card's link and its hit area covers the whole card
 * (a stretched ::after), so the Invite button can sit inside without nesting controls in a link.
 */
export function GroupCard({ group, phase, standing }: { group: GroupDto; phase: DraftPhase; standing?: MyGroupStanding }) {
  const started = phase !== 'before';
  const membership = trpc.groups.membership.useQuery({ group_id: group.group_id }, { staleTime: STALE_TIMES.groupLists });
  const isOwner = membership.data?.is_owner ?? false;

  return (
    <Flex
      as="li"
      position="relative"
      bg="white"
      borderRadius="xl"
      borderWidth="1px"
      borderColor="gray.200"
      boxShadow="sm"
      p={{ base: '4', md: '5' }}
      align="center"
      gap="3"
      wrap="wrap"
      transition="border-color 0.12s, box-shadow 0.12s"
      _hover={{ borderColor: 'navy.400', boxShadow: 'md' }}
      _focusWithin={{ borderColor: 'navy.400' }}
    >
      <GroupCardText
        name={
          <CardLink
            to={`/groups/${group.group_id}`}
            fontWeight="bold"
            fontSize="lg"
            color="navy.900"
            wordBreak="break-word"
            title={group.name}
            _focusVisible={{ outline: 'none' }}
            _after={{ content: '""', position: 'absolute', inset: '0', borderRadius: 'xl' }}
            css={{ '&:focus-visible::after': { outline: '3px solid', outlineColor: 'var(--chakra-colors-gold-400)', outlineOffset: '2px' } }}
          >
            {group.name}
          </CardLink>
        }
        badges={
          <>
            {isOwner && (
              <Badge size="sm" bg="gold.400" color="navy.900" flexShrink={0}>
                Owner
              </Badge>
            )}
            {group.is_public && <GroupTag>Public</GroupTag>}
          </>
        }
        memberCount={group.member_count}
      >
        {standing && <StandingLine standing={standing} phase={phase} />}
        {membership.isError && (
          <Text role="alert" fontSize="sm" color="red.600" mt="1">
            Membership error: {errorMessage(membership.error, 'Unknown error')}
          </Text>
        )}
      </GroupCardText>
      {membership.data?.can_invite && !started && <CardInvite groupId={group.group_id} groupName={group.name} />}
    </Flex>
  );
}

/**
 * The caller's entry in the group. Before the start: which picks play here and whether they are in
 * ('✓ Using My Picks · 10 · 2 of 3 ready', 'Own picks · 8'), and how many members are ready. While round
 * one runs: their place and whether it is alive ('3rd of 12 · Alive'); once it is final, the result
 * ('FINAL · 1st of 3 · Winner', '… · Survived · 5 hits', '… · Busted').
 */
function StandingLine({ standing, phase }: { standing: MyGroupStanding; phase: DraftPhase }) {
  const place = standing.standing;
  const slotsLeft = useSlotsLeft();
  if (phase !== 'before') {
    const final = phase === 'final';
    return (
      <>
        <Text fontSize="sm" fontWeight="semibold" color="navy.900" mt="1">
          {place ? (
            <>
              {placeText(place.rank, place.entries, final)} ·{' '}
              <Text as="span" color={place.busted ? 'red.700' : 'turf.700'} fontWeight="bold">
                {entryStateText(place, final, place.shared)}
              </Text>
            </>
          ) : (
            <Text as="span" color="gray.600" fontWeight="normal">
              No picks in this group
            </Text>
          )}
        </Text>
        {/* Busted: one number, the hits it had (as My Picks and the share card), and why it busted. */}
        {place?.busted && (
          <Text fontSize="xs" color="gray.700">
            {bustedLine(place, slotsLeft)}
          </Text>
        )}
      </>
    );
  }
  return (
    <Text fontSize="sm" mt="1">
      {standing.has_picks ? (
        <Text as="span" fontWeight="semibold" color="turf.700">
          ✓ {entryModeText(standing.entry_mode, standing.my_picks)}
        </Text>
      ) : (
        <>
          <Text as="span" fontWeight="semibold" color="red.700">
            No picks yet
          </Text>
          <Text as="span" color="gray.600">
            {' '}
            · {entryModeLabel(standing.entry_mode)}
          </Text>
        </>
      )}
      <Text as="span" color="gray.600" whiteSpace="nowrap">
        {' '}
        · {standing.ready} of {standing.members} ready
      </Text>
    </Text>
  );
}

/** A grey outlined tag beside a group's name ('Public', 'Password'). */
export function GroupTag({ children }: { children: ReactNode }) {
  return (
    <Badge size="sm" variant="outline" colorPalette="gray" flexShrink={0}>
      {children}
    </Badge>
  );
}

/** A group card's text: the name with its badges, the member count, then `children`. */
export function GroupCardText({ name, badges, memberCount, children }: { name: ReactNode; badges: ReactNode; memberCount: number; children?: ReactNode }) {
  return (
    <Box flex="1" minW="0">
      <Flex align="center" gap="2" minW="0">
        {name}
        {badges}
      </Flex>
      <Text fontSize="sm" color="gray.600">
        {membersLabel(memberCount)}
      </Text>
      {children}
    </Box>
  );
}
