import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { PlayerDto } from '@first-round/shared/schemas';
import type * as PlayerRow from '../player-row';
import { FakeServer } from '../../test/fake-server';
import { board } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { PicksEditor } from './picks-editor';

/** How many times each player's row content has rendered, by player id. */
const renders = new Map<number, number>();

// The rows' content as the app draws it, counted: which rows a tap makes React render again.
vi.mock('../player-row', async (importOriginal) => {
  const original = await importOriginal<typeof PlayerRow>();
  return {
    ...original,
    PlayerRowContent(props: Parameters<typeof original.PlayerRowContent>[0]) {
      renders.set(props.player.id, (renders.get(props.player.id) ?? 0) + 1);
      return original.PlayerRowContent(props);
    },
  };
});

const PLAYERS: PlayerDto[] = board(60);
const player = (name: string) => screen.getByText(name, { selector: 'p' }).closest('button')!;
const count = () => screen.getByLabelText('Picks used').getAttribute('aria-valuenow');
/** The ids of the rows rendered since the last call. */
function renderedSince() {
  const ids = [...renders.keys()].sort((a, b) => a - b);
  renders.clear();
  return ids;
}

describe('PicksEditor: what a tap renders', () => {
  // The risk meter answers each tap; on a board of hundreds, drawing every row again would be most of the wait.
  it('a tap renders again only the row it changed, adding or removing, while the meter follows', async () => {
    const server = new FakeServer({ picks: { save: (input) => ({ success: true, picks: input.picks, group_id: 1 }) } });
    const { user } = renderApp(<PicksEditor players={PLAYERS} entry={{ groupId: null, saved: [1, 2], initial: [1, 2], storageKey: null, label: 'My Picks' }} doneTo="/my-picks" />, {
      server,
      route: '/select-players',
    });
    await waitFor(() => expect(count()).toBe('2'));
    expect(screen.getByTestId('risk-meter')).toHaveTextContent('2 picks');
    renderedSince();

    await user.click(player('Player 40'));
    expect(player('Player 40')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('risk-meter')).toHaveTextContent('3 picks');
    expect(renderedSince()).toEqual([40]);

    await user.click(player('Player 45'));
    expect(screen.getByTestId('risk-meter')).toHaveTextContent('4 picks');
    expect(renderedSince()).toEqual([45]);

    await user.click(player('Cam Ward'));
    expect(player('Cam Ward')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTestId('risk-meter')).toHaveTextContent('3 picks');
    expect(renderedSince()).toEqual([1]);
  });
});
