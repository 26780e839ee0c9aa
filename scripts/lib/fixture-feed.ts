import { ESPN_TEAM_IDS } from '../../server/src/modules/feed/feed.adapters.js';

/**
 * A results feed replaying a real round one (shared/data/round-one-<season>.json) for rehearsals:
 * `npm run feed:fixture -- 2025`. What the feed shows after `elapsedMs`: one more pick every `intervalMs`,
 * in the generic shape or ESPN's (docs/decisions.md, "Results feed"), each pick with the team that made
 * it (the generic `team` as the abbreviation, ESPN's `teamId` as ESPN numbers its teams).
 */
export interface RoundOnePick {
  slot: number;
  player_name: string;
  position: string;
  school: string;
  team: string;
}

const ESPN_ID_OF = new Map(Object.entries(ESPN_TEAM_IDS).map(([id, team]) => [team, id]));

export type FixtureKind = 'generic' | 'espn';

/** The real 2025 round one took about 3 h 17 min for 32 picks: ~370 s a pick (the data has no clock times). */
export const REAL_2025_SECONDS_PER_PICK = 370;

export function picksMadeAt(total: number, elapsedMs: number, intervalMs: number): number {
  if (elapsedMs < 0) return 0;
  return Math.min(total, Math.floor(elapsedMs / intervalMs) + 1);
}

/**
 * How a real feed spells two 2025 picks unlike the big board (a nickname, a typo): neither matches exactly
 * nor once normalised, so the server queues both with the right player suggested, and the rehearsal has
 * the operator confirm them (docs/operations.md, Results feed).
 */
export const FEED_SPELLINGS: Readonly<Record<string, string>> = { 'Tetairoa McMillan': 'Tet McMillan', 'Jahdae Barron': 'Jahdae Baron' };

export function fixtureFeed(picks: readonly RoundOnePick[], made: number, kind: FixtureKind): unknown {
  const sorted = [...picks].sort((a, b) => a.slot - b.slot).map((p) => ({ ...p, player_name: FEED_SPELLINGS[p.player_name] ?? p.player_name }));
  if (kind === 'generic') {
    return sorted.slice(0, made).map((p) => ({ overall: p.slot, round: 1, player_name: p.player_name, school: p.school, position: p.position, team: p.team }));
  }
  return {
    status: { state: made >= sorted.length ? 'post' : 'in', description: made >= sorted.length ? 'Round 1 complete' : 'In Progress' },
    picks: sorted.map((p, i) => ({
      overall: p.slot,
      round: 1,
      pick: p.slot,
      teamId: ESPN_ID_OF.get(p.team),
      status: i < made ? 'SELECTION_MADE' : i === made ? 'ON_THE_CLOCK' : 'UPCOMING',
      ...(i < made ? { athlete: { displayName: p.player_name, position: { abbreviation: p.position.split('/')[0] }, team: { shortDisplayName: p.school } } } : {}),
    })),
  };
}
