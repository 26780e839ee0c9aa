import { hasClinched } from '@first-round/shared/contention';
import type { DraftStatus, Leaderboard, LeaderboardInput, LeaderboardRow, PlayerDto } from '@first-round/shared/schemas';
import { TEAM_ABBREVIATIONS } from '@first-round/shared/teams';

/*
 * Answers shaped as the server's (shared/src/schemas.ts), for the component tests' fake server.
 */

/** Picks lock at the next draft night: a fixed date well ahead, so the before-the-draft screens stay so. */
export const DEADLINE = '2099-04-23T00:00:00.000Z';

/** draft.status in one of the three phases; `picks`: how many round-one slots are filled. */
export function draftStatus(phase: 'before' | 'live' | 'final', picks = 0): DraftStatus {
  return {
    draftHasStarted: phase !== 'before',
    deadline: DEADLINE,
    started_at: phase === 'before' ? null : '2099-04-23T00:00:05.000Z',
    picks_made: phase === 'final' ? 32 : picks,
    round_one_complete: phase === 'final',
    round_one_picks: 32,
    last_event_id: picks,
    last_change_at: phase === 'before' ? null : '2099-04-23T00:05:00.000Z',
    round_one_order: Array.from({ length: 32 }, (_, i) => ({ slot: i + 1, team: TEAM_ABBREVIATIONS[i] ?? null })),
  };
}

const NAMES = ['Cam Ward', 'Travis Hunter', 'Abdul Carter', 'Will Campbell', 'Mason Graham', 'Ashton Jeanty', 'Armand Membou', 'Tetairoa McMillan', 'Kelvin Banks', 'Colston Loveland'];

/** The big board: `count` players, ranked 1..count; `drafted` maps a player id to his round-one slot. */
export function board(count: number, drafted: Record<number, number> = {}): PlayerDto[] {
  return Array.from({ length: count }, (_, i) => {
    const id = i + 1;
    return {
      id,
      rank: id,
      player_name: NAMES[i] ?? `Player ${id}`,
      position: ['QB', 'CB', 'EDGE', 'OT', 'DT', 'RB', 'OT', 'WR', 'OT', 'TE'][i % 10]!,
      school: `School ${id}`,
      draft_round: drafted[id] ? 1 : null,
      draft_pick: drafted[id] ?? null,
      band: id <= 20 ? 'safe' : id <= 40 ? 'bubble' : 'long_shot',
    } satisfies PlayerDto;
  });
}

/**
 * A standings row: alive with `hits` of `picks` unless `busted` (then it scores 0 and had `hits`; busted by a
 * miss unless `misses` is 0: too many picks pending for the slots left).
 */
export function row(
  rank: number,
  name: string,
  { hits = 0, picks = 10, busted = false, misses = busted ? 1 : 0, tiebreak = null, canWin = !busted, id, odds }: { hits?: number; picks?: number; busted?: boolean; misses?: number; tiebreak?: number | null; canWin?: boolean; id?: string; odds?: LeaderboardRow['odds'] } = {},
): LeaderboardRow {
  return {
    rank,
    participant_id: id ?? `p-${name.toLowerCase().replace(/\W+/g, '-')}`,
    participant_name: name,
    correct_picks: busted ? 0 : hits,
    busted,
    tiebreak_rank: busted ? null : tiebreak,
    picks,
    hits,
    misses,
    max_possible: busted ? 0 : picks,
    can_win: canWin,
    ...(odds ? { odds } : {}),
  };
}

/** `n` alive entries ranked 1..n, named 'Player 1'… */
export function manyRows(n: number, from = 1, busted = false): LeaderboardRow[] {
  return Array.from({ length: n }, (_, i) => row(from + i, `Player ${from + i}`, { hits: busted ? 0 : 3, busted }));
}

/**
 * leaderboard.group as the server pages it: the rows matching `search` (any case) and `status`, `limit` from
 * `offset`, with the board's counts, the caller's row and its position in the rows that match.
 */
export function standingsPage(all: LeaderboardRow[], meId: string | null, input: LeaderboardInput, { started = true } = {}): Leaderboard {
  const matching = all.filter((r) => (!input.search || r.participant_name.toLowerCase().includes(input.search.toLowerCase())) && (!input.status || (input.status === 'busted') === r.busted));
  const me = all.find((r) => r.participant_id === meId) ?? null;
  const position = me ? matching.indexOf(me) : -1;
  const offset = input.offset ?? 0;
  return {
    group_id: input.group_id,
    draft_started: started,
    entries: started ? all.length : 0,
    alive: started ? all.filter((r) => !r.busted).length : 0,
    clinched_by: started && all[0] && hasClinched(all[0], all.filter((r) => !r.busted).length, all.slice(1)) ? all[0].participant_id : null,
    rankings: started ? matching.slice(offset, offset + (input.limit ?? 500)) : [],
    me: started ? me : null,
    matches: started ? matching.length : 0,
    me_position: started && position >= 0 ? position : null,
    benchmarks: [],
  };
}
