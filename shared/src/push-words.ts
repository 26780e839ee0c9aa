/**
 * What a push notification says, decided and worded here once for the server that sends it and
 * the tests that read it. A pick tells each player at most one thing per device: one of their picks was taken
 * ('✓ Cam Ward — #1 to TEN', '1 hit, still alive'), else an entry of theirs busted at that pick, and once
 * round one is complete the final result ('Final: 9 hits, 2nd of 12 in Sunday Squad'). The entry's state
 * uses the screens' words (entry-words.ts: 'still alive', 'Busted'); the rules are scoring.ts's.
 */
import { bustReason, finalLine, hitsText } from './entry-words.js';
import { scoreCounts, type DraftSnapshot, type EntryCounts } from './scoring.js';
import { pickLabel } from './teams.js';
import { plural } from './words.js';

/** Every draft notification shares one tag: a phone replaces the previous one and shows the latest. */
export const PICK_TAG = 'first-round-picks';
/** The reminder before the lock has its own: it is not replaced by, nor replaces, news of the draft. */
export const REMINDER_TAG = 'first-round-reminder';

export interface PushText {
  title: string;
  body: string;
  tag: string;
  url: string;
}

/** One pick set of the player (the global entry when groupId is null), as the pick left it. */
export interface EntryAtPick extends EntryCounts {
  groupId: number | null;
  /** Whether this pick set holds the player just taken. */
  holds: boolean;
}

export interface PickTaken {
  slot: number;
  team: string | null;
  playerName: string;
}

/** Where a tap on news about an entry leads: its My Picks. */
export const entryPicksUrl = (groupId: number | null) => (groupId === null ? '/my-picks' : `/groups/${groupId}/picks`);

/** The snapshot one pick earlier (the pick's own slot still open). */
function before(after: DraftSnapshot): DraftSnapshot {
  return { ...after, filledSlots: Math.max(0, after.filledSlots - 1) };
}

/** A pick set's counts before this pick: the pick was a hit for the sets holding him. */
const countsBefore = (e: EntryAtPick): EntryCounts => ({ ...e, hits: e.hits - (e.holds ? 1 : 0) });

/** '1 hit · Alive'; for an entry busted earlier 'busted · had 3 hits' (the screens' words, entry-words.ts). */
export function hitsAndState(hits: number, busted: boolean): string {
  return busted ? hitsText({ busted, hits }) : `${plural(hits, 'hit')} · Alive`;
}

/**
 * What one player is told about a pick (null: nothing), from their pick sets after it. A pick of theirs taken
 * comes first (the set holding him with the most hits speaks, alive before busted, the global one on a tie);
 * otherwise an entry that was alive before this pick and is busted after it: more of its picks wait than
 * round-one slots are left (not when the player switched busted news off: `busted` false). The pick that
 * fills round one is not told here: the final result is (finalText).
 */
export function pickText(pick: PickTaken, entries: readonly EntryAtPick[], after: DraftSnapshot, tell: { busted: boolean } = { busted: true }): PushText | null {
  const scored = entries.map((e) => ({ e, now: scoreCounts(e, after) }));
  const holding = scored
    .filter((s) => s.e.holds)
    .sort((a, b) => Number(a.now.busted) - Number(b.now.busted) || b.e.hits - a.e.hits || Number(b.e.groupId === null) - Number(a.e.groupId === null));
  const label = pickLabel(pick.slot, pick.team);
  const best = holding[0];
  if (best) {
    return { title: `✓ ${pick.playerName} — ${label}`, body: hitsAndState(best.e.hits, best.now.busted), tag: PICK_TAG, url: entryPicksUrl(best.e.groupId) };
  }
  if (!tell.busted) return null;
  const previous = before(after);
  const busted = scored.find((s) => s.now.busted && !scoreCounts(countsBefore(s.e), previous).busted);
  if (!busted) return null;
  const left = after.roundOnePicks - after.filledSlots;
  return {
    title: `✗ Busted at ${label} — ${pick.playerName}`,
    body: `${bustReason(null, 0, busted.now.pending, left)}.`,
    tag: PICK_TAG,
    url: entryPicksUrl(busted.e.groupId),
  };
}

/** One entry's final place in one standings: the global one when groupId is null. */
export interface FinalPlace {
  groupId: number | null;
  groupName: string | null;
  rank: number;
  entries: number;
  hits: number;
  picks: number;
  busted: boolean;
  /** The entry's picks round one ended without, best-ranked first (busted entries). */
  missed: readonly string[];
}

/**
 * The place a player is told about when they are in several standings: a surviving entry before a busted
 * one, then the better rank, then the bigger field, then the global leaderboard. One notification, not one
 * per group: a phone shows one anyway (the tag), and the best news is the one worth the buzz.
 */
export function bestPlace(places: readonly FinalPlace[]): FinalPlace | undefined {
  return [...places].sort(
    (a, b) => Number(a.busted) - Number(b.busted) || a.rank - b.rank || b.entries - a.entries || Number(b.groupId === null) - Number(a.groupId === null),
  )[0];
}

/**
 * My Picks' final line and where: 'Final: 9 of 10 hit · 2nd of 12 in Sunday Squad'; busted 'Final · busted ·
 * had 3 hits · 5th of 12 in Sunday Squad' (entry-words.ts, finalLine).
 */
export function finalText(place: FinalPlace): PushText {
  const where = place.groupId === null ? 'on the global leaderboard' : `in ${place.groupName}`;
  const title = `${finalLine(place)} ${where}`;
  const [first, ...rest] = place.missed;
  const body =
    place.busted && first ? `Round one ended without ${first}${rest.length > 0 ? ` and ${rest.length} more` : ''}.` : 'Round one is complete: see the final standings.';
  return { title, body, tag: PICK_TAG, url: place.groupId === null ? '/leaderboard' : `/groups/${place.groupId}` };
}

/**
 * A reminder's headline, the e-mail's subject and the push's title alike: 'Your picks for Sunday Squad are
 * not in: 1 hour left' when one group's entry is all that is missing, else 'Your First Round picks are not in: …'.
 */
export function reminderHeadline(left: string, missing: readonly { groupId: number | null; groupName: string | null }[]): string {
  const only = missing.length === 1 ? missing[0] : undefined;
  return only && only.groupId !== null ? `Your picks for ${only.groupName} are not in: ${left}` : `Your First Round picks are not in: ${left}`;
}

/** The 1-hour reminder by push; a tap leads to the first entry not in (the global one first). */
export function reminderText(missing: readonly { groupId: number | null; groupName: string | null }[]): PushText {
  const first = missing[0];
  return {
    title: reminderHeadline('1 hour left', missing),
    body: 'Picks lock in an hour. Once the draft starts they cannot be made or changed.',
    tag: REMINDER_TAG,
    url: first && first.groupId !== null ? `/groups/${first.groupId}/picks` : '/select-players',
  };
}
