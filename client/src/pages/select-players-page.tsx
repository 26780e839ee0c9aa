import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, chakra, Flex, IconButton, Input, InputGroup, NativeSelect, Stack } from '@chakra-ui/react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { MAX_PICKS, STALE_TIMES } from '@first-round/shared/constants';
import { parseId } from '@first-round/shared/ids';
import { MESSAGES } from '@first-round/shared/messages';
import { compareByDraftOrder, filterPlayers, POSITION_FILTERS } from '@first-round/shared/player-filter';
import { Page, EmptyState } from '../components/page';
import { outcomeStyle, PlayerRowContent } from '../components/player-row';
import { draftSnapshot, outcomeOf } from '../lib/draft-snapshot';
import { BackIcon, CheckIcon, SearchIcon } from '../components/icons';
import { FullPageMessage } from '../components/full-page-message';
import { BandLegend, RiskBandChip } from '../components/player-selection/risk-band';
import { SelectionBar } from '../components/player-selection/selection-bar';
import { savedDescription } from '../lib/selection-text';
import { notify } from '../lib/toaster';
import { errorKind, trpc } from '../lib/trpc';
import { selectPlayersTitle } from '../lib/select-title';
import { useDraftStatus, usePlayers } from '../lib/queries';

const RowButton = chakra('button');
const ToggleButton = chakra('button');

export function SelectPlayersPage() {
  const [params] = useSearchParams();
  const groupId = parseId(params.get('groupId'));
  const groupMode = groupId !== null;
  const reuse = groupMode && params.get('reusePicks') === 'true';
  const navigate = useNavigate();
  const utils = trpc.useUtils();

  const players = usePlayers();
  const draft = useDraftStatus();
  const saved = trpc.picks.mine.useQuery(groupMode ? { group_id: groupId } : undefined, { staleTime: STALE_TIMES.groupPage });
  const globalPicks = trpc.picks.global.useQuery(undefined, { enabled: reuse, staleTime: STALE_TIMES.groupPage });
  const save = trpc.picks.save.useMutation();

  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [query, setQuery] = useState('');
  const [position, setPosition] = useState('');
  const [selectedOnly, setSelectedOnly] = useState(false);
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
    const shown = filterPlayers(all, query, position);
    return selectedOnly ? shown.filter((p) => selected.has(p.id)) : shown;
  }, [players.data, started, saved.data, query, position, selectedOnly, selected]);

  function toggle(id: number) {
    // A hard stop at the limit: the 33rd tap says why instead of adding (the server refuses it too).
    if (!selected.has(id) && selected.size >= MAX_PICKS) return notify('error', MESSAGES.tooManyPicksTitle, MESSAGES.tooManyPicks);
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  async function onSave() {
    if (selected.size === 0) return notify('error', MESSAGES.noPlayersSelectedTitle, MESSAGES.noPlayersSelected);
    try {
      await save.mutateAsync({ picks: [...selected], ...(groupMode ? { group_id: groupId } : {}) });
    } catch (err) {
      // SPEC §5: the server enforces the bounds (picksSchema). The ids come from its own board, so input
      // its schema refuses is the number of picks.
      if (errorKind(err) === 'INVALID_INPUT') return notify('error', MESSAGES.tooManyPicksTitle, MESSAGES.tooManyPicks);
      return notify('error', MESSAGES.savePicksFailed);
    }
    await Promise.all([utils.picks.mine.invalidate(), utils.picks.global.invalidate(), utils.groups.invalidate()]);
    notify('success', 'Picks saved', savedDescription((players.data ?? []).filter((p) => selected.has(p.id))));
    navigate(backTo ?? '/my-picks');
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
        <Flex gap="2" mb="3" wrap={{ base: 'wrap', md: 'nowrap' }} position="sticky" top={{ base: '96px', md: '50px' }} zIndex="1" bg="gray.50" py="2">
          <InputGroup flex="1" flexBasis={{ base: '100%', md: 'auto' }} startElement={<SearchIcon size={18} />}>
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
          <ToggleButton
            type="button"
            aria-pressed={selectedOnly}
            onClick={() => setSelectedOnly((on) => !on)}
            display="inline-flex"
            alignItems="center"
            gap="2"
            h="11"
            px="4"
            flexShrink={0}
            borderRadius="md"
            borderWidth="1px"
            borderColor={selectedOnly ? 'navy.900' : 'gray.300'}
            bg={selectedOnly ? 'navy.900' : 'white'}
            color={selectedOnly ? 'white' : 'navy.900'}
            fontWeight="semibold"
            whiteSpace="nowrap"
            cursor="pointer"
            _focusVisible={{ outline: '3px solid', outlineColor: 'gold.400', outlineOffset: '1px' }}
          >
            {selectedOnly && <CheckIcon size={16} />}
            Selected only
          </ToggleButton>
        </Flex>
      )}
      {!started && players.data && <BandLegend players={players.data} />}

      {visible.length === 0 ? (
        <EmptyState>
          {started
            ? 'You made no picks before the draft started.'
            : selectedOnly && selected.size === 0
              ? "You haven't selected anyone yet. Turn off 'Selected only' to see the whole board."
              : 'No players match your search.'}
        </EmptyState>
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
                  <Box alignSelf="center" ms="2">
                    <RiskBandChip band={player.band} />
                  </Box>
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

      {!started && <SelectionBar count={selected.size} saving={save.isPending} onSave={() => void onSave()} />}
    </Page>
  );
}
