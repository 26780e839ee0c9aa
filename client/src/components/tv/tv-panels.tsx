import type { ReactNode } from 'react';
import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import type { BoardSlot, LeaderboardRow, PlayerDto } from '@first-round/shared/schemas';
import { onTheClockLabel, pickLabel, teamName } from '@first-round/shared/teams';
import { ordinal } from '@first-round/shared/words';
import { hadHitsText, rowBustReason } from '@first-round/shared/entry-words';
import { useSlotsLeft } from '../../lib/queries';
import { entryState, hadByText, hitsText, restOfStandings, rowsThatFit, tvStandingsLines } from '../../lib/tv-words';
import { useWindowHeight } from '../../lib/use-window-height';
import { winnerText } from '../../lib/live-strip';

/*
 * The parts of the watch-party TV view (pages/groups/tv-page.tsx), sized to be read across a room: the
 * smallest text is 28 px (the view's base size), on the dark TV background with AA contrast (white and
 * navy.100 on navy.950; gold.400 and the state colours are lighter still).
 */

/** A titled block of the TV: a section named by its h2. */
export function Panel({ id, title, children, ...rest }: { id: string; title: string; children: ReactNode } & React.ComponentProps<typeof Box>) {
  return (
    <Box as="section" aria-labelledby={id} bg="navy.900" borderRadius="2xl" px="8" py="min(2vh, 20px)" minW="0" {...rest}>
      <Text as="h2" id={id} fontSize="clamp(28px, 3vh, 32px)" fontWeight="bold" textTransform="uppercase" letterSpacing="wider" color="gold.400" mb="1">
        {title}
      </Text>
      {children}
    </Box>
  );
}

/**
 * The pick just made, large: 'Pick 14 · IND', the team written out, the player, his position and school,
 * and who here had him. `slot` is the board's copy of that slot, given only once it shows this very
 * player (the board is read a moment after the pick): until then the line stays empty, never another
 * pick's names.
 */
export function CurrentPick({ pick, team, slot }: { pick: { slot: number; player: PlayerDto }; team: string | null; slot: BoardSlot | undefined }) {
  const { player } = pick;
  return (
    <Stack gap="1" data-testid="tv-current-pick">
      <Text fontSize="clamp(28px, 3.7vh, 40px)" fontWeight="bold" color="navy.100" truncate>
        {pickLabel(pick.slot, team)}
        {team && teamName(team) && ` · ${teamName(team)}`}
      </Text>
      <Text as="p" fontFamily="heading" fontSize="clamp(56px, min(6.5vw, 10vh), 128px)" lineHeight="1" fontWeight="black" color="white" lineClamp={2} data-testid="tv-player">
        {player.player_name}
      </Text>
      <Text fontSize="clamp(28px, 3.4vh, 36px)" color="navy.100">
        {player.position} · {player.school}
      </Text>
      <Text fontSize="clamp(28px, 3.4vh, 36px)" fontWeight="semibold" color="gold.400" minH="1.5em" lineClamp={2} data-testid="tv-had-by">
        {slot ? hadByText(slot.had_by, slot.had_by_count) : ''}
      </Text>
    </Stack>
  );
}

/** Before the first pick: the draft has started and everyone waits. */
export function WaitingForPick({ children }: { children?: ReactNode }) {
  return (
    <Stack gap="3" data-testid="tv-current-pick">
      <Text as="p" fontFamily="heading" fontSize="clamp(56px, 5vw, 96px)" lineHeight="1.05" fontWeight="black" color="white">
        Waiting for the first pick
      </Text>
      {children}
    </Stack>
  );
}

/** 'Pick 15 · ATL on the clock', the team written out. */
export function NextOnTheClock({ slot, team }: { slot: number; team: string | null }) {
  return (
    <Stack gap="0" data-testid="tv-on-the-clock">
      <Text fontSize="clamp(32px, 4vh, 44px)" fontWeight="bold" color="white">
        {onTheClockLabel(slot, team)}
      </Text>
      {team && teamName(team) && (
        <Text fontSize="clamp(28px, 3vh, 32px)" color="navy.100">
          {teamName(team)}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The group's standings: the top rows (rank, name, hits, Alive / Busted, once final Survived), in the
 * order the server ranks them (shared/src/scoring.ts: hits, then the boldest hit), and the rest summed up.
 * An alive row with odds says them on the line under it, the server's words as the group's standings say
 * them ('37 % to survive · 12 % to win'): beside the hits they left the name no room at 1280 px. A busted
 * row says the hits it had and, under it, why it busted (shared/src/entry-words.ts, My Picks' words): it
 * takes up to three of the screen's lines. As many rows as the screen's height has lines for (rowsThatFit,
 * tvStandingsLines).
 */
export function StandingsRows({ rows: all, entries, alive, final }: { rows: LeaderboardRow[]; entries: number; alive: number; final: boolean }) {
  const slotsLeft = useSlotsLeft();
  const lines = tvStandingsLines(useWindowHeight());
  if (entries === 0) return <Text color="navy.100">No participants have made picks yet.</Text>;
  const rows = rowsThatFit(all, lines);
  const rest = restOfStandings(entries, rows.length, rows.filter((r) => !r.busted).length, alive, final);
  return (
    <Stack gap="0">
      <Stack as="ol" gap="0" listStyleType="none" aria-label="Standings" data-testid="tv-standings">
        {rows.map((r) => (
          <Box as="li" key={r.participant_id} py="min(0.3vh, 6px)" lineHeight="1.15" borderTopWidth="1px" borderColor="navy.700" _first={{ borderTopWidth: 0 }}>
            <Flex align="center" gap="min(1.5vw, 16px)">
              <Text as="span" w="2.6em" flexShrink={0} fontWeight="bold" color="navy.100">
                {ordinal(r.rank)}
              </Text>
              <Text as="span" flex="1" minW="0" truncate fontWeight="semibold" color="white">
                {r.participant_name}
              </Text>
              <Text as="span" flexShrink={0} color="white" fontVariantNumeric="tabular-nums">
                {r.busted ? hadHitsText(r.hits) : hitsText(r.correct_picks)}
              </Text>
              <Text as="span" flexShrink={0} minW="4.4em" textAlign="end" fontWeight="bold" color={r.busted ? 'red.200' : 'turf.100'}>
                {entryState(r.busted, final)}
              </Text>
            </Flex>
            {r.busted ? (
              <Text color="navy.100" ps="calc(2.6em + min(1.5vw, 16px))">
                {rowBustReason(r, slotsLeft)}
              </Text>
            ) : (
              r.odds && (
                // The whole row's width, not indented under the name: '>99 % to survive · >99 % to win' fits
                // one line of a 1280 px screen's standings so.
                <Text color="navy.100" fontVariantNumeric="tabular-nums" data-testid="tv-odds">
                  {r.odds.text}
                </Text>
              )
            )}
          </Box>
        ))}
      </Stack>
      {rest && (
        <Text color="navy.100" pt="1" data-testid="tv-standings-rest">
          {rest}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Once round one is complete: the top three entries that survived with their hits, in standings order
 * (a shared rank shows as the same place), or that none did.
 */
export function Podium({ rows, top }: { rows: LeaderboardRow[]; top: LeaderboardRow[] }) {
  if (top.length === 0) {
    return (
      <Text as="p" fontSize="56px" fontWeight="black" color="white">
        {winnerText(rows)}
      </Text>
    );
  }
  return (
    <Stack as="ol" gap="4" listStyleType="none" aria-label="Podium" data-testid="tv-podium">
      {top.map((r, i) => (
        <Flex as="li" key={r.participant_id} align="baseline" gap="6" minW="0">
          <Text as="span" fontFamily="heading" fontSize={i === 0 ? '96px' : '64px'} lineHeight="1" fontWeight="black" color={r.rank === 1 ? 'gold.400' : 'navy.100'} flexShrink={0}>
            {ordinal(r.rank)}
          </Text>
          <Stack gap="0" minW="0">
            <Text as="span" fontSize={i === 0 ? '72px' : '52px'} lineHeight="1.1" fontWeight="black" color="white" truncate>
              {r.participant_name}
            </Text>
            <Text as="span" fontSize="36px" color="navy.100">
              {hitsText(r.correct_picks)}
            </Text>
          </Stack>
        </Flex>
      ))}
    </Stack>
  );
}

/** Before the start: the members and whether their picks are in (the first rows; the rest summed up). */
export function MembersIn({ members, shown }: { members: { participant_id: string; participant_name: string; has_picks: boolean }[]; shown: number }) {
  const rows = members.slice(0, shown);
  const rest = members.length - rows.length;
  return (
    <Stack gap="0">
      <Stack as="ul" gap="0" listStyleType="none" aria-label="Members">
        {rows.map((m) => (
          <Flex as="li" key={m.participant_id} align="center" gap="min(1.5vw, 16px)" py="min(0.3vh, 6px)" lineHeight="1.15" borderTopWidth="1px" borderColor="navy.700" _first={{ borderTopWidth: 0 }}>
            <Text as="span" flex="1" minW="0" truncate fontWeight="semibold" color="white">
              {m.participant_name}
            </Text>
            <Text as="span" flexShrink={0} fontWeight="bold" color={m.has_picks ? 'turf.100' : 'navy.100'}>
              {m.has_picks ? 'Picks are in' : 'No picks yet'}
            </Text>
          </Flex>
        ))}
      </Stack>
      {rest > 0 && <Text color="navy.100" pt="1">{`+ ${rest} more`}</Text>}
    </Stack>
  );
}
