import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { FakeServer } from '../../test/fake-server';
import { draftStatus, row } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { StandingsRows } from './tv-panels';

/** Round one with 5 slots filled: 27 left. */
const live = () => new FakeServer({ draft: { status: () => draftStatus('live', 5) } });
const rowOf = (name: string) => within(screen.getByText(name).closest('li')!);

describe('the TV standings: a busted entry', () => {
  it('says what it had and why it busted, in My Picks\' words: too many picks pending for the slots left', async () => {
    const rows = [row(1, 'Ana', { hits: 1, picks: 2 }), row(2, 'Bo', { busted: true, hits: 1, picks: 30, misses: 0 })];
    renderApp(<StandingsRows rows={rows} entries={2} alive={1} final={false} />, { server: live() });
    const bo = rowOf('Bo');
    expect(await bo.findByText('29 picks still pending, only 27 slots left in round one')).toBeInTheDocument();
    expect(bo.getByText('had 1 hit')).toBeInTheDocument();
    expect(bo.getByText('Busted')).toBeInTheDocument();
    expect(bo.queryByText('0 hits')).toBeNull();
    expect(rowOf('Ana').getByText('1 hit')).toBeInTheDocument();
  });

  it('names a miss as a miss once round one is final', async () => {
    const rows = [row(1, 'Ana', { hits: 2, picks: 2 }), row(2, 'Bo', { busted: true, hits: 1, picks: 2, misses: 1 })];
    renderApp(<StandingsRows rows={rows} entries={2} alive={1} final />, { server: new FakeServer({ draft: { status: () => draftStatus('final') } }) });
    const bo = rowOf('Bo');
    expect(await bo.findByText('1 pick was not drafted in round one')).toBeInTheDocument();
    expect(bo.getByText('had 1 hit')).toBeInTheDocument();
  });

  it('keeps to the lines the screen has: a busted row takes up to three, and the rest are summed up', async () => {
    const rows = [row(1, 'Ana', { hits: 2, picks: 2 }), ...['Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gus', 'Hal'].map((n) => row(2, n, { busted: true, hits: 1, picks: 2 }))];
    renderApp(<StandingsRows rows={rows} entries={8} alive={1} final />, { server: new FakeServer({ draft: { status: () => draftStatus('final') } }) });
    // 12 lines: Ana's, then three busted rows of up to three lines each (10); the fourth would make 13.
    await screen.findAllByText('1 pick was not drafted in round one');
    expect(within(screen.getByRole('list', { name: 'Standings' })).getAllByRole('listitem')).toHaveLength(4);
    expect(screen.getByTestId('tv-standings-rest')).toHaveTextContent('+ 4 more · 0 survived');
  });
});

describe("the TV view's standings: odds", () => {
  const odds = { survive: 0.37, win: 0.12, text: '37 % to survive · 12 % to win' };

  it("say each alive entry's odds on the line under it, the group's standings' words, and none once the server sends none", () => {
    const rows = [row(1, 'Ann', { hits: 4, odds }), row(2, 'Bob', { hits: 3 }), row(3, 'Cal', { busted: true, hits: 1, odds: { survive: 0, win: 0, text: '0 % to survive · 0 % to win' } })];
    renderApp(<StandingsRows rows={rows} entries={3} alive={2} final={false} />, { server: live() });
    const items = within(screen.getByTestId('tv-standings')).getAllByRole('listitem');
    const ann = within(items[0]!).getByTestId('tv-odds');
    expect(ann).toHaveTextContent(/^37 % to survive · 12 % to win$/);
    // A line of its own, after the row's hits and state, not beside them.
    expect(ann.parentElement).toBe(items[0]);
    expect(items[0]!.textContent).toMatch(/4 hitsAlive37 % to survive · 12 % to win$/);
    expect(within(items[1]!).queryByTestId('tv-odds')).toBeNull();
    // A busted row says why it busted instead: its 0 % is what 'Busted' says.
    expect(within(items[2]!).queryByTestId('tv-odds')).toBeNull();
  });

  it('count a row with odds as two of the screen\'s lines: six of them on a 720p screen', () => {
    const rows = ['Ann', 'Bob', 'Cal', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'].map((n, i) => row(i + 1, n, { hits: 1, odds }));
    renderApp(<StandingsRows rows={rows} entries={8} alive={8} final={false} />, { server: live() });
    expect(within(screen.getByRole('list', { name: 'Standings' })).getAllByRole('listitem')).toHaveLength(6);
    expect(screen.getAllByTestId('tv-odds')).toHaveLength(6);
    expect(screen.getByTestId('tv-standings-rest')).toHaveTextContent('+ 2 more · 2 still alive');
  });
});
