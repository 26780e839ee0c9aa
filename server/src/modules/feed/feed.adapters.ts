/**
 * Results feeds: each adapter turns one fetched JSON document into the picks it reports, in one shape.
 * Adapters are pure (no I/O): the poller fetches, an adapter reads. A document that is not the adapter's
 * shape throws a FeedFormatError, which the poller keeps as the feed's last error (nothing is recorded).
 */

/** A pick as a feed reports it, whatever the feed. */
export interface FeedPick {
  overall: number;
  round: number;
  playerName: string;
  school: string;
  position: string | null;
  team: string | null;
}

export type FeedKind = 'espn' | 'generic';

export class FeedFormatError extends Error {}

export type FeedAdapter = (document: unknown) => FeedPick[];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const wholeNumber = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
};
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/**
 * ESPN's NFL team ids (its `teamId`, a string) as the abbreviations round one's order uses. Taken from
 * public clients of the same API (site.api.espn.com …/nfl/teams); an id not here is reported as it came
 * ('ESPN team 99'), which no team matches, so the feed never writes it (feed.service.ts).
 */
export const ESPN_TEAM_IDS: Readonly<Record<string, string>> = {
  '1': 'ATL', '2': 'BUF', '3': 'CHI', '4': 'CIN', '5': 'CLE', '6': 'DAL', '7': 'DEN', '8': 'DET',
  '9': 'GB', '10': 'TEN', '11': 'IND', '12': 'KC', '13': 'LV', '14': 'LAR', '15': 'MIA', '16': 'MIN',
  '17': 'NE', '18': 'NO', '19': 'NYG', '20': 'NYJ', '21': 'PHI', '22': 'ARI', '23': 'PIT', '24': 'LAC',
  '25': 'SF', '26': 'SEA', '27': 'TB', '28': 'WAS', '29': 'CAR', '30': 'JAX', '33': 'BAL', '34': 'HOU',
};
const espnTeam = (teamId: unknown): string | null => {
  const id = text(teamId) ?? (typeof teamId === 'number' ? String(teamId) : null);
  return id === null ? null : (ESPN_TEAM_IDS[id] ?? `ESPN team ${id}`);
};

/**
 * The generic feed (docs/api.md, "Results feed"): a JSON array of
 * `{overall, round, player_name, school, position, team}`; `position` and `team` may be absent or null.
 * Any entry that breaks the shape makes the whole document malformed: a half-read feed is not trusted.
 */
export const genericAdapter: FeedAdapter = (document) => {
  if (!Array.isArray(document)) throw new FeedFormatError('The generic feed must be a JSON array of picks');
  return document.map((entry, i) => {
    if (!isObject(entry)) throw new FeedFormatError(`Feed entry ${i + 1} is not an object`);
    const overall = wholeNumber(entry.overall);
    const round = wholeNumber(entry.round);
    const playerName = text(entry.player_name);
    const school = text(entry.school);
    if (overall === null || round === null || playerName === null || school === null) {
      throw new FeedFormatError(`Feed entry ${i + 1} needs a whole overall and round, and a player_name and school`);
    }
    return { overall, round, playerName, school, position: text(entry.position), team: text(entry.team) };
  });
};

/**
 * ESPN's public draft JSON (site.web.api.espn.com/apis/site/v2/sports/football/nfl/draft?season=YYYY), as
 * open-source pools read it (see docs/decisions.md, "Results feed"): `{status, picks: [...]}`, each pick
 * `{overall, round?, pick?, status, teamId, athlete: {displayName, position?: {abbreviation},
 * team: {shortDisplayName | displayName | location}}}`; `teamId` is read as the team's abbreviation. Only picks whose `status` is `SELECTION_MADE` are
 * made; the others are slots still on the clock or to come and are skipped. `round` is taken when given,
 * else left for the poller to read from `overall`.
 */
export const espnAdapter: FeedAdapter = (document) => {
  if (!isObject(document) || !Array.isArray(document.picks)) throw new FeedFormatError('The ESPN feed must be an object with a picks array');
  const picks: FeedPick[] = [];
  document.picks.forEach((entry, i) => {
    if (!isObject(entry)) throw new FeedFormatError(`ESPN pick ${i + 1} is not an object`);
    const overall = wholeNumber(entry.overall);
    if (overall === null) throw new FeedFormatError(`ESPN pick ${i + 1} has no whole overall number`);
    if (entry.status !== 'SELECTION_MADE') return;
    const athlete = isObject(entry.athlete) ? entry.athlete : null;
    const playerName = text(athlete?.displayName) ?? text(athlete?.fullName);
    const college = athlete && isObject(athlete.team) ? athlete.team : null;
    const school = text(college?.shortDisplayName) ?? text(college?.displayName) ?? text(college?.location);
    if (playerName === null || school === null) throw new FeedFormatError(`ESPN pick ${overall} is made but names no athlete and school`);
    const position = athlete && isObject(athlete.position) ? text(athlete.position.abbreviation) : null;
    picks.push({ overall, round: wholeNumber(entry.round) ?? 0, playerName, school, position, team: espnTeam(entry.teamId) });
  });
  return picks;
};

export const feedAdapters: Record<FeedKind, FeedAdapter> = { espn: espnAdapter, generic: genericAdapter };
