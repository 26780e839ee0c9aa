import { useMemo, useState, type FormEvent } from 'react';
import { Badge, Box, Button, chakra, Flex, Heading, HStack, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { formatWhen } from '@first-round/shared/deadline';
import { parseWholeNumber } from '@first-round/shared/ids';
import { filterPlayers } from '@first-round/shared/player-filter';
import type { DraftChange } from '@first-round/shared/schemas';
import { Card, Page } from '../components/page';
import { FullPageMessage } from '../components/full-page-message';
import { ConfirmDialog } from '../components/confirm-dialog';
import { FeedCard } from '../components/feed-card';
import { RoundOneCard } from '../components/round-one-card';
import { PrimaryButton } from '../components/buttons';
import { SearchIcon } from '../components/icons';
import { completeRoundWarning, describeDraftChange, describeUndo } from '@first-round/shared/draft-words';
import { notify } from '../lib/toaster';
import { errorMessage, trpc } from '../lib/trpc';
import { useDraftStatus, usePlayers } from '../lib/queries';
import { teamAt } from '@first-round/shared/teams';

type Confirm = 'start' | 'undo' | 'complete' | 'reset' | null;

const ResultButton = chakra('button');
const Label = chakra('label');

/** An audit time to the second, its zone named (the operator's own), as every time the game tells: 'Apr 23, 08:14:05 PM EDT'. */
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' });

function Stat({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Text fontSize="xs" fontWeight="bold" textTransform="uppercase" letterSpacing="wider" color="gray.500">
        {label}
      </Text>
      <Text fontWeight="bold" color="navy.900" fontSize="lg">
        {children}
      </Text>
    </Box>
  );
}

/**
 * The draft-night operator's console (/admin, admins only): the draft's state, start, record a pick by
 * searching the board, round one's order (a traded pick's new team), undo, mark round one complete, reset,
 * and the audit log. The same services as `npm run draft`; every change reaches every open page live.
 */
export function AdminPage() {
  const utils = trpc.useUtils();
  const status = useDraftStatus();
  const players = usePlayers();
  const audit = trpc.draft.auditLog.useQuery(undefined, { staleTime: 0 });
  // What undo takes back (the server decides: the mark, the latest pick or the latest team change).
  const nextUndo = trpc.draft.nextUndo.useQuery(undefined, { staleTime: 0 });

  const [confirm, setConfirm] = useState<Confirm>(null);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<number | null>(null);
  const [slotText, setSlotText] = useState<string | null>(null);

  const refresh = () =>
    Promise.all([utils.draft.status.invalidate(), utils.players.invalidate(), utils.draft.auditLog.invalidate(), utils.draft.nextUndo.invalidate(), utils.leaderboard.invalidate()]);
  // Live pushes refresh these too; this makes the operator's own change show at once even without push.
  const done = (change: DraftChange) => {
    const { title, description } = describeDraftChange(change);
    notify('info', title, description);
    setConfirm(null);
    void refresh();
  };
  const failed = (error: unknown) => notify('error', 'The change was refused', errorMessage(error, 'Please try again.'));
  const start = trpc.draft.start.useMutation({ onSuccess: done, onError: failed });
  const record = trpc.draft.recordPick.useMutation({
    onSuccess(change) {
      done(change);
      setChosen(null);
      setQuery('');
      setSlotText(null);
    },
    onError: failed,
  });
  const undo = trpc.draft.undo.useMutation({ onSuccess: done, onError: failed });
  const complete = trpc.draft.completeRound.useMutation({ onSuccess: done, onError: failed });
  const reset = trpc.draft.reset.useMutation({ onSuccess: done, onError: failed });

  const board = useMemo(() => players.data ?? [], [players.data]);
  const roundOnePicks = status.data?.round_one_picks ?? 32;
  // The next open slot: normally picks made + 1; the lowest unfilled one if the operator skipped around.
  const nextSlot = useMemo(() => {
    const filled = new Set(board.filter((p) => p.draft_round === 1).map((p) => p.draft_pick));
    for (let s = 1; s <= roundOnePicks; s++) if (!filled.has(s)) return s;
    return roundOnePicks;
  }, [board, roundOnePicks]);
  const slot = slotText ?? String(nextSlot);
  const undrafted = useMemo(() => board.filter((p) => p.draft_round === null), [board]);
  const results = useMemo(() => (query.trim() ? filterPlayers(undrafted, query, '').slice(0, 8) : []), [undrafted, query]);
  const chosenPlayer = undrafted.find((p) => p.id === chosen) ?? null;

  if (status.isPending || players.isPending) return <FullPageMessage>Loading the draft...</FullPageMessage>;
  if (!status.data || !players.data) return <FullPageMessage spinner={false}>Could not load the draft. Reload to try again.</FullPageMessage>;
  const s = status.data;
  const started = s.draftHasStarted;
  const slotNumber = parseWholeNumber(slot, 1, roundOnePicks);
  const slotValid = slotNumber !== null;
  const canRecord = started && !s.round_one_complete;

  function submitPick(e: FormEvent) {
    e.preventDefault();
    if (!chosenPlayer) return notify('error', 'Choose a player', 'Search the board and pick the selected player first.');
    if (slotNumber === null) return notify('error', 'Invalid slot', `The slot must be a whole number from 1 to ${roundOnePicks}.`);
    record.mutate({ slot: slotNumber, player_id: chosenPlayer.id });
  }

  const phase = !started ? 'Not started' : s.round_one_complete ? 'Round one complete' : 'Live';
  const undoWhat = nextUndo.data?.change ? describeUndo(nextUndo.data.change) : null;

  return (
    <Page title="Draft control" subtitle="Operator console: every change here reaches every open page at once." maxW="5xl">
      <Stack gap="5">
        <Card as="section" aria-labelledby="status-heading">
          <Flex justify="space-between" align="center" mb="4" gap="3" wrap="wrap">
            <Heading as="h2" id="status-heading" size="lg" color="navy.900">
              Draft status
            </Heading>
            <Badge size="lg" px="3" py="1" borderRadius="full" bg={!started ? 'gray.200' : s.round_one_complete ? 'navy.900' : 'turf.500'} color={!started ? 'gray.800' : 'white'}>
              {phase}
            </Badge>
          </Flex>
          <SimpleGrid columns={{ base: 2, md: 4 }} gap="4">
            <Stat label="Picks made">
              {s.picks_made} / {roundOnePicks}
            </Stat>
            <Stat label="Next slot">{canRecord ? [nextSlot, teamAt(s.round_one_order, nextSlot)].filter(Boolean).join(' · ') : '—'}</Stat>
            <Stat label="Started">{s.started_at ? when(s.started_at) : started ? 'At the deadline' : 'No'}</Stat>
            <Stat label="Pick deadline">{formatWhen(s.deadline)}</Stat>
          </SimpleGrid>
          <Flex gap="3" mt="5" wrap="wrap">
            {!started && <PrimaryButton onClick={() => setConfirm('start')}>Start draft</PrimaryButton>}
            <Button variant="outline" disabled={!undoWhat} onClick={() => setConfirm('undo')}>
              Undo last change
            </Button>
            <Button variant="outline" disabled={!canRecord} onClick={() => setConfirm('complete')}>
              Mark round one complete
            </Button>
            <Button variant="outline" colorPalette="red" onClick={() => setConfirm('reset')}>
              Reset draft
            </Button>
          </Flex>
        </Card>

        <FeedCard board={board} onRecorded={() => void refresh()} />

        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="5" alignItems="start">
          <Card as="section" aria-labelledby="record-heading">
            <Heading as="h2" id="record-heading" size="lg" color="navy.900" mb="1">
              Record pick
            </Heading>
            <Text color="gray.600" fontSize="sm" mb="4">
              {canRecord ? 'Search the board (name or school) for the player just selected; only undrafted players are listed.' : started ? 'Round one is complete: undo the mark to record more picks.' : 'Start the draft before recording picks.'}
            </Text>
            <form onSubmit={submitPick}>
              <Stack gap="3">
                <HStack gap="3" align="end">
                  <Box w="24" flexShrink={0}>
                    <Label htmlFor="pick-slot" fontWeight="semibold" fontSize="sm" display="block" mb="1">
                      Slot
                    </Label>
                    <Input id="pick-slot" inputMode="numeric" value={slot} onChange={(e) => setSlotText(e.target.value)} disabled={!canRecord} bg="white" aria-invalid={!slotValid || undefined} />
                  </Box>
                  <Box flex="1" minW="0">
                    <Label htmlFor="pick-search" fontWeight="semibold" fontSize="sm" display="block" mb="1">
                      Player
                    </Label>
                    <Box position="relative">
                      <Box position="absolute" insetStart="3" top="50%" transform="translateY(-50%)" color="gray.500" pointerEvents="none" zIndex="1">
                        <SearchIcon size={16} />
                      </Box>
                      <Input
                        id="pick-search"
                        ps="9"
                        placeholder="Search the board"
                        value={query}
                        onChange={(e) => {
                          setQuery(e.target.value);
                          setChosen(null);
                        }}
                        disabled={!canRecord}
                        bg="white"
                        autoComplete="off"
                      />
                    </Box>
                  </Box>
                </HStack>
                {results.length > 0 && !chosenPlayer && (
                  <Stack as="ul" gap="1" listStyleType="none" aria-label="Matching players">
                    {results.map((p) => (
                      <li key={p.id}>
                        <ResultButton
                          type="button"
                          onClick={() => setChosen(p.id)}
                          display="flex"
                          width="100%"
                          gap="3"
                          alignItems="center"
                          px="3"
                          py="2"
                          borderRadius="md"
                          borderWidth="1px"
                          borderColor="gray.200"
                          textAlign="left"
                          cursor="pointer"
                          _hover={{ bg: 'navy.50', borderColor: 'navy.300' }}
                          _focusVisible={{ outline: '3px solid', outlineColor: 'gold.400' }}
                        >
                          <Text as="span" w="8" fontWeight="black" color="navy.700" fontSize="sm">
                            #{p.rank}
                          </Text>
                          <Text as="span" flex="1" minW="0" truncate>
                            <b>{p.player_name}</b> <Text as="span" color="gray.600">{p.position} - {p.school}</Text>
                          </Text>
                        </ResultButton>
                      </li>
                    ))}
                  </Stack>
                )}
                {query.trim() && results.length === 0 && !chosenPlayer && (
                  <Text color="gray.600" fontSize="sm">
                    No undrafted player matches.
                  </Text>
                )}
                {chosenPlayer && (
                  <Flex align="center" gap="3" bg="navy.50" borderRadius="md" px="3" py="2" role="status">
                    <Text flex="1" minW="0">
                      Selected: <b>{chosenPlayer.player_name}</b>, {chosenPlayer.position}, {chosenPlayer.school}
                    </Text>
                    <Button size="xs" variant="ghost" onClick={() => setChosen(null)}>
                      Change
                    </Button>
                  </Flex>
                )}
                <PrimaryButton type="submit" disabled={!canRecord || !chosenPlayer || !slotValid} loading={record.isPending} alignSelf="flex-start">
                  {chosenPlayer && slotValid ? `Record pick ${slotNumber}: ${chosenPlayer.player_name}` : 'Record pick'}
                </PrimaryButton>
              </Stack>
            </form>
          </Card>

          <RoundOneCard status={s} board={board} onChanged={done} />
        </SimpleGrid>

        <Card as="section" aria-labelledby="audit-heading">
          <Heading as="h2" id="audit-heading" size="lg" color="navy.900" mb="3">
            Audit log
          </Heading>
          {audit.isPending ? (
            <Text color="gray.600">Loading...</Text>
          ) : audit.isError ? (
            <Text color="red.600" role="alert">
              {errorMessage(audit.error, 'Could not load the audit log.')}
            </Text>
          ) : audit.data.length === 0 ? (
            <Text color="gray.600">Nothing has happened yet.</Text>
          ) : (
            // Focusable: on wide screens the log scrolls inside its card, and a keyboard must reach it (axe).
            <Stack as="ol" tabIndex={0} gap="0" listStyleType="none" aria-label="Audit log" maxH={{ lg: '32rem' }} overflowY={{ lg: 'auto' }} _focusVisible={{ outline: '3px solid', outlineColor: 'gold.400', outlineOffset: '2px' }}>
              {audit.data.map((e) => (
                <Box as="li" key={e.id} py="2" borderTopWidth="1px" borderColor="gray.100" _first={{ borderTopWidth: 0 }}>
                  <Text fontWeight="semibold">
                    {describeDraftChange({ kind: e.kind, slot: e.slot, player: e.player_name ? { player_name: e.player_name } : null, team: e.team, team_before: e.team_before }, 'operator').title}
                  </Text>
                  <Text fontSize="xs" color="gray.600" wordBreak="break-all">
                    <time dateTime={e.created_at}>{when(e.created_at)}</time> · by {e.actor}
                  </Text>
                </Box>
              ))}
            </Stack>
          )}
        </Card>
      </Stack>

      <ConfirmDialog open={confirm === 'start'} title="Start the draft?" confirmLabel="Start draft" loading={start.isPending} onConfirm={() => start.mutate()} onClose={() => setConfirm(null)}>
        Picks lock for everyone at once, and groups and invite links can no longer be created.
      </ConfirmDialog>
      <ConfirmDialog open={confirm === 'undo'} title="Undo the last change?" confirmLabel="Undo" loading={undo.isPending} onConfirm={() => undo.mutate()} onClose={() => setConfirm(null)}>
        This takes back {undoWhat ?? 'the last change'}. Every open page updates at once.
      </ConfirmDialog>
      <ConfirmDialog open={confirm === 'complete'} title="Mark round one complete?" confirmLabel="Mark complete" loading={complete.isPending} onConfirm={() => complete.mutate()} onClose={() => setConfirm(null)}>
        {completeRoundWarning(s.picks_made, roundOnePicks)}
      </ConfirmDialog>
      <ConfirmDialog open={confirm === 'reset'} title="Reset the draft?" confirmLabel="Reset draft" destructive loading={reset.isPending} onConfirm={() => reset.mutate()} onClose={() => setConfirm(null)}>
        <b>This clears all results</b>: every recorded pick and the start. Picks unlock and the leaderboards go back to waiting for the draft. The audit log keeps a record.
      </ConfirmDialog>
    </Page>
  );
}
