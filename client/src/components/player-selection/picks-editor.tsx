import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Box, chakra, Flex, Input, InputGroup, NativeSelect, Stack } from '@chakra-ui/react';
import { useNavigate } from 'react-router-dom';
import { MAX_PICKS } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { filterPlayers, POSITION_FILTERS } from '@first-round/shared/player-filter';
import type { PlayerDto } from '@first-round/shared/schemas';
import { EmptyState } from '../page';
import { PlayerRowContent } from '../player-row';
import { CheckIcon, SearchIcon } from '../icons';
import { BandLegend, RiskBandChip } from './risk-band';
import { SelectionBar } from './selection-bar';
import { savedDescription } from '../../lib/selection-text';
import { useEntryOdds, useOddsBoard } from '../../lib/odds';
import { notify } from '../../lib/toaster';
import { errorKind, trpc } from '../../lib/trpc';
import { forgetUnsaved, keepUnsaved, readUnsaved, sameSelection } from '../../lib/unsaved-picks';
import { useLeaveGuard } from '../../lib/use-leave-guard';
import { ConfirmDialog } from '../confirm-dialog';

const RowButton = chakra('button');
const ToggleButton = chakra('button');

/** Which entry the editor saves, and where its unsaved selection is kept. */
export interface EditedEntry {
  /** The group whose own picks are saved, or null for My Picks. */
  groupId: number | null;
  /** The saved picks (what 'unsaved' is measured against). */
  saved: number[] | undefined;
  /** Where to start: the saved picks, or My Picks when a group's own picks start from them. */
  initial: number[] | undefined;
  /** Where unsaved selections are kept in the browser (lib/unsaved-picks.ts); null keeps none. */
  storageKey: string | null;
  /** The entry in words for the leave question ('My Picks', 'your picks for Sunday Squad'). */
  label: string;
}

/**
 * Choosing the picks before the lock: search, position filter and 'Selected only' over the board, a tap
 * per player up to the hard stop at 32, and Save. It starts from the selection left unsaved on this device
 * for the entry, else from `entry.initial`, once they arrive, and after saving goes to `doneTo`. While the
 * selection differs from the saved picks it is kept on the device ('Unsaved changes', with Discard), and
 * leaving the screen or the app asks first.
 */
export function PicksEditor({ players, entry, doneTo, roundOnePicks }: { players: PlayerDto[]; entry: EditedEntry; doneTo: string; roundOnePicks?: number }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const save = trpc.picks.save.useMutation();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [query, setQuery] = useState('');
  const [position, setPosition] = useState('');
  const [selectedOnly, setSelectedOnly] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const { initial, saved, storageKey, groupId } = entry;
  const dirty = loaded && saved !== undefined && !sameSelection([...selected], saved);
  // Leaving with unsaved changes asks first (another screen, or closing the tab); a save's own navigation passes.
  const guard = useLeaveGuard(dirty);

  // Taps made before the saved picks arrive (the board can come first on a slow network) are replayed on
  // top of where the entry starts once it is known, never dropped; each as what the tap showed (on or off),
  // so a player tapped on stays on even if he was among the saved picks.
  const earlyTaps = useRef<Array<{ id: number; on: boolean }>>([]);
  useEffect(() => {
    if (loaded || !initial || !saved) return;
    const kept = storageKey ? readUnsaved(localStorage, storageKey) : null;
    const start = new Set(kept && !sameSelection(kept, saved) ? kept : initial);
    for (const { id, on } of earlyTaps.current) {
      if (!on) start.delete(id);
      else if (start.size < MAX_PICKS) start.add(id);
    }
    earlyTaps.current = [];
    setSelected(start);
    setLoaded(true);
  }, [loaded, initial, saved, storageKey]);

  useEffect(() => {
    if (loaded && saved && storageKey) keepUnsaved(localStorage, storageKey, [...selected], saved);
  }, [loaded, selected, saved, storageKey]);

  function discard() {
    if (storageKey) forgetUnsaved(localStorage, storageKey);
    setSelected(new Set(saved ?? []));
  }

  // The risk meter: the selection's chance to survive round one, from the shared odds model in the browser.
  const odds = useOddsBoard(players, roundOnePicks);
  const selectedOdds = useEntryOdds(odds, selected);

  // The board as searched and filtered is worked out when those change; a tap changes only 'Selected only'.
  const matching = useMemo(() => filterPlayers(players, query, position), [players, query, position]);
  const visible = useMemo(() => (selectedOnly ? matching.filter((p) => selected.has(p.id)) : matching), [matching, selectedOnly, selected]);

  // The same function from tap to tap (it changes only when the entry fills or its start arrives), so a tap
  // renders again only the row it changed: the row says whether it was on.
  const full = selected.size >= MAX_PICKS;
  const toggle = useCallback(
    (id: number, wasOn: boolean) => {
      // A hard stop at the limit: the 33rd tap says why instead of adding (the server refuses it too).
      if (!wasOn && full) return notify('error', MESSAGES.tooManyPicksTitle, MESSAGES.tooManyPicks);
      if (!loaded) earlyTaps.current.push({ id, on: !wasOn });
      setSelected((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
    [full, loaded],
  );

  async function onSave() {
    if (selected.size === 0) return notify('error', MESSAGES.noPlayersSelectedTitle, MESSAGES.noPlayersSelected);
    try {
      await save.mutateAsync({ picks: [...selected], ...(groupId !== null ? { group_id: groupId } : {}) });
    } catch (err) {
      // The server enforces the bounds (picksSchema). The ids come from its own board, so input
      // its schema refuses is the number of picks.
      if (errorKind(err) === 'INVALID_INPUT') return notify('error', MESSAGES.tooManyPicksTitle, MESSAGES.tooManyPicks);
      return notify('error', MESSAGES.savePicksFailed);
    }
    guard.release();
    if (storageKey) forgetUnsaved(localStorage, storageKey);
    await Promise.all([utils.picks.mine.invalidate(), utils.picks.global.invalidate(), utils.groups.invalidate(), utils.leaderboard.myGroups.invalidate()]);
    notify('success', 'Picks saved', savedDescription(players.filter((p) => selected.has(p.id))));
    navigate(doneTo);
  }

  return (
    <>
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
      <BandLegend players={players} />

      {visible.length === 0 ? (
        <EmptyState>
          {selectedOnly && selected.size === 0 ? "You haven't selected anyone yet. Turn off 'Selected only' to see the whole board." : 'No players match your search.'}
        </EmptyState>
      ) : (
        <Stack as="ul" gap="2" listStyleType="none" pb="28" aria-label="Players">
          {visible.map((player) => (
            <PlayerToggleRow key={player.id} player={player} selected={selected.has(player.id)} onToggle={toggle} />
          ))}
        </Stack>
      )}

      <SelectionBar count={selected.size} survive={selected.size > 0 ? (selectedOdds?.survive ?? null) : null} saving={save.isPending} onSave={() => void onSave()} unsaved={dirty} onDiscard={discard} />
      <ConfirmDialog
        open={guard.holding}
        title="Leave without saving?"
        confirmLabel="Leave"
        onConfirm={guard.leave}
        onClose={guard.stay}
      >
        Your changes to {entry.label} are not saved, so they don't count yet. They stay on this device: come back to save or discard them.
      </ConfirmDialog>
    </>
  );
}

/**
 * One player on the board, a button that adds or removes him. Memoized: its props change only when this
 * player is added or removed (or the board itself changes), not when another row is tapped.
 */
const PlayerToggleRow = memo(function PlayerToggleRow({ player, selected, onToggle }: { player: PlayerDto; selected: boolean; onToggle: (id: number, wasOn: boolean) => void }) {
  return (
    <li>
      <RowButton
        type="button"
        aria-pressed={selected}
        onClick={() => onToggle(player.id, selected)}
        display="flex"
        width="100%"
        px="3"
        py="2.5"
        borderRadius="lg"
        borderWidth="1px"
        borderColor={selected ? 'navy.900' : 'gray.200'}
        bg={selected ? 'navy.900' : 'white'}
        color={selected ? 'white' : 'gray.900'}
        boxShadow={selected ? 'md' : 'xs'}
        cursor="pointer"
        transition="background 0.12s"
        _hover={{ borderColor: 'navy.400' }}
        _focusVisible={{ outline: '3px solid', outlineColor: 'gold.400', outlineOffset: '1px' }}
      >
        <PlayerRowContent player={player} selected={selected} />
        <Box alignSelf="center" ms="2">
          <RiskBandChip band={player.band} />
        </Box>
        {selected && (
          <Box color="gold.400" alignSelf="center" flexShrink={0} ms="2">
            <CheckIcon size={22} />
          </Box>
        )}
      </RowButton>
    </li>
  );
});
