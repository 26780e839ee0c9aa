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
