import { useEffect, useReducer } from 'react';

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
