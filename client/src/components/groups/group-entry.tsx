import { useState } from 'react';
import { Box, Button, Flex, Text } from '@chakra-ui/react';
import { useNavigate } from 'react-router-dom';
import { entryModeText, type EntryMode } from '@first-round/shared/entries';
import { plural } from '@first-round/shared/words';
import { ConfirmDialog } from '../confirm-dialog';
import { PrimaryButton } from '../buttons';
import { Card } from '../page';
import { notify } from '../../lib/toaster';
import { trpc } from '../../lib/trpc';
import { usePlayers } from '../../lib/queries';
import { useRefreshGroups } from './group-utils';

/** What the caller's entry in a group is, before the lock. */
export interface GroupEntry {
  groupId: number;
  groupName: string;
  mode: EntryMode;
  /** The entry's picks here (their My Picks while linked). */
  picks: number[];
  /** How many picks My Picks hold (what a re-linked entry would play). */
  myPicks: number;
}

/**
 * The caller's entry in the group, in words: 'Using My Picks · 10' (linked: My Picks play here and every
 * change to them reaches this group) or 'Own picks · 8' (forked: only changes made here count).
 */
export function GroupEntryCard({ entry }: { entry: GroupEntry }) {
  const linked = entry.mode === 'linked';
  const none = entry.picks.length === 0;
  return (
    <Card role="region" aria-label="Your entry in this group">
      <Text fontSize="xs" fontWeight="bold" textTransform="uppercase" letterSpacing="wider" color="gray.600">
        Your entry here
      </Text>
      <Text fontWeight="bold" fontSize="lg" color={none ? 'red.700' : 'navy.900'} mt="1" data-testid="entry-mode">
        {entryModeText(entry.mode, entry.picks.length)}
      </Text>
      <Text fontSize="sm" color="gray.700" mt="1">
        {linked
          ? 'Your My Picks count here, on the global leaderboard and in every group that uses them: a change to My Picks changes them all. You can change them until the draft starts.'
          : `These picks count only in ${entry.groupName}: changing My Picks does not change them. You can change them until the draft starts.`}
      </Text>
    </Card>
  );
}

/**
 * The sticky actions under a group page before the lock. Linked: edit My Picks (they play here), or make
 * own picks for this group (a copy of My Picks to start from). Own: edit them, or follow My Picks again
 * after a confirmation that names the picks it drops.
 */
export function GroupEntryActions({ entry }: { entry: GroupEntry }) {
  const navigate = useNavigate();
  const refresh = useRefreshGroups();
  const setMode = trpc.groups.useGlobalPicks.useMutation();
  const [busy, setBusy] = useState<EntryMode | null>(null);
  const [confirming, setConfirming] = useState(false);
  const players = usePlayers();
  const editor = `/select-players?groupId=${entry.groupId}`;

  async function switchTo(mode: EntryMode) {
    setBusy(mode);
    try {
      await setMode.mutateAsync({ group_id: entry.groupId, use_global_picks: mode === 'linked' });
      await refresh();
      if (mode === 'own') navigate(editor);
      else notify('success', 'Following My Picks', `${entry.groupName} now uses your My Picks (${entry.myPicks}).`);
    } catch {
      notify('error', mode === 'own' ? 'Failed to set up new picks for this group' : 'Failed to set up reused picks for this group');
    } finally {
      setBusy(null);
      setConfirming(false);
    }
  }

  const names = (players.data ?? []).filter((p) => entry.picks.includes(p.id)).map((p) => p.player_name);
  const dropped = names.length > 4 ? `${names.slice(0, 4).join(', ')} and ${names.length - 4} more` : names.join(', ');
  const linked = entry.mode === 'linked';
  return (
    <Box position="sticky" bottom="0" py="3" bg="gray.50">
      <Flex gap="3" direction={{ base: 'column', sm: 'row' }}>
        <PrimaryButton flex={{ sm: '1' }} disabled={busy !== null} onClick={() => navigate(editor)}>
          {linked ? (entry.myPicks > 0 ? 'Edit My Picks' : 'Make My Picks') : 'Edit picks for this group'}
        </PrimaryButton>
        <Button
          size="lg"
          flex={{ sm: '1' }}
          variant="outline"
          borderColor="navy.900"
          color="navy.900"
          fontWeight="bold"
          bg="white"
          loading={busy !== null}
          disabled={busy !== null}
          onClick={() => (linked ? void switchTo('own') : setConfirming(true))}
        >
          {linked ? 'Make own picks for this group' : 'Follow My Picks again'}
        </Button>
      </Flex>
      <ConfirmDialog
        open={confirming}
        title="Follow My Picks again?"
        confirmLabel="Follow My Picks"
        destructive
        loading={busy === 'linked'}
        onConfirm={() => void switchTo('linked')}
        onClose={() => setConfirming(false)}
      >
        {entry.picks.length > 0 ? `Your own ${plural(entry.picks.length, 'pick')} for ${entry.groupName} will be dropped (${dropped}). ` : ''}
        {entry.groupName} will use your My Picks ({plural(entry.myPicks, 'pick')}) and follow every change you make to them.
      </ConfirmDialog>
    </Box>
  );
}
