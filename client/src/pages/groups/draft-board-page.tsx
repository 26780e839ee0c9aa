import { Badge, Box, Flex, Stack, Text } from '@chakra-ui/react';
import { skipToken } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { parseId } from '@first-round/shared/ids';
import { MESSAGES } from '@first-round/shared/messages';
import type { BoardMember, BoardSlot, DraftBoard, WaitingOn } from '@first-round/shared/schemas';
import { useAuth } from '../../auth/auth-context';
import { Card, EmptyState, Page } from '../../components/page';
import { FullPageMessage } from '../../components/full-page-message';
import { PrimaryButton } from '../../components/buttons';
import { BackTo, GroupLoadError } from '../../components/groups/group-frame';
import { NotAMember } from '../../components/groups/not-a-member';
import { CheckIcon } from '../../components/icons';
import { OnTheClock, TeamName } from '../../components/team-name';
import { teamName } from '@first-round/shared/teams';
import { inThisGroup, ofAllEntries } from '@first-round/shared/field-words';
import { useField } from '../../lib/queries';
import { errorKind, errorMessage, trpc } from '../../lib/trpc';
import { isHiddenGroup, membersLabel } from '../../components/groups/group-utils';

/**
 * A group's draft board (/groups/{id}/board): round one's slots as they fill, each with the members who
 * had the player, then the undrafted players members are waiting on. It follows the draft live: the
 * shell's DraftLive reads every `groups.*` query on screen again after each change (lib/live-refresh.ts).
 */
export function DraftBoardPage() {
  const auth = useAuth();
  const { groupId: raw } = useParams();
  const id = parseId(raw);
  if (!auth.isSignedIn) return <FullPageMessage spinner={false}>Please sign in to view this group.</FullPageMessage>;
  if (id === null) return <GroupLoadError message="Group not found" />;
  return <Board id={id} />;
}

function Board({ id }: { id: number }) {
  const opts = { staleTime: STALE_TIMES.groupPage };
  const group = trpc.groups.get.useQuery({ group_id: id }, opts);
  const membership = trpc.groups.membership.useQuery({ group_id: id }, opts);
  const isMember = membership.data?.is_member ?? false;
  const board = trpc.groups.draftBoard.useQuery(isMember ? { group_id: id } : skipToken, opts);

  // A private group one is not in answers as no group does (404): an ordinary state, not a failure to load.
  if (isHiddenGroup(group.error)) return <NotAMember id={id} isPublic={false} />;
  const error = group.error ?? membership.error;
  if (error) return <GroupLoadError message={errorMessage(error, 'Failed to load group details')} />;
  if (!group.data || !membership.data) return <FullPageMessage>Loading draft board...</FullPageMessage>;
  if (!isMember) return <NotAMember id={id} name={group.data.name} isPublic={group.data.is_public} />;

  const me = membership.data.participant_id;
  const back = <BackTo to={`/groups/${id}/picks`} label={`Back to ${group.data.name}`} />;
  const beforeStart = errorKind(board.error) === 'CONFLICT';
  return (
    <Page title="Draft Board" before={back} subtitle={group.data.name}>
      {beforeStart ? (
        <Card>
          <Stack gap="4">
            <Text color="gray.800">{MESSAGES.draftBoardBeforeStart}</Text>
            <PrimaryButton asChild alignSelf="flex-start">
              <Link to={`/groups/${id}/picks`}>Back to the group</Link>
            </PrimaryButton>
          </Stack>
        </Card>
      ) : board.error ? (
        <Card borderColor="red.200">
          <Text role="alert" color="gray.800">
            {errorMessage(board.error, 'Failed to load the draft board')}
          </Text>
        </Card>
      ) : !board.data ? (
        <Text color="gray.600">Loading draft board...</Text>
      ) : (
        <BoardView board={board.data} me={me} />
      )}
    </Page>
  );
}


function BoardView({ board, me }: { board: DraftBoard; me: string }) {
  // What the whole field picked: '41 % of all entries' beside each player (labelled global, beside the
  // group's own '2 of 3 in this group'), once it has arrived.
  const field = useField(true);
  const shareOf = (playerId: number) => {
    if (!field.data) return undefined;
    return field.data.find((f) => f.player_id === playerId)?.share ?? 0;
  };
  const filled = board.slots.filter((s) => s.player).length;
  const onTheClock = board.round_one_complete ? undefined : board.slots.find((s) => !s.player)?.slot;
  return (
    <Stack gap="6" pb="4">
      <Stack gap="1">
        <Text color="gray.700" fontWeight="medium" aria-live="polite">
          {board.round_one_complete ? 'Round one is complete' : `${filled} of ${board.slots.length} picks in`}
          {board.entries > 0 && ` · ${board.alive} of ${board.entries} ${board.round_one_complete ? 'survived' : 'still alive'}`}
        </Text>
        {!board.picks_visible && (
          <Text fontSize="sm" color="gray.600">
            This group keeps picks private: the board counts everyone's picks and names only you.
          </Text>
        )}
      </Stack>

      <Box as="section" aria-labelledby="round-one-heading">
        <Text as="h2" id="round-one-heading" fontSize="lg" fontWeight="bold" color="navy.900" mb="2">
          Round one
        </Text>
        <Stack as="ol" gap="0" listStyleType="none" aria-label="Round one picks" bg="white" borderRadius="xl" borderWidth="1px" borderColor="gray.200" boxShadow="sm" overflow="hidden">
          {board.slots.map((s, i) => (
            <SlotRow key={s.slot} slot={s} me={me} first={i === 0} onTheClock={s.slot === onTheClock} share={s.player ? shareOf(s.player.id) : undefined} entries={board.entries} />
          ))}
        </Stack>
      </Box>

      <Box as="section" aria-labelledby="waiting-heading">
        <Text as="h2" id="waiting-heading" fontSize="lg" fontWeight="bold" color="navy.900" mb="1">
          Waiting on
        </Text>
        <Text fontSize="sm" color="gray.600" mb="2">
          Undrafted players members still need: each member listed busts if he is not taken in round one.
        </Text>
        {board.waiting_on.length === 0 ? (
          <EmptyState>{board.round_one_complete ? 'Round one is over: nobody is waiting any more.' : 'Nobody still alive is waiting on an undrafted player.'}</EmptyState>
        ) : (
          <Stack as="ul" gap="0" listStyleType="none" aria-label="Waiting on" bg="white" borderRadius="xl" borderWidth="1px" borderColor="gray.200" boxShadow="sm" overflow="hidden">
            {board.waiting_on.map((w, i) => (
              <WaitingRow key={w.player_id} item={w} me={me} first={i === 0} share={shareOf(w.player_id)} />
            ))}
          </Stack>
        )}
      </Box>
    </Stack>
  );
}

/**
 * A slot as every screen writes a pick: 'Pick 18 · SEA · Grey Zabel' (the team's full name as its title),
 * 'Pick 19 · TB on the clock', or an open slot with its team written out ('Pick 20 · DEN', Denver Broncos).
 */
function SlotRow({ slot, me, first, onTheClock, share, entries }: { slot: BoardSlot; me: string; first: boolean; onTheClock: boolean; share: number | undefined; entries: number }) {
  const { player, team } = slot;
  const mine = slot.had_by.some((m) => m.participant_id === me);
  return (
    <Stack as="li" px="4" py="3" gap="1" borderTopWidth={first ? '0' : '1px'} borderColor="gray.100" bg={mine ? 'turf.50' : undefined}>
      <Flex align="center" columnGap="2" rowGap="1" wrap="wrap">
        {!player && onTheClock ? (
          <Badge size="md" bg="gold.400" color="navy.900" fontWeight="bold">
            <OnTheClock slot={slot.slot} team={team} />
          </Badge>
        ) : (
          <Text color="navy.900">
            <Text as="span" fontWeight="bold" color="gray.700" whiteSpace="nowrap">
              Pick {slot.slot}
              {team && (
                <>
                  {' · '}
                  <TeamName team={team} />
                </>
              )}
            </Text>
            {player && (
              <>
                {' · '}
                <Text as="span" fontWeight="bold">
                  {player.player_name}
                </Text>
              </>
            )}
          </Text>
        )}
        {mine && (
          <Badge size="sm" bg="turf.700" color="white" gap="1">
            <CheckIcon size={12} /> You
          </Badge>
        )}
      </Flex>
      {player ? (
        <>
          <Text fontSize="sm" color="gray.600">
            {player.position} · {player.school}
          </Text>
          {/* The group's own count first ('2 of 3 in this group'), then the global share, labelled as global. */}
          <Text fontSize="sm" color="gray.700" data-testid="slot-share">
            <Text as="span" fontWeight="semibold">
              {inThisGroup(slot.had_by_count, entries)}
            </Text>
            {share !== undefined && ` · ${ofAllEntries(share)}`}
          </Text>
          {slot.had_by_count > 0 && (
            <Members members={slot.had_by} others={slot.had_by_count - slot.had_by.length} me={me} label={`Had by ${membersLabel(slot.had_by_count)}`} />
          )}
        </>
      ) : (
        !onTheClock && (
          <Text fontSize="sm" color="gray.600">
            {teamName(team) ?? 'No team set'}
          </Text>
        )
      )}
    </Stack>
  );
}

export function WaitingRow({ item, me, first, share }: { item: WaitingOn; me: string; first: boolean; share: number | undefined }) {
  const n = item.needed_by_count;
  return (
    <Stack as="li" px="4" py="3" gap="1" borderTopWidth={first ? '0' : '1px'} borderColor="gray.100">
      <Flex align="baseline" justify="space-between" gap="3" wrap="wrap">
        <Text fontWeight="bold" color="navy.900">
          {item.player_name}
        </Text>
        <Text fontSize="sm" fontWeight="semibold" color="gray.800">
          {n === 1 ? '1 member needs him' : `${n} members need him`}
        </Text>
      </Flex>
      <Text fontSize="sm" color="gray.600">
        {item.position} · {item.school} · #{item.rank} on the board
        {share !== undefined && ` · ${ofAllEntries(share)}`}
      </Text>
      {item.if_goes_now && (
        <Text fontSize="sm" fontWeight="semibold" color="turf.700" data-testid="if-goes-now">
          {item.if_goes_now}
        </Text>
      )}
      <Members members={item.needed_by} others={n - item.needed_by.length} me={me} label={`Needed by ${membersLabel(n)}`} />
    </Stack>
  );
}

/** Members as name chips (the caller's marked 'You'), a list of its own for screen readers. */
function Members({ members, others, me, label }: { members: BoardMember[]; others: number; me: string; label: string }) {
  return (
    <Flex as="ul" aria-label={label} listStyleType="none" gap="1.5" wrap="wrap">
      {members.map((m) => {
        const isMe = m.participant_id === me;
        return (
          <Box
            as="li"
            key={m.participant_id}
            px="2"
            py="0.5"
            borderRadius="full"
            fontSize="sm"
            fontWeight="medium"
            maxW="12rem"
            truncate
            bg={isMe ? 'navy.900' : 'gray.100'}
            color={isMe ? 'white' : 'gray.800'}
          >
            {isMe ? `${m.participant_name} (you)` : m.participant_name}
          </Box>
        );
      })}
      {/* Members a group with private picks does not name: counted, not shown. */}
      {others > 0 && (
        <Box as="li" px="2" py="0.5" borderRadius="full" fontSize="sm" fontWeight="medium" bg="gray.100" color="gray.800">
          {members.length > 0 ? `+${others} more` : membersLabel(others)}
        </Box>
      )}
    </Flex>
  );
}
