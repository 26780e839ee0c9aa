import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { WaitingOn } from '@first-round/shared/schemas';
import { renderApp } from '../../test/render';
import { WaitingRow } from './draft-board-page';

const waiting = (over: Partial<WaitingOn>): WaitingOn => ({
  player_id: 9,
  player_name: 'Jalen Milroe',
  position: 'QB',
  school: 'Alabama',
  rank: 38,
  needed_by: [{ participant_id: 'p_me', participant_name: 'Me' }],
  needed_by_count: 4,
  safe_if_goes_now: 3,
  if_goes_now: 'If Jalen Milroe goes now, 3 of you are safe',
  ...over,
});

describe("the draft board's waiting-on rows", () => {
  it('say how many entries the player would make safe if he went now, and nothing when he would make none', () => {
    const { unmount } = renderApp(<ul><WaitingRow item={waiting({})} me="p_me" first share={undefined} /></ul>);
    expect(screen.getByTestId('if-goes-now')).toHaveTextContent('If Jalen Milroe goes now, 3 of you are safe');
    unmount();
    renderApp(<ul><WaitingRow item={waiting({ safe_if_goes_now: 0, if_goes_now: null })} me="p_me" first share={undefined} /></ul>);
    expect(screen.getByText('Jalen Milroe')).toBeInTheDocument();
    expect(screen.queryByTestId('if-goes-now')).toBeNull();
  });
});
