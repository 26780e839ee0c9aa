import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { STALE_TIMES } from '@first-round/shared/constants';
import { entryModeText } from '@first-round/shared/entries';
import { entryStateText, hadHitsText, placeText } from '@first-round/shared/entry-words';
import type { MyGroupStanding } from '@first-round/shared/schemas';
import { plural } from '@first-round/shared/words';
import type { DraftPhase } from '../lib/draft-phase';
import { trpc } from '../lib/trpc';

/** A group entry as My Picks lists it: its group's name and the caller's standing there. */
interface NamedEntry extends MyGroupStanding {
  name: string;
}

/** The caller's groups with their entries there, named, in the order of My Groups. */
export function useGroupEntries(): { linked: NamedEntry[]; own: NamedEntry[]; loaded: boolean } {
  const groups = trpc.groups.mine.useQuery(undefined, { staleTime: STALE_TIMES.groupLists });
  const cards = trpc.leaderboard.myGroups.useQuery(undefined, { staleTime: STALE_TIMES.leaderboard });
  const names = new Map((groups.data ?? []).map((g) => [g.group_id, g.name]));
  const entries = (cards.data?.groups ?? []).filter((c) => names.has(c.group_id)).map((c) => ({ ...c, name: names.get(c.group_id)! }));
  return {
    linked: entries.filter((e) => e.entry_mode === 'linked'),
    own: entries.filter((e) => e.entry_mode === 'own'),
    loaded: groups.isSuccess && cards.isSuccess,
  };
}

/**
 * My Picks' other entries: the groups where My Picks play (one line), then each group where the caller
 * plays picks of their own, with its state ('Own picks · 8', '2nd of 5 · Alive', 'FINAL · 1st of 3 ·
 * Winner'). Nothing when the caller is in no group.
 */
export function GroupEntries({ linked, own, phase }: { linked: NamedEntry[]; own: NamedEntry[]; phase: DraftPhase }) {
  if (linked.length === 0 && own.length === 0) return null;
  return (
    <Box as="section" aria-labelledby="group-entries-heading" mt="8">
      <Text as="h2" id="group-entries-heading" fontSize="lg" fontWeight="bold" color="navy.900" mb="2">
        Your entries in groups
      </Text>
      {linked.length > 0 && (
        <Text fontSize="sm" color="gray.700" mb="3">
          My Picks play in {linked.map((g) => g.name).join(', ')}.
        </Text>
      )}
      {own.length > 0 && (
        <Stack as="ul" listStyleType="none" gap="2" aria-label="Entries with own picks">
          {own.map((g) => (
            <Flex as="li" key={g.group_id} bg="white" borderWidth="1px" borderColor="gray.200" borderRadius="lg" px="4" py="3" align="center" gap="3" wrap="wrap">
              <Box flex="1" minW="0">
                <Link to={`/groups/${g.group_id}/picks`} style={{ fontWeight: 700, textDecoration: 'underline' }}>
                  {g.name}
                </Link>
                <Text fontSize="sm" color="gray.700">
                  {entryModeText('own', g.my_picks)}
                </Text>
              </Box>
              <Text fontSize="sm" fontWeight="bold" color={g.standing?.busted ? 'red.700' : 'turf.700'} data-testid="group-entry-state">
                {entryState(g, phase)}
              </Text>
            </Flex>
          ))}
        </Stack>
      )}
    </Box>
  );
}

function entryState(g: NamedEntry, phase: DraftPhase): string {
  if (phase === 'before') return g.my_picks > 0 ? `${plural(g.my_picks, 'pick')} in` : 'Not in yet';
  const s = g.standing;
  if (!s) return 'No entry';
  const final = phase === 'final';
  return `${placeText(s.rank, s.entries, final)} · ${entryStateText(s, final, s.shared)}${s.busted ? ` · ${hadHitsText(s.hits)}` : ''}`;
}
