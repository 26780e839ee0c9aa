import { useState } from 'react';
import { Box, Button, Flex } from '@chakra-ui/react';
import { useNavigate } from 'react-router-dom';
import { PrimaryButton } from '../form-bits';
import { notify } from '../../lib/toaster';
import { trpc } from '../../lib/trpc';
import { useRefreshGroups } from './group-utils';

/**
 * The group page's two ways to make picks for the group (SPEC §4): start from the global picks
 * ('Reuse Picks', offered only when there are some) or make a fresh set ('Make New Picks'). Each leads to
 * the selection screen; the one under way shows its spinner and holds the other back.
 */
export function PicksChoice({ groupId, hasGlobalPicks }: { groupId: number; hasGlobalPicks: boolean }) {
  const navigate = useNavigate();
  const refresh = useRefreshGroups();
  const utils = trpc.useUtils();
  const setUseGlobal = trpc.groups.useGlobalPicks.useMutation();
  const [busy, setBusy] = useState<'reuse' | 'new' | null>(null);

  async function reusePicks() {
    setBusy('reuse');
    try {
      // The selection screen starts from the global picks (read afresh: they may have changed in another
      // tab); saving stores them as this group's picks.
      const global = await utils.picks.global.fetch(undefined, { staleTime: 0 });
      if (global.picks.length === 0) throw new Error('no global picks');
      navigate(`/select-players?groupId=${groupId}&reusePicks=true`);
    } catch {
      notify('error', 'Failed to set up reused picks for this group');
      setBusy(null);
    }
  }

  async function makeNewPicks() {
    setBusy('new');
    try {
      await setUseGlobal.mutateAsync({ group_id: groupId, use_global_picks: false });
      await refresh();
      navigate(`/select-players?groupId=${groupId}`);
    } catch {
      notify('error', 'Failed to set up new picks for this group');
      setBusy(null);
    }
  }

  return (
    <Box position="sticky" bottom="0" py="3" bg="gray.50">
      <Flex gap="3" direction={{ base: 'column', sm: 'row' }}>
        {hasGlobalPicks && (
          <Button
            size="lg"
            flex={{ sm: '1' }}
            variant="outline"
            borderColor="navy.900"
            color="navy.900"
            fontWeight="bold"
            bg="white"
            loading={busy === 'reuse'}
            disabled={busy !== null}
            onClick={() => void reusePicks()}
          >
            Reuse Picks
          </Button>
        )}
        <PrimaryButton flex={{ sm: '1' }} loading={busy === 'new'} disabled={busy !== null} onClick={() => void makeNewPicks()}>
          Make New Picks
        </PrimaryButton>
      </Flex>
    </Box>
  );
}
