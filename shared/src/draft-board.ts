/**
 * A group's draft board, built from what the server already holds (pure, no I/O): the big board with its
 * round-one results, the draft's state, and the entries shown. Busted is decided by the same rules as
 * the standings (`scoreEntry` in scoring.ts), so the board and the leaderboard never disagree.
 */
import type { BoardMember, DraftBoard, OrderSlot, WaitingOn } from './schemas.js';
import { isRoundOneComplete, scoreEntry, type DraftSnapshot } from './scoring.js';

/** A player as the board needs him (a subset of players.list's rows). */
export interface BoardPlayer {
  id: number;
  rank: number;
  player_name: string;
  position: string;
  school: string;
  draft_round: number | null;
  draft_pick: number | null;
}

/** One member's entry in the group: their group picks, or their global ones when they reuse them. */
export interface BoardEntry {
  participant_id: string;
  participant_name: string;
  player_ids: readonly number[];
}

export interface DraftBoardSource {
  group_id: number;
  /** Whether members other than `viewer` may be named (the group's picks are public). */
  picks_visible: boolean;
  /** Who is reading: always named where they appear. */
  viewer: string;
  last_event_id: number;
  players: readonly BoardPlayer[];
  /** Round one's order: the team holding each slot (draft.status's round_one_order). */
  order: readonly OrderSlot[];
  draft: DraftSnapshot;
  entries: readonly BoardEntry[];
}

/** By name ignoring case, then by id: a stable order people can scan. */
function byName(a: BoardMember, b: BoardMember): number {
  const x = a.participant_name.toLowerCase();
  const y = b.participant_name.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a.participant_id < b.participant_id ? -1 : a.participant_id > b.participant_id ? 1 : 0;
}

export function buildDraftBoard(src: DraftBoardSource): DraftBoard {
  // Everyone counts; where picks are private only the reader is named.
  const named = (members: BoardMember[]) => (src.picks_visible ? [...members] : members.filter((m) => m.participant_id === src.viewer)).sort(byName);
  const byId = new Map(src.players.map((p) => [p.id, p]));
  const complete = isRoundOneComplete(src.draft);
  const hadBy = new Map<number, BoardMember[]>();
  const neededBy = new Map<number, BoardMember[]>();
  /** By undrafted player: alive entries that would be certain to survive if he went with the next pick. */
  const safeIf = new Map<number, number>();
  // Round one over: what an entry is certain of, whatever fills the other slots.
  const over: DraftSnapshot = { ...src.draft, filledSlots: src.draft.roundOnePicks };
  let alive = 0;

  for (const entry of src.entries) {
    // A pick whose player left the board cannot be shown or scored (the board and picks are read apart).
    const picks = entry.player_ids.map((id) => byId.get(id)).filter((p): p is BoardPlayer => p !== undefined);
    if (picks.length === 0) continue;
    const member = { participant_id: entry.participant_id, participant_name: entry.participant_name };
    const { busted } = scoreEntry(
      picks.map((p) => ({ rank: p.rank, draftRound: p.draft_round })),
      src.draft,
    );
    if (!busted) alive++;
    for (const p of picks) {
      if (p.draft_round === 1) push(hadBy, p.id, member);
      // Only an alive entry is still waiting: a busted one has nothing left to lose.
      else if (p.draft_round === null && !complete && !busted) {
        push(neededBy, p.id, member);
        // Safe if he goes now: still alive with round one over and every other pending pick missing.
        if (!scoreEntry(picks.map((q) => ({ rank: q.rank, draftRound: q.id === p.id ? 1 : q.draft_round })), over).busted) safeIf.set(p.id, (safeIf.get(p.id) ?? 0) + 1);
      }
    }
  }

  const teams = new Map(src.order.map((o) => [o.slot, o.team]));
  const taken = new Map<number, BoardPlayer>();
  for (const p of src.players) if (p.draft_round === 1 && p.draft_pick !== null) taken.set(p.draft_pick, p);
  const slots = Array.from({ length: src.draft.roundOnePicks }, (_, i) => {
    const p = taken.get(i + 1);
    return {
      slot: i + 1,
      team: teams.get(i + 1) ?? null,
      player: p ? { id: p.id, player_name: p.player_name, position: p.position, school: p.school, rank: p.rank } : null,
      had_by: p ? named(hadBy.get(p.id) ?? []) : [],
      had_by_count: p ? (hadBy.get(p.id)?.length ?? 0) : 0,
    };
  });

  const waiting_on: WaitingOn[] = [...neededBy].map(([id, members]) => {
    const p = byId.get(id)!;
    const safe = safeIf.get(id) ?? 0;
    return {
      player_id: p.id,
      player_name: p.player_name,
      position: p.position,
      school: p.school,
      rank: p.rank,
      needed_by: named(members),
      needed_by_count: members.length,
      safe_if_goes_now: safe,
      if_goes_now: ifGoesNowText(p.player_name, safe),
    };
  });
  waiting_on.sort((a, b) => b.needed_by_count - a.needed_by_count || a.rank - b.rank);

  return {
    group_id: src.group_id,
    picks_visible: src.picks_visible,
    last_event_id: src.last_event_id,
    round_one_complete: complete,
    entries: src.entries.filter((e) => e.player_ids.some((id) => byId.has(id))).length,
    alive,
    slots,
    waiting_on,
  };
}

/** 'If Jalen Milroe goes now, 3 of you are safe' (one: '… 1 of you is safe'); nobody: null. */
export function ifGoesNowText(name: string, safe: number): string | null {
  if (safe === 0) return null;
  return `If ${name} goes now, ${safe} of you ${safe === 1 ? 'is' : 'are'} safe`;
}

function push(map: Map<number, BoardMember[]>, id: number, member: BoardMember) {
  const list = map.get(id);
  if (list) list.push(member);
  else map.set(id, [member]);
}
