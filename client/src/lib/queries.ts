import { STALE_TIMES } from '@first-round/shared/constants';
import type { DraftStatus } from '@first-round/shared/schemas';
import { remainingSlots } from '@first-round/shared/scoring';
import { draftPhase, type DraftPhase } from './draft-phase';
import { trpc } from './trpc';

/*
 * The reads many screens share, one hook each, carrying their stale time: a screen asks for the draft
 * status or the board the same way everywhere, and the live layer keeps these cache entries current
 * (lib/live-refresh.ts), so a long stale time is right for all of them.
 */

/**
 * draft.status: started, picks made, round one complete, the deadline, the draft version. A page without
 * the live layer (the spectators' /live) asks again every `refetchInterval`.
 */
export function useDraftStatus(options: { enabled?: boolean; refetchInterval?: (query: { state: { data?: DraftStatus } }) => number | false } = {}) {
  return trpc.draft.status.useQuery(undefined, { staleTime: STALE_TIMES.draftStatus, ...options });
}

/**
 * Where the draft is ('before', 'live' while round one runs, 'final' once it is complete), undefined
 * until the status is known: the one switch between live words and final ones on every screen.
 */
export const slotsLeftOf = (status: Pick<DraftStatus, 'round_one_picks' | 'picks_made' | 'round_one_complete'>) =>
  remainingSlots({ roundOnePicks: status.round_one_picks, filledSlots: status.picks_made, roundOneCompleteMarked: status.round_one_complete });

export function useDraftPhase(): DraftPhase | undefined {
  const status = useDraftStatus().data;
  return status ? draftPhase(status) : undefined;
}

/** Round-one slots still open (0 once round one is complete): a busted row's reason counts them. */
export function useSlotsLeft(): number {
  const status = useDraftStatus().data;
  return status ? slotsLeftOf(status) : 0;
}

/** players.list: the big board, with each drafted player's slot. */
export function usePlayers(options: { enabled?: boolean } = {}) {
  return trpc.players.list.useQuery(undefined, { staleTime: STALE_TIMES.players, ...options });
}

/** auth.me: the signed-in player's profile (name, first login, admin). */
export function useProfile() {
  return trpc.auth.me.useQuery(undefined, { staleTime: STALE_TIMES.profile });
}

/**
 * leaderboard.field: each picked player's share of the entries (global, or a group's), read only once the
 * draft has started (before it the server answers 409). Picks are locked then, so it is not read again
 * after each recorded pick; a start or a reset marks it stale (lib/live-refresh.ts, `lockedOnly`).
 */
export function useField(started: boolean, groupId?: number) {
  return trpc.leaderboard.field.useQuery(groupId === undefined ? undefined : { group_id: groupId }, {
    enabled: started,
    staleTime: Infinity,
  });
}

