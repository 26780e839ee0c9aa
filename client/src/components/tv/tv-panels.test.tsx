import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { row } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { StandingsRows } from './tv-panels';

describe("the TV view's standings", () => {
  it("say each entry's odds as the group's standings do, and none once the server sends none", () => {
    const odds = { survive: 0.37, win: 0.12, text: '37 % to survive · 12 % to win' };
    const rows = [row(1, 'Ann', { hits: 4, odds }), row(2, 'Bob', { hits: 3 })];
    renderApp(<StandingsRows rows={rows} entries={2} alive={2} final={false} />);
    const items = within(screen.getByTestId('tv-standings')).getAllByRole('listitem');
    expect(within(items[0]!).getByTestId('tv-odds')).toHaveTextContent('37 % to survive · 12 % to win');
    expect(within(items[1]!).queryByTestId('tv-odds')).toBeNull();
  });
});
