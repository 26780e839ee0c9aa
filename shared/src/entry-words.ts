/**
 * An entry's state in words, for every screen and the share card. While round one runs an entry is
 * 'Alive' or 'Busted'; once round one is final nothing is alive any more, only decided: the first place
 * 'Winner' (shared where several entries tie for it), the other survivors 'Survived · 7 hits', the rest
 * 'Busted'. No live word ('Alive', 'Can still win', rank arrows) is said of a final night.
 */
import { ordinal, plural } from './words.js';

export type EntryState = 'alive' | 'busted' | 'winner' | 'survived';

/** A standings row as the words need it. */
export interface RankedEntry {
  rank: number;
  busted: boolean;
  correct_picks: number;
}

export function entryState(row: Pick<RankedEntry, 'rank' | 'busted'>, final: boolean): EntryState {
  if (row.busted) return 'busted';
  if (!final) return 'alive';
  return row.rank === 1 ? 'winner' : 'survived';
}

/**
 * The state's words: 'Alive', 'Busted', 'Winner' ('Shared winner' when `sharedFirst`: more than one entry
 * holds first place), 'Survived · 7 hits'.
 */
export function entryStateText(row: RankedEntry, final: boolean, sharedFirst = false): string {
  switch (entryState(row, final)) {
    case 'alive':
      return 'Alive';
    case 'busted':
      return 'Busted';
    case 'winner':
      return sharedFirst ? 'Shared winner' : 'Winner';
    case 'survived':
      return `Survived · ${plural(row.correct_picks, 'hit')}`;
  }
}

/** Whether more than one entry of these rows holds first place (rows of one standings, in order). */
export function firstPlaceShared(rows: readonly Pick<RankedEntry, 'rank' | 'busted'>[]): boolean {
  return rows.filter((r) => r.rank === 1 && !r.busted).length > 1;
}

/** 'FINAL · 1st of 3' once round one is over, '1st of 3' before. */
export function placeText(rank: number, entries: number, final: boolean): string {
  return `${final ? 'FINAL · ' : ''}${ordinal(rank)} of ${entries}`;
}

/** The line over a standings table: '12 entries · 5 still alive', once final '12 entries · 5 survived round one'. */
export function fieldSummary(entries: number, alive: number, final: boolean, noun: [string, string] = ['entry', 'entries']): string {
  return `${plural(entries, noun[0], noun[1])} · ${alive} ${final ? 'survived round one' : 'still alive'}`;
}

/**
 * The bust rule in one wording for every screen that says Busted, the rules and docs/rules.md: a miss, or
 * more picks still pending than round-one slots left (the entry can no longer be perfect). Decided in
 * shared/src/scoring.ts (bustedUnder).
 */
export const BUST_RULE = 'Busted (score 0): a pick missed round one, or more picks were undrafted than round-one slots left.';

/**
 * An entry's hits where they are shown: '9 hits'; busted, its score is 0 and the words say what it had,
 * 'busted · had 9 hits', the same on every screen and the share card.
 */
export function hitsText(entry: { busted: boolean; hits: number }): string {
  return entry.busted ? `busted · ${hadHitsText(entry.hits)}` : plural(entry.hits, 'hit');
}

/** What a busted entry had: 'had 9 hits' (its score is 0), beside a Busted badge. */
export function hadHitsText(hits: number): string {
  return `had ${plural(hits, 'hit')}`;
}

/**
 * Why an entry busted: its first miss ('Cam Ward was not drafted in round one (and 1 other miss)'), or,
 * without a miss, too many picks pending ('24 picks still pending, only 23 slots left in round one').
 */
export function bustReason(firstMiss: string | null, misses: number, pending: number, slotsLeft: number): string {
  if (firstMiss !== null) return `${firstMiss} was not drafted in round one${misses > 1 ? ` (and ${plural(misses - 1, 'other miss', 'other misses')})` : ''}`;
  if (misses > 0) return `${plural(misses, 'pick')} ${misses === 1 ? 'was' : 'were'} not drafted in round one`;
  return `${plural(pending, 'pick')} still pending, only ${plural(slotsLeft, 'slot')} left in round one`;
}

/** A standings row's counts, as the server ranks them (a busted row keeps what it had). */
export interface BustCounts {
  picks: number;
  hits: number;
  misses: number;
}

/**
 * Why a standings row busted, without its players' names: '1 pick was not drafted in round one', or
 * '24 picks still pending, only 23 slots left in round one' (`slotsLeft`: round-one slots still open).
 */
export function rowBustReason(row: BustCounts, slotsLeft: number): string {
  return bustReason(null, row.misses, row.picks - row.hits - row.misses, slotsLeft);
}

/** A busted row in one line, on every standings screen: 'had 9 hits · 24 picks still pending, only 23 slots left in round one'. */
export function bustedLine(row: BustCounts, slotsLeft: number): string {
  return `${hadHitsText(row.hits)} · ${rowBustReason(row, slotsLeft)}`;
}

/**
 * An entry's result once round one is final, the line My Picks shows and the final push says: 'Final: 9 of
 * 10 hit · 2nd of 12' ('· Winner' for first place), busted 'Final · busted · had 3 hits · 5th of 12'.
 */
export function finalLine(e: { busted: boolean; hits: number; picks: number; rank: number; entries: number }): string {
  const place = `${ordinal(e.rank)} of ${e.entries}`;
  if (e.busted) return `Final · ${hitsText({ busted: true, hits: e.hits })} · ${place}`;
  return `Final: ${e.hits} of ${e.picks} hit · ${place}${e.rank === 1 ? ' · Winner' : ''}`;
}
