import { useState } from 'react';
import { Badge, Box, Button, Flex, Heading, NativeSelect, Stack, Text } from '@chakra-ui/react';
import type { FeedQueueItem, PlayerDto } from '@first-round/shared/schemas';
import { describeFeedItem } from '@first-round/shared/feed-words';
import { findTeam } from '@first-round/shared/teams';
import { Card } from './page';
import { notify } from '../lib/toaster';
import { errorMessage, trpc } from '../lib/trpc';

/** How often the console re-reads the feed's status and queue (the queue is not pushed live). */
const FEED_REFRESH_MS = 5000;

const ago = (seconds: number) => (seconds < 90 ? `${seconds} s ago` : `${Math.round(seconds / 60)} min ago`);
/** A clock time the operator can compare with their own clock ('22:41:05'). */
const at = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * The results feed on /admin: its status line (last poll, lag, last error) and the queue of reports it did
 * not record by itself: a fuzzy name to confirm (or record as another player), a conflict with a
 * recorded slot (dismiss it, or undo the recorded pick first), or a team the feed names against the
 * operator's, or one it does not know (take the feed's team, or dismiss). docs/decisions.md, "Results feed".
 */
export function FeedCard({ board, onRecorded }: { board: readonly PlayerDto[]; onRecorded: () => void }) {
  const utils = trpc.useUtils();
  const feed = trpc.draft.feed.useQuery(undefined, { staleTime: 0, refetchInterval: FEED_REFRESH_MS });
  const settled = (what: string) => () => {
    notify('info', what);
    void utils.draft.feed.invalidate();
  };
  const failed = (error: unknown) => {
    notify('error', 'The feed item was not settled', errorMessage(error, 'Please try again.'));
    void utils.draft.feed.invalidate();
  };
  const confirm = trpc.draft.feedConfirm.useMutation({
    onSuccess: (answer) => {
      const team = answer.item.kind === 'team' ? findTeam(answer.item.feed.team) : null;
      settled(team ? `Pick ${answer.item.slot} given to ${team.abbreviation}, as the feed says` : `Pick ${answer.item.slot} recorded from the feed`)();
      onRecorded();
    },
    onError: failed,
  });
  const dismiss = trpc.draft.feedDismiss.useMutation({ onSuccess: settled('Feed item dismissed'), onError: failed });
  const busy = confirm.isPending || dismiss.isPending;

  if (feed.isPending) return null;
  if (feed.isError)
    return (
      <Card as="section" aria-labelledby="feed-heading">
        <Heading as="h2" id="feed-heading" size="lg" color="navy.900" mb="2">
          Results feed
        </Heading>
        <Text color="red.600" role="alert">
          {errorMessage(feed.error, 'Could not load the feed status.')}
        </Text>
      </Card>
    );
  const f = feed.data;
  const healthy = f.configured && !f.last_error && f.lag_seconds !== null && f.lag_seconds <= f.interval_seconds * 3;

  return (
    <Card as="section" aria-labelledby="feed-heading">
      <Flex justify="space-between" align="center" mb="2" gap="3" wrap="wrap">
        <Heading as="h2" id="feed-heading" size="lg" color="navy.900">
          Results feed
        </Heading>
        <Badge size="lg" px="3" py="1" borderRadius="full" bg={!f.configured ? 'gray.200' : healthy ? 'turf.500' : 'gold.400'} color={healthy ? 'white' : 'gray.800'}>
          {!f.configured ? 'Off' : f.backing_off ? 'Backing off' : f.last_error ? 'Error' : f.lag_seconds === null ? 'Waiting' : healthy ? 'Following' : 'Behind'}
        </Badge>
      </Flex>
      <Text color="gray.700" fontSize="sm" role="status">
        {!f.configured
          ? 'No feed configured (FEED_URL): record picks by hand.'
          : `${f.kind === 'espn' ? 'ESPN' : 'Generic'} feed, polled every ${f.interval_seconds} s while the draft is live. ` +
            (f.last_poll_at ? `Last success ${f.lag_seconds === null ? 'never' : ago(f.lag_seconds)}; ${f.picks_seen} round-one picks seen.` : 'Not polled yet.') +
            (f.next_poll_at && !f.backing_off ? ` Next poll at ${at(f.next_poll_at)}.` : '')}
      </Text>
      {f.last_error && (
        <Text color="red.700" fontSize="sm" mt="1">
          Last error: {f.last_error}
        </Text>
      )}
      {f.backing_off && f.next_poll_at && (
        <Text color="red.700" fontSize="sm" mt="1">
          Backing off after {f.consecutive_failures} failed polls in a row: next poll at {at(f.next_poll_at)}, back to every {f.interval_seconds} s once one succeeds.
        </Text>
      )}
      {f.queue.length > 0 && (
        <Stack as="ul" gap="3" mt="4" listStyleType="none" aria-label="Feed picks waiting for you">
          {f.queue.map((item) => (
            <QueueItem key={item.id} item={item} board={board} busy={busy} onConfirm={(playerId) => confirm.mutate({ id: item.id, ...(playerId ? { player_id: playerId } : {}) })} onDismiss={() => dismiss.mutate({ id: item.id })} />
          ))}
        </Stack>
      )}
    </Card>
  );
}

function QueueItem({ item, board, busy, onConfirm, onDismiss }: { item: FeedQueueItem; board: readonly PlayerDto[]; busy: boolean; onConfirm: (playerId?: number) => void; onDismiss: () => void }) {
  const [choosing, setChoosing] = useState(item.suggested === null);
  const [other, setOther] = useState('');
  const undrafted = board.filter((p) => p.draft_round === null);
  const s = item.suggested;
  const feedTeam = item.kind === 'team' ? findTeam(item.feed.team) : null;
  return (
    <Box as="li" borderWidth="1px" borderColor={item.kind === 'confirm' ? 'gold.400' : 'red.300'} borderRadius="md" px="3" py="3" bg={item.kind === 'confirm' ? 'gold.100' : 'red.50'}>
      <Text fontWeight="semibold">{describeFeedItem(item)}</Text>
      {item.kind === 'conflict' && (
        <Text fontSize="sm" color="red.800">
          Nothing was overwritten: undo the recorded pick first if the feed is right, or dismiss this.
        </Text>
      )}
      {item.kind === 'team' && (
        <Text fontSize="sm" color="red.800">
          {feedTeam ? 'Nothing was overwritten: the feed never changes a team you set.' : 'Nothing was written: set the team yourself under Round one if it is wrong.'}
        </Text>
      )}
      <Flex gap="2" mt="2" wrap="wrap" align="center">
        {feedTeam && (
          <Button size="sm" colorPalette="green" disabled={busy} onClick={() => onConfirm()}>
            Give pick {item.slot} to {feedTeam.abbreviation}
          </Button>
        )}
        {item.kind === 'confirm' && s && !choosing && (
          <>
            <Button size="sm" colorPalette="green" disabled={busy} onClick={() => onConfirm()}>
              Confirm
            </Button>
            <Button size="sm" variant="outline" disabled={busy} onClick={() => setChoosing(true)}>
              Choose another
            </Button>
          </>
        )}
        {item.kind === 'confirm' && choosing && (
          <>
            <NativeSelect.Root size="sm" width="auto" maxW="sm">
              <NativeSelect.Field aria-label={`Player for pick ${item.slot}`} value={other} onChange={(e) => setOther(e.target.value)} bg="white">
                <option value="">Choose the player…</option>
                {undrafted.map((p) => (
                  <option key={p.id} value={p.id}>
                    #{p.rank} {p.player_name}, {p.position}, {p.school}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <Button size="sm" colorPalette="green" disabled={busy || !other} onClick={() => onConfirm(Number(other))}>
              Record pick {item.slot}
            </Button>
          </>
        )}
        <Button size="sm" variant="ghost" disabled={busy} onClick={onDismiss}>
          Dismiss
        </Button>
      </Flex>
    </Box>
  );
}
