/**
 * The 32 NFL teams, as round one's order names them (pure data, no I/O): the abbreviation every screen
 * shows and the full name behind it. Teams are text only, never logos.
 */
export const NFL_TEAMS = [
  { abbreviation: 'ARI', name: 'Arizona Cardinals' },
  { abbreviation: 'ATL', name: 'Atlanta Falcons' },
  { abbreviation: 'BAL', name: 'Baltimore Ravens' },
  { abbreviation: 'BUF', name: 'Buffalo Bills' },
  { abbreviation: 'CAR', name: 'Carolina Panthers' },
  { abbreviation: 'CHI', name: 'Chicago Bears' },
  { abbreviation: 'CIN', name: 'Cincinnati Bengals' },
  { abbreviation: 'CLE', name: 'Cleveland Browns' },
  { abbreviation: 'DAL', name: 'Dallas Cowboys' },
  { abbreviation: 'DEN', name: 'Denver Broncos' },
  { abbreviation: 'DET', name: 'Detroit Lions' },
  { abbreviation: 'GB', name: 'Green Bay Packers' },
  { abbreviation: 'HOU', name: 'Houston Texans' },
  { abbreviation: 'IND', name: 'Indianapolis Colts' },
  { abbreviation: 'JAX', name: 'Jacksonville Jaguars' },
  { abbreviation: 'KC', name: 'Kansas City Chiefs' },
  { abbreviation: 'LAC', name: 'Los Angeles Chargers' },
  { abbreviation: 'LAR', name: 'Los Angeles Rams' },
  { abbreviation: 'LV', name: 'Las Vegas Raiders' },
  { abbreviation: 'MIA', name: 'Miami Dolphins' },
  { abbreviation: 'MIN', name: 'Minnesota Vikings' },
  { abbreviation: 'NE', name: 'New England Patriots' },
  { abbreviation: 'NO', name: 'New Orleans Saints' },
  { abbreviation: 'NYG', name: 'New York Giants' },
  { abbreviation: 'NYJ', name: 'New York Jets' },
  { abbreviation: 'PHI', name: 'Philadelphia Eagles' },
  { abbreviation: 'PIT', name: 'Pittsburgh Steelers' },
  { abbreviation: 'SEA', name: 'Seattle Seahawks' },
  { abbreviation: 'SF', name: 'San Francisco 49ers' },
  { abbreviation: 'TB', name: 'Tampa Bay Buccaneers' },
  { abbreviation: 'TEN', name: 'Tennessee Titans' },
  { abbreviation: 'WAS', name: 'Washington Commanders' },
] as const;

export type NflTeam = (typeof NFL_TEAMS)[number];
export type TeamAbbreviation = NflTeam['abbreviation'];
export const TEAM_ABBREVIATIONS = NFL_TEAMS.map((t) => t.abbreviation) as [TeamAbbreviation, ...TeamAbbreviation[]];

/** Other spellings feeds and hand-made files use for the same teams (ESPN's WSH, older JAC, …). */
const ALTERNATIVES: Record<string, TeamAbbreviation> = {
  WSH: 'WAS',
  JAC: 'JAX',
  LVR: 'LV',
  LA: 'LAR',
  KAN: 'KC',
  GNB: 'GB',
  NWE: 'NE',
  NOR: 'NO',
  SFO: 'SF',
  TAM: 'TB',
};

const byKey = new Map<string, NflTeam>();
for (const team of NFL_TEAMS) {
  byKey.set(team.abbreviation, team);
  byKey.set(team.name.toUpperCase(), team);
  // The nickname (the name's last word: Seahawks, 49ers) is one team's; a city alone (New York) may be two.
  byKey.set(team.name.split(' ').at(-1)!.toUpperCase(), team);
}
for (const [alt, abbreviation] of Object.entries(ALTERNATIVES)) byKey.set(alt, byKey.get(abbreviation)!);

/** A team from what a file or a feed calls it (abbreviation, alternative, full name, nickname; any case), or null. */
export function findTeam(text: string | null | undefined): NflTeam | null {
  if (!text) return null;
  return byKey.get(text.trim().replace(/\s+/g, ' ').toUpperCase()) ?? null;
}

/** The full name behind an abbreviation ('SEA' → 'Seattle Seahawks'), or null for none of the 32. */
export function teamName(abbreviation: string | null | undefined): string | null {
  const team = abbreviation ? byKey.get(abbreviation) : undefined;
  return team && team.abbreviation === abbreviation ? team.name : null;
}

/**
 * A round-one pick in words, the same on every screen and card: 'Pick 18 · SEA · Grey Zabel'; without a
 * player 'Pick 18 · SEA'; a slot whose team is not known leaves the team out.
 */
export function pickLabel(slot: number, team: string | null | undefined, playerName?: string): string {
  return [`Pick ${slot}`, team, playerName].filter(Boolean).join(' · ');
}

/** The slot on the clock: 'Pick 19 · TB on the clock' (or 'Pick 19 is on the clock' without a team). */
export function onTheClockLabel(slot: number, team: string | null | undefined): string {
  return team ? `${pickLabel(slot, team)} on the clock` : `Pick ${slot} is on the clock`;
}

/** The slot on the clock: the lowest one not yet filled (the operator may record out of order), null once all are. */
export function slotOnTheClock(filled: Iterable<number>, roundOnePicks: number): number | null {
  const taken = new Set(filled);
  for (let slot = 1; slot <= roundOnePicks; slot++) if (!taken.has(slot)) return slot;
  return null;
}

/** The team holding `slot` in round one's order (draft.status's `round_one_order`), null when not known. */
export function teamAt(order: readonly { slot: number; team: string | null }[] | undefined, slot: number): string | null {
  return order?.find((o) => o.slot === slot)?.team ?? null;
}
