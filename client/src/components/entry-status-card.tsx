import { Box, Text } from '@chakra-ui/react';
import { GLOBAL_GROUP_ID, STALE_TIMES } from '@first-round/shared/constants';
import { compareByDraftOrder } from '@first-round/shared/player-filter';
import { isRoundOneComplete, remainingSlots, scoreEntry, type DraftSnapshot } from '@first-round/shared/scoring';
import { ordinal } from '@first-round/shared/words';
import { bustReason, finalLine, hitsText } from '@first-round/shared/entry-words';
import type { DraftStatus, PlayerDto } from '@first-round/shared/schemas';
import { outcomeOf } from '../lib/draft-snapshot';
import { clinchedEntry, contentionShown, contentionText, plural } from '../lib/standings-text';
import { formatWhen } from '@first-round/shared/deadline';
import { trpc } from '../lib/trpc';

/** Parts of a status line, each its own element (so each reads, and is found, on its own), joined by '·'. */
function Parts({ parts }: { parts: (string | false | null | undefined)[] }) {
  const shown = parts.filter((p): p is string => Boolean(p));
  return (
    <>
      {shown.map((p, i) => (
        <span key={p}>
          {i > 0 && <span aria-hidden> · </span>}
          <span>{p}</span>
        </span>
      ))}
    </>
  );
}

/**
 * My Picks as a status card. Before the start: how many picks, until when they can change, and in how many
 * groups the same picks count ('10 picks · editable until Thu 8 PM ET · used in 1 group'). Once the draft
 * is under way: 'ALIVE · 9 of 10 hit · 1 pending · rank 10 of 302', or why the entry is out ('BUSTED:
 * Shedeur Sanders was not drafted in round one'); while the draft runs, whether it can still finish first
 * ('… · Can still win' or "… · Can't finish 1st"). Hits, misses and pending come from the board as patched
 * live (shared/src/scoring.ts decides); the rank from the global standings, which the stream pushes.
 */
export function EntryStatusCard({ picks, status, snapshot }: { picks: PlayerDto[]; status: DraftStatus; snapshot: DraftSnapshot | null }) {
  const started = status.draftHasStarted;
  const standing = trpc.leaderboard.group.useQuery(
    { group_id: GLOBAL_GROUP_ID, limit: 1 },
    { staleTime: STALE_TIMES.leaderboard, enabled: started && picks.length > 0 },
  );
  const groups = trpc.leaderboard.myGroups.useQuery(undefined, { staleTime: STALE_TIMES.groupLists, enabled: !started && picks.length > 0 });

  if (!started || !snapshot) {
    const used = groups.data?.groups.filter((g) => g.entry_mode === 'linked').length ?? 0;
    return (
      <Card tone="before">
        <Text fontWeight="bold" color="navy.900">
          <Parts parts={[plural(picks.length, 'pick'), `editable until ${formatWhen(status.deadline)}`, used > 0 && `used in ${plural(used, 'group')}`]} />
        </Text>
      </Card>
    );
  }

  const score = scoreEntry(
    picks.map((p) => ({ rank: p.rank, draftRound: p.draft_round })),
    snapshot,
  );
  const me = standing.data?.draft_started ? standing.data.me : null;
  // Once round one is over the card reads as a result: 'Final: 10 of 10 hit · 1st of 302 · Winner'.
  const final = isRoundOneComplete(snapshot);
  const rank = me && (final ? `${ordinal(me.rank)} of ${standing.data!.entries}` : `rank ${me.rank} of ${standing.data!.entries}`);
  const hits = `${final ? 'Final: ' : ''}${score.hits} of ${picks.length} hit`;
  // Whether the entry can still finish first globally, from its standings row (decided by the server).
  const clinched = me && standing.data ? clinchedEntry(standing.data) === me.participant_id : false;
  const contention = me && !me.busted && contentionShown(status) ? contentionText(me, clinched) : null;
  if (!score.busted) {
    return (
      <Card tone="alive">
        <Text fontWeight="bold" color="turf.700" fontSize="lg">
          {final && me ? finalLine({ busted: false, hits: score.hits, picks: picks.length, rank: me.rank, entries: standing.data!.entries }) : final ? <Parts parts={[hits, rank]} /> : <Parts parts={['ALIVE', hits, `${score.pending} pending`, rank, contention]} />}
        </Text>
      </Card>
    );
  }
  const misses = picks.filter((p) => outcomeOf(p, snapshot) === 'miss').sort(compareByDraftOrder);
  const reason = bustReason(misses[0]?.player_name ?? null, misses.length, score.pending, remainingSlots(snapshot));
  return (
    <Card tone="busted">
      <Text fontWeight="bold" color="red.700" fontSize="lg">
        BUSTED: {reason}
      </Text>
      <Text fontSize="sm" color="gray.700" mt="1">
        {final && me ? finalLine({ busted: true, hits: score.hits, picks: picks.length, rank: me.rank, entries: standing.data!.entries }) : <Parts parts={[final && 'Final', hitsText({ busted: true, hits: score.hits }), rank]} />}
      </Text>
    </Card>
  );
}

function Card({ tone, children }: { tone: 'before' | 'alive' | 'busted'; children: React.ReactNode }) {
  const colors = {
    before: { bg: 'white', borderColor: 'gray.200' },
    alive: { bg: 'turf.50', borderColor: 'turf.500' },
    busted: { bg: 'red.50', borderColor: 'red.300' },
  }[tone];
  return (
    <Box role="status" aria-label="Your entry" borderWidth="2px" borderRadius="xl" px="4" py="3" mb="4" boxShadow="sm" {...colors}>
      {children}
    </Box>
  );
}
