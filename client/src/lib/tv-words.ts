import type { BoardMember } from '@first-round/shared/schemas';
import { plural } from '@first-round/shared/words';

/*
 * The words of the watch-party TV view (/groups/{id}/tv), read from across a room: short, and never
 * longer than the screen has room for however big the group is.
 */

/** Standings rows the TV reads, at most; the rest are summed up in one line (restOfStandings). */
export const TV_STANDINGS_ROWS = 12;

/**
 * The standings' lines on a screen `height` px tall (rowsThatFit): 12 on a 720p screen, 18 on one of
 * 1000 px or more (1080p), where the two-line rows of the odds would otherwise leave half the panel empty.
 */
export function tvStandingsLines(height: number): number {
  return height >= 1000 ? 18 : TV_STANDINGS_ROWS;
}

/** Names written out under the current pick; more are counted ('and 5 more'). */
export const TV_HAD_BY_NAMES = 4;

/** 'Ana, Bo and Cy' — a list as one says it. */
function listed(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * Who here had the player just picked: 'Nobody here had him', 'Ana had him', 'Ana, Bo and Cy had him',
 * 'Ana, Bo, Cy, Di and 5 more had him'. `hadBy` names whom the board may name (in a group with private
 * picks, only the device's signed-in member); `count` counts every entry that had him, so the unnamed are
 * counted, never named: 'Ana and 2 others had him', or '3 members here had him' when none is named.
 */
export function hadByText(hadBy: readonly Pick<BoardMember, 'participant_name'>[], count: number): string {
  if (count === 0) return 'Nobody here had him';
  const names = hadBy.map((m) => m.participant_name);
  if (names.length === 0) return `${plural(count, 'member')} here had him`;
  const shown = names.slice(0, TV_HAD_BY_NAMES);
  const unnamed = count - shown.length;
  if (unnamed === 0) return `${listed(shown)} had him`;
  // Named members beyond the first four are 'more'; members the group does not name are 'others'.
  const more = names.length > shown.length ? `${unnamed} more` : plural(unnamed, 'other');
  return `${shown.join(', ')} and ${more} had him`;
}

/** The line under the top rows: '+ 8 more · 3 still alive' (once final '… · 3 survived'); null when every entry is shown. */
export function restOfStandings(entries: number, shownRows: number, aliveShown: number, alive: number, final: boolean): string | null {
  const rest = entries - shownRows;
  if (rest <= 0) return null;
  const aliveRest = Math.max(0, alive - aliveShown);
  return `+ ${rest} more · ${aliveRest} ${final ? 'survived' : 'still alive'}`;
}

/** 'Alive' / 'Busted', and once final 'Survived'. */
export function entryState(busted: boolean, final: boolean): string {
  if (busted) return 'Busted';
  return final ? 'Survived' : 'Alive';
}

/** '1 hit' / '7 hits'. */
export function hitsText(hits: number): string {
  return plural(hits, 'hit');
}

/**
 * The standings rows that fit the TV's `lines`: a row is one line, an alive row with odds two (its odds on
 * the line under it), a busted row three (the bust's reason under it may wrap once on a 720p screen); the
 * rest are summed up (restOfStandings).
 */
export function rowsThatFit<R extends { busted: boolean; odds?: unknown }>(rows: readonly R[], lines = TV_STANDINGS_ROWS): R[] {
  const shown: R[] = [];
  let used = 0;
  for (const r of rows) {
    used += r.busted ? 3 : r.odds ? 2 : 1;
    if (used > lines) break;
    shown.push(r);
  }
  return shown;
}

/** Before the start: '5 of 7 members have picks in' ('1 of 1 member has …'). */
export function entriesIn(members: readonly { has_picks: boolean }[]): string {
  const ready = members.filter((m) => m.has_picks).length;
  return `${ready} of ${plural(members.length, 'member')} ${ready === 1 ? 'has' : 'have'} picks in`;
}
