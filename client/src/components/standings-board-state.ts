import { useEffect, useReducer, type Dispatch } from 'react';
import { standingsRowId } from './standings-table';

/** The standings' two lists: every entry (only the alive ones while folded, the matches of a search), and the busted ones. */
export type ListName = 'main' | 'busted';

/** What the reader has done to the standings board: typed, paged, opened the fold, asked to jump. */
export interface BoardState {
  /** The search box's text. */
  text: string;
  /** The search asked of the server: the text, trimmed, once typing pauses. */
  search: string;
  /** Whether the busted entries are folded away (the last answer's counts say so). */
  fold: boolean;
  /** The first row of the page shown, in the main list and in the busted list. */
  offset: number;
  bustedOffset: number;
  bustedOpen: boolean;
  /** The list whose page holding the caller's row is being loaded ('Jump to me'), or null. */
  jump: ListName | null;
}

export type BoardAction =
  | { type: 'type'; text: string }
  | { type: 'search'; search: string }
  | { type: 'fold'; fold: boolean }
  | { type: 'page'; list: ListName; offset: number }
  | { type: 'toggleBusted' }
  | { type: 'jump'; list: ListName }
  | { type: 'jumped' };

export const INITIAL_BOARD: BoardState = { text: '', search: '', fold: false, offset: 0, bustedOffset: 0, bustedOpen: false, jump: null };

/** Another main list (a search asked or cleared, the fold switching) starts from its first page. */
export function boardReducer(state: BoardState, action: BoardAction): BoardState {
  switch (action.type) {
    case 'type':
      return { ...state, text: action.text };
    case 'search':
      return action.search === state.search ? state : { ...state, search: action.search, offset: 0 };
    case 'fold':
      return action.fold === state.fold ? state : { ...state, fold: action.fold, offset: 0 };
    case 'page':
      return action.list === 'busted' ? { ...state, bustedOffset: action.offset } : { ...state, offset: action.offset };
    case 'toggleBusted':
      return { ...state, bustedOpen: !state.bustedOpen };
    case 'jump': {
      // The caller's row is found in the whole standings: the search goes.
      const cleared = state.search === '' ? state : { ...state, search: '', offset: 0 };
      return { ...cleared, text: '', bustedOpen: cleared.bustedOpen || action.list === 'busted', jump: action.list };
    }
    case 'jumped':
      return { ...state, jump: null };
  }
}

const SEARCH_DELAY_MS = 250;

/** The board's state, with the search asked once typing pauses. */
export function useBoardState() {
  const [state, dispatch] = useReducer(boardReducer, INITIAL_BOARD);
  useEffect(() => {
    const timer = setTimeout(() => dispatch({ type: 'search', search: state.text.trim() }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.text]);
  return [state, dispatch] as const;
}

/** A list's answer as the jump reads it: the caller's position in the list and the rows of the page shown. */
interface ListRead {
  data?: { me_position: number | null; rankings: { participant_id: string }[] };
  isPlaceholderData: boolean;
}

/** Jump to me: loads the page holding the caller's row (from their position in that list), then scrolls to it. */
export function useJumpToMe(state: BoardState, dispatch: Dispatch<BoardAction>, lists: Record<ListName, ListRead>, me: { participant_id: string } | null, pageSize: number) {
  const { jump, search, offset, bustedOffset } = state;
  const { main, busted } = lists;
  useEffect(() => {
    if (!jump || !me) return;
    const q = jump === 'busted' ? busted : main;
    const current = jump === 'busted' ? bustedOffset : offset;
    if (!q.data || q.isPlaceholderData || (jump === 'main' && search)) return;
    const position = q.data.me_position;
    if (position === null) return dispatch({ type: 'jumped' });
    const want = Math.floor(position / pageSize) * pageSize;
    if (want !== current) return dispatch({ type: 'page', list: jump, offset: want });
    if (!q.data.rankings.some((r) => r.participant_id === me.participant_id)) return;
    dispatch({ type: 'jumped' });
    requestAnimationFrame(() => {
      const row = document.getElementById(standingsRowId(me.participant_id));
      row?.scrollIntoView({ block: 'center' });
      row?.focus({ preventScroll: true });
    });
  }, [jump, me, main, busted, offset, bustedOffset, search, pageSize, dispatch]);
}
