import { chakra } from '@chakra-ui/react';
import { teamName } from '@first-round/shared/teams';

/**
 * A team as text, never a logo: its abbreviation ('SEA'), the full name as its title (shown on hover, and
 * the description assistive technology can read). Screens with room write the full name out as well.
 */
export function TeamName({ team }: { team: string }) {
  return (
    <chakra.abbr title={teamName(team) ?? undefined} textDecoration="none" cursor="help">
      {team}
    </chakra.abbr>
  );
}

/** 'Pick 19 · TB on the clock' (onTheClockLabel's words), the team as TeamName; 'Pick 19 is on the clock' without one. */
export function OnTheClock({ slot, team }: { slot: number; team: string | null }) {
  // Each part one text node, so a new slot replaces the words whole.
  if (!team) return <>{`Pick ${slot} is on the clock`}</>;
  return (
    <>
      {`Pick ${slot} · `}
      <TeamName team={team} />
      {' on the clock'}
    </>
  );
}
