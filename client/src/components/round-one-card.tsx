import { useMemo, useState, type FormEvent } from 'react';
import { Box, chakra, Flex, Heading, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { parseWholeNumber } from '@first-round/shared/ids';
import type { DraftChange, DraftStatus, PlayerDto } from '@first-round/shared/schemas';
import { NFL_TEAMS, slotOnTheClock, teamName } from '@first-round/shared/teams';
import { Card } from './page';
import { PrimaryButton } from './buttons';
import { OnTheClock, TeamName } from './team-name';
import { errorMessage, trpc } from '../lib/trpc';
import { notify } from '../lib/toaster';

const Label = chakra('label');

/**
 * The operator's round-one board on /admin (docs/decisions.md, "Teams on the clock"): every slot with the
 * team holding it and the player taken there ('Pick 18 · SEA · Grey Zabel', the slot on the clock marked),
 * and the form that gives a slot to another team for a traded pick. A change is logged, reaches every open
 * page live, and undo takes it back while it is the last change.
 */
export function RoundOneCard({ status, board, onChanged }: { status: DraftStatus; board: readonly PlayerDto[]; onChanged: (change: DraftChange) => void }) {
  const taken = useMemo(() => new Map(board.filter((p) => p.draft_round === 1 && p.draft_pick !== null).map((p) => [p.draft_pick!, p])), [board]);
  const clock = status.draftHasStarted && !status.round_one_complete ? slotOnTheClock(taken.keys(), status.round_one_picks) : null;
  const [slotText, setSlotText] = useState<string | null>(null);
  const [team, setTeam] = useState('');
  const slot = slotText ?? String(clock ?? 1);
  const slotNumber = parseWholeNumber(slot, 1, status.round_one_picks);
  const setTeamMutation = trpc.draft.setTeam.useMutation({
    onSuccess(change) {
      onChanged(change);
      setTeam('');
      setSlotText(null);
    },
    onError: (error) => notify('error', 'The team was not changed', errorMessage(error, 'Please try again.')),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (slotNumber === null) return notify('error', 'Invalid slot', `The slot must be a whole number from 1 to ${status.round_one_picks}.`);
    if (!team) return notify('error', 'Choose a team', 'Pick the team that now holds the slot.');
    setTeamMutation.mutate({ slot: slotNumber, team });
  }

  return (
    <Card as="section" aria-labelledby="round-one-heading">
      <Heading as="h2" id="round-one-heading" size="lg" color="navy.900" mb="1">
        Round one
      </Heading>
      <Text color="gray.600" fontSize="sm" mb="4">
        Which team holds each slot. A traded pick: give the slot to its new team (undo takes it back).
      </Text>
      <form onSubmit={submit} aria-label="Give a traded pick to its new team">
        <HStack gap="3" align="end" wrap="wrap" mb="4">
          <Box w="28" flexShrink={0}>
            <Label htmlFor="trade-slot" fontWeight="semibold" fontSize="sm" display="block" mb="1">
              Traded pick
            </Label>
            <Input id="trade-slot" inputMode="numeric" value={slot} onChange={(e) => setSlotText(e.target.value)} bg="white" aria-invalid={slotNumber === null || undefined} />
          </Box>
          <Box flex="1" minW="12rem">
            <Label htmlFor="trade-team" fontWeight="semibold" fontSize="sm" display="block" mb="1">
              New team
            </Label>
            <NativeSelect.Root>
              <NativeSelect.Field id="trade-team" value={team} onChange={(e) => setTeam(e.target.value)} bg="white">
                <option value="">Choose the team…</option>
                {NFL_TEAMS.map((t) => (
                  <option key={t.abbreviation} value={t.abbreviation}>
                    {t.abbreviation} · {t.name}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Box>
          <PrimaryButton type="submit" disabled={slotNumber === null || !team} loading={setTeamMutation.isPending}>
            {slotNumber !== null && team ? `Give pick ${slotNumber} to ${team}` : 'Give the pick'}
          </PrimaryButton>
        </HStack>
      </form>
      {/* Focusable: on wide screens the list scrolls inside its card, and a keyboard must reach it (axe). */}
      <Stack as="ol" tabIndex={0} gap="0" listStyleType="none" aria-label="Round one order" maxH="32rem" overflowY="auto" _focusVisible={{ outline: '3px solid', outlineColor: 'gold.400', outlineOffset: '2px' }}>
        {status.round_one_order.map(({ slot: n, team: holder }) => {
          const player = taken.get(n);
          return (
            <Flex as="li" key={n} py="2" gap="3" borderTopWidth="1px" borderColor="gray.100" _first={{ borderTopWidth: 0 }} align="baseline" wrap="wrap">
              <Text fontWeight={n === clock ? 'bold' : 'semibold'} color="navy.900">
                {n === clock ? (
                  <OnTheClock slot={n} team={holder} />
                ) : (
                  <>
                    Pick {n}
                    {holder && (
                      <>
                        {' · '}
                        <TeamName team={holder} />
                      </>
                    )}
                    {player && ` · ${player.player_name}`}
                  </>
                )}
              </Text>
              <Text fontSize="sm" color="gray.600">
                {teamName(holder) ?? 'No team set'}
              </Text>
            </Flex>
          );
        })}
      </Stack>
    </Card>
  );
}
