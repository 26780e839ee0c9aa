import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { entryOdds, oddsBoard } from '@first-round/shared/odds';
import { killListItemText, needsAllOfText, survivalText } from '@first-round/shared/odds-words';
import { board, draftStatus } from '../test/fixtures';
import { renderApp } from '../test/render';
import { draftOfBoard } from '../lib/odds';
import { EntryOddsCard } from './entry-odds-card';

const shown = (players: ReturnType<typeof board>, phase: 'before' | 'live' | 'final', picks: number[], made = 0) =>
  renderApp(<EntryOddsCard board={players} picks={picks} status={draftStatus(phase, made)} />, { route: '/my-picks' });

describe('the odds on My Picks', () => {
  it("says the entry's chance to survive, what it needs and the kill list riskiest first: the shared model's numbers", () => {
    const players = board(60);
    shown(players, 'before', [1, 38, 45]);
    const odds = entryOdds(oddsBoard(players, draftOfBoard(players)), [1, 38, 45])!;
    expect(screen.getByTestId('odds-survive')).toHaveTextContent(survivalText(odds.survive));
    expect(screen.getByText(needsAllOfText(['Player 45', 'Player 38', 'Cam Ward'])!)).toBeInTheDocument();
    const list = within(screen.getByRole('list', { name: 'Kill list' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(list).toEqual(odds.kill_list.map((k) => killListItemText(k.player_id === 1 ? 'Cam Ward' : `Player ${k.player_id}`, k.misses)));
    expect(list[0]).toMatch(/^Player 45 · \d+ % to miss round one$/);
  });

  it('while round one runs a pick that went leaves the kill list', () => {
    // Slots 1–3 took players 1–3; player 38 is pending.
    const players = board(60, { 1: 1, 2: 2, 3: 3 });
    shown(players, 'live', [2, 38], 3);
    expect(within(screen.getByRole('list', { name: 'Kill list' })).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByText('Needs Player 38')).toBeInTheDocument();
  });

  it('after round one, no odds: results only', () => {
    const players = board(40, Object.fromEntries(Array.from({ length: 32 }, (_, i) => [i + 1, i + 1])));
    shown(players, 'final', [1, 38], 32);
    expect(screen.queryByTestId('entry-odds')).not.toBeInTheDocument();
  });
});
