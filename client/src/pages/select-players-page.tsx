import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, chakra, Flex, HStack, IconButton, Input, InputGroup, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { compareByDraftOrder, filterPlayers, POSITION_FILTERS } from '@first-round/shared/player-filter';
import { Page, EmptyState } from '../components/page';
import { outcomeStyle, PlayerRowContent } from '../components/player-row';
import { draftSnapshot, outcomeOf } from '../lib/draft-snapshot';
import { BackIcon, CheckIcon, SearchIcon } from '../components/icons';
import { FullPageMessage } from '../components/full-page-message';
import { PrimaryButton } from '../components/form-bits';
import { notify } from '../lib/toaster';
import { errorMessage, trpc } from '../lib/trpc';
import { parseId, selectPlayersTitle } from '../lib/select-title';

const needsAccountSync = (message: string) => /foreign key|participant_id|not present in table/i.test(message);

const RowButton = chakra('button');

export function SelectPlayersPage() {
  const [params] = useSearchParams();
  const groupId = parseId(params.get('groupId'));
  const groupMode = groupId !== null;
  const reuse = groupMode && params.get('reusePicks') === 'true';
  const navigate = useNavigate();
  const utils = trpc.useUtils();

  const players = trpc.players.list.useQuery(undefined, { staleTime: STALE_TIMES.players });
  const draft = trpc.draft.status.useQuery(undefined, { staleTime: STALE_TIMES.draftStatus });
  const saved = trpc.picks.mine.useQuery(groupMode ? { group_id: groupId } : undefined, { staleTime: STALE_TIMES.groupPage });
  const globalPicks = trpc.picks.global.useQuery(undefined, { enabled: reuse, staleTime: STALE_TIMES.groupPage });
  const save = trpc.picks.save.useMutation();

  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [query, setQuery] = useState('');
  const [position, setPosition] = useState('');
  const loaded = useRef(false);

  // Start from the saved picks (or the global ones when reusing them) once they arrive.
  const source = reuse ? globalPicks : saved;
  useEffect(() => {
    if (loaded.current || !source.data) return;
    loaded.current = true;
    setSelected(new Set(source.data.picks));
  }, [source.data]);

  useEffect(() => {
    if (source.isError) notify('error', reuse ? 'Failed to load your global picks' : 'Failed to load your picks');
  }, [source.isError, reuse]);

  const started = draft.data?.draftHasStarted ?? false;
  const title = selectPlayersTitle({ started, groupMode, reuse, hasPicks: (saved.data?.picks.length ?? 0) > 0 });
  const backTo = groupMode ? `/groups/${groupId}/picks` : null;

  const visible = useMemo(() => {
    const all = players.data ?? [];
    if (started) {
      const mine = new Set(saved.data?.picks ?? []);
      return all.filter((p) => mine.has(p.id)).sort(compareByDraftOrder);
    }
    return filterPlayers(all, query, position);
  }, [players.data, started, saved.data, query, position]);

  function toggle(id: number) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  async function onSave() {
    if (selected.size === 0) return notify('error', MESSAGES.noPlayersSelectedTitle, MESSAGES.noPlayersSelected);
    const input = { picks: [...selected], ...(groupMode ? { group_id: groupId } : {}) };
    const succeed = async () => {
      await Promise.all([utils.picks.mine.invalidate(), utils.picks.global.invalidate(), utils.groups.invalidate()]);
      notify('success', 'Picks saved', `${selected.size} ${selected.size === 1 ? 'player' : 'players'} locked in until draft night.`);
      navigate(backTo ?? '/my-picks');
    };
    try {
      await save.mutateAsync(input);
      return succeed();
    } catch (err) {
      const message = errorMessage(err, '');
      if (message.includes('Number of picks must be between')) return notify('error', MESSAGES.tooManyPicksTitle, MESSAGES.tooManyPicks);
      if (!needsAccountSync(message)) return notify('error', MESSAGES.savePicksFailed);
    }
    // The account was not provisioned yet: sync it, then try once more (SPEC §8).
    notify('warning', MESSAGES.accountSyncRequired, 'Syncing your account and saving again...');
    try {
      await utils.auth.me.fetch();
    } catch {
      return notify('error', MESSAGES.accountSyncFailed);
    }
    try {
      await save.mutateAsync(input);
      return succeed();
    } catch {
      return notify('error', MESSAGES.savePicksFailed);
    }
  }

  if (players.isPending || draft.isPending) return <FullPageMessage>Loading players...</FullPageMessage>;
  const snapshot = started ? draftSnapshot(draft.data, players.data) : null;

  const back = backTo && (
    <IconButton asChild aria-label="Back to group picks" variant="ghost" size="sm" alignSelf="flex-start" ms="-2">
      <Link to={backTo}>
        <BackIcon />
      </Link>
    </IconButton>
  );

  return (
    <Page
      title={title}
      before={back}
      subtitle={
        started
          ? 'The draft has started: picks are locked. ✓ marks a pick that went in the first round, ✗ one that did not.'
          : 'Tap a player to add or remove him. Pick between 1 and 32 players you think go in the 1st Round.'
      }
    >
      {!started && (
        <Flex gap="2" mb="4" position="sticky" top={{ base: '96px', md: '50px' }} zIndex="1" bg="gray.50" py="2">
          <InputGroup flex="1" startElement={<SearchIcon size={18} />}>
            <Input aria-label="Search Players" placeholder="Search Players" value={query} onChange={(e) => setQuery(e.target.value)} bg="white" size="lg" />
          </InputGroup>
          <NativeSelect.Root width="auto" size="lg">
            <NativeSelect.Field aria-label="Pos" value={position} onChange={(e) => setPosition(e.target.value)} bg="white" minW="24">
              <option value="">Pos</option>
              {POSITION_FILTERS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Flex>
      )}

      {visible.length === 0 ? (
        <EmptyState>{started ? 'You made no picks before the draft started.' : 'No players match your search.'}</EmptyState>
      ) : (
        <Stack as="ul" gap="2" listStyleType="none" pb="28" aria-label={started ? 'Your picks' : 'Players'}>
          {visible.map((player) => {
            const isSelected = selected.has(player.id);
            if (started) {
              const outcome = snapshot ? outcomeOf(player, snapshot) : null;
              return (
                <Box as="li" key={player.id} px="3" py="2.5" borderRadius="lg" borderWidth="2px" {...outcomeStyle(outcome)}>
                  <PlayerRowContent player={player} outcome={outcome} />
                </Box>
              );
            }
            return (
              <li key={player.id}>
                <RowButton
                  type="button"
                  aria-pressed={isSelected}
                  onClick={() => toggle(player.id)}
                  display="flex"
                  width="100%"
                  px="3"
                  py="2.5"
                  borderRadius="lg"
                  borderWidth="1px"
                  borderColor={isSelected ? 'navy.900' : 'gray.200'}
                  bg={isSelected ? 'navy.900' : 'white'}
                  color={isSelected ? 'white' : 'gray.900'}
                  boxShadow={isSelected ? 'md' : 'xs'}
                  cursor="pointer"
                  transition="background 0.12s"
                  _hover={{ borderColor: 'navy.400' }}
                  _focusVisible={{ outline: '3px solid', outlineColor: 'gold.400', outlineOffset: '1px' }}
                >
                  <PlayerRowContent player={player} selected={isSelected} />
                  {isSelected && (
                    <Box color="gold.400" alignSelf="center" flexShrink={0} ms="2">
                      <CheckIcon size={22} />
                    </Box>
                  )}
                </RowButton>
              </li>
            );
          })}
        </Stack>
      )}

      {!started && (
        <Box position="fixed" bottom="0" insetX="0" bg="white" borderTopWidth="1px" borderColor="gray.200" boxShadow="0 -4px 16px rgba(11,31,58,0.12)" zIndex="docked">
          <HStack maxW="3xl" mx="auto" px={{ base: '4', md: '6' }} py="3" justify="space-between" gap="3">
            <Text fontWeight="black" color="navy.900" fontSize="lg" aria-live="polite">
              {selected.size} selections
            </Text>
            <PrimaryButton onClick={() => void onSave()} loading={save.isPending} minW="36">
              Save Picks
            </PrimaryButton>
          </HStack>
        </Box>
      )}
    </Page>
  );
}
