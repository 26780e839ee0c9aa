import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { Link } from 'react-router-dom';
import { MESSAGES } from '@first-round/shared/messages';
import { FakeServer, Refusal, deferred } from '../../test/fake-server';
import { board } from '../../test/fixtures';
import { currentPath, renderApp } from '../../test/render';
import { PicksEditor, type EditedEntry } from './picks-editor';
import { entryOdds, oddsBoard } from '@first-round/shared/odds';
import { riskMeterText } from '@first-round/shared/odds-words';
import { draftOfBoard } from '../../lib/odds';

/** A short board keeps each tap's re-render quick; the limit's test has a longer one. */
const PLAYERS = board(12);
const KEY = 'first-round:unsaved-picks:me:global';

/** The selection screen's editor with a link out of it (the app's tabs), for My Picks unless `entry` says otherwise. */
function Editor({ players = PLAYERS, ...entry }: Partial<EditedEntry> & { players?: typeof PLAYERS }) {
  const full: EditedEntry = { groupId: null, saved: [], initial: entry.saved ?? [], storageKey: KEY, label: 'My Picks', ...entry };
  return (
    <>
      <Link to="/leaderboard">Leaderboard</Link>
      <PicksEditor players={players} entry={full} doneTo="/my-picks" />
    </>
  );
}

function saving(server = new FakeServer()) {
  return server.answer({ picks: { save: (input) => ({ success: true, picks: input.picks, group_id: input.group_id ?? 1 }) } });
}

const render = (entry: Partial<EditedEntry> & { players?: typeof PLAYERS } = {}, server = saving()) => renderApp(<Editor {...entry} />, { server, route: '/select-players' });
// By text, not by role: working out every button's accessible name on a 30-row board costs a few hundred
// milliseconds a query in happy-dom, and these run after every tap.
/** A player's row: the button holding his name. */
const player = (name: string) => screen.getByText(name, { selector: 'p' }).closest('button')!;
const count = () => screen.getByLabelText('Picks used').getAttribute('aria-valuenow');
const saveButton = () => screen.getByText('Save Picks').closest('button')!;

describe('PicksEditor: choosing', () => {
  it('a tap adds a player and a second tap removes him, counting as it goes', async () => {
    const { user } = render();
    expect(count()).toBe('0');
    expect(screen.getByText(MESSAGES.noPlayersSelected)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    await user.click(player('Cam Ward'));
    expect(player('Cam Ward')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('pick-count')).toHaveTextContent('1 / 32');
    expect(screen.getByText('1 selection')).toBeInTheDocument();
    expect(saveButton()).toBeEnabled();
    await user.click(player('Travis Hunter'));
    expect(screen.getByText('2 selections')).toBeInTheDocument();
    await user.click(player('Cam Ward'));
    expect(player('Cam Ward')).toHaveAttribute('aria-pressed', 'false');
    expect(count()).toBe('1');
  });

  it('starts from the saved picks', async () => {
    render({ saved: [2, 6] });
    await waitFor(() => expect(count()).toBe('2'));
    expect(player('Travis Hunter')).toHaveAttribute('aria-pressed', 'true');
    expect(player('Ashton Jeanty')).toHaveAttribute('aria-pressed', 'true');
    expect(player('Cam Ward')).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows each player’s risk band, and the bands as this board draws them', () => {
    render({ players: board(45) });
    expect(within(screen.getByRole('list', { name: 'Risk bands' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Safe #1–20', 'Bubble #21–40', 'Long shot #41+']);
    expect(screen.getByText('One miss zeroes the entry: every pick has to go in round one.')).toBeInTheDocument();
    for (const [name, band] of [['Cam Ward', 'safe'], ['Player 20', 'safe'], ['Player 21', 'bubble'], ['Player 40', 'bubble'], ['Player 41', 'long_shot']] as const) {
      expect(player(name).querySelector('[data-band]'), name).toHaveAttribute('data-band', band);
    }
  });

  it('the 32nd pick fills the entry; a 33rd tap says why and adds nobody, never counting 33 even for a moment', async () => {
    const { user } = render({ players: board(34), saved: Array.from({ length: 31 }, (_, i) => i + 1) });
    await waitFor(() => expect(count()).toBe('31'));
    const overLimit: string[] = [];
    const watch = new MutationObserver(() => {
      if (/33 \/ 32|33 selections/.test(document.body.textContent ?? '')) overLimit.push(document.body.textContent!);
    });
    watch.observe(document.body, { subtree: true, childList: true, characterData: true });
    await user.click(player('Player 32'));
    expect(screen.getByTestId('pick-count')).toHaveTextContent('32 / 32');
    expect(screen.getByText("That's the limit: 32 picks. Remove one to add another.")).toBeInTheDocument();
    await user.click(player('Player 33'));
    expect(await screen.findByText(MESSAGES.tooManyPicks)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.tooManyPicksTitle)).toBeInTheDocument();
    expect(player('Player 33')).toHaveAttribute('aria-pressed', 'false');
    expect(count()).toBe('32');
    watch.disconnect();
    expect(overLimit).toEqual([]);
    // Removing one makes room again.
    await user.click(player('Player 32'));
    await user.click(player('Player 33'));
    expect(player('Player 33')).toHaveAttribute('aria-pressed', 'true');
  });

  it('the risk meter says the selection’s chance to survive round one, the shared model’s number, as picks are added and removed', async () => {
    const players = board(60);
    const { user } = render({ players });
    expect(screen.queryByTestId('risk-meter')).not.toBeInTheDocument();
    // What the shared model says of a selection on this board before the draft (the server draws the same batch).
    const meter = (ids: number[]) => riskMeterText(ids.length, entryOdds(oddsBoard(players, draftOfBoard(players)), ids)!.survive);
    await user.click(player('Cam Ward'));
    expect(screen.getByTestId('risk-meter')).toHaveTextContent(meter([1]));
    expect(screen.getByTestId('risk-meter')).toHaveTextContent('1 pick · 100 % to survive round one');
    await user.click(player('Player 40'));
    const withLongShot = meter([1, 40]);
    expect(screen.getByTestId('risk-meter')).toHaveTextContent(withLongShot);
    expect(withLongShot).toMatch(/^2 picks · \d+ % to survive round one$/);
    await user.click(player('Player 45'));
    expect(screen.getByTestId('risk-meter')).toHaveTextContent(meter([1, 40, 45]));
    // Riskier with each long shot, and back when one is removed.
    const survive = (ids: number[]) => entryOdds(oddsBoard(players, draftOfBoard(players)), ids)!.survive;
    expect(survive([1, 40, 45])).toBeLessThan(survive([1, 40]));
    expect(survive([1, 40])).toBeLessThan(survive([1]));
    await user.click(player('Player 45'));
    expect(screen.getByTestId('risk-meter')).toHaveTextContent(withLongShot);
    await user.click(player('Cam Ward'));
    await user.click(player('Player 40'));
    expect(screen.queryByTestId('risk-meter')).not.toBeInTheDocument();
  });

  it('searches the board by name, and says when nobody matches', async () => {
    const { user } = render();
    await user.type(screen.getByRole('textbox', { name: 'Search Players' }), 'hunter');
    const rows = within(screen.getByRole('list', { name: 'Players' })).getAllByRole('button');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Travis Hunter');
    await user.clear(screen.getByRole('textbox', { name: 'Search Players' }));
    await user.type(screen.getByRole('textbox', { name: 'Search Players' }), 'zzzz');
    expect(screen.getByText('No players match your search.')).toBeInTheDocument();
  });

  it('filters the board by position', async () => {
    const { user } = render();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Pos' }), 'QB');
    const rows = within(screen.getByRole('list', { name: 'Players' })).getAllByRole('button');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(PLAYERS.length);
    expect(rows.map((r) => r.textContent)).toEqual(expect.arrayContaining([expect.stringContaining('Cam Ward')]));
    for (const r of rows) expect(r).toHaveTextContent('QB');
  });

  it("'Selected only' shows just the picks, and says how to get the board back when there are none", async () => {
    const { user } = render();
    const toggle = screen.getByRole('button', { name: 'Selected only' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText("You haven't selected anyone yet. Turn off 'Selected only' to see the whole board.")).toBeInTheDocument();
    await user.click(toggle);
    await user.click(player('Mason Graham'));
    await user.click(toggle);
    const rows = within(screen.getByRole('list', { name: 'Players' })).getAllByRole('button');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Mason Graham');
  });

  it('keeps taps made before the saved picks arrive, on top of them', async () => {
    const { user, rerender } = render({ saved: undefined, initial: undefined });
    await user.click(player('Player 12'));
    rerender(<Editor saved={[1, 2]} />);
    await waitFor(() => expect(count()).toBe('3'));
    expect(player('Player 12')).toHaveAttribute('aria-pressed', 'true');
    expect(player('Cam Ward')).toHaveAttribute('aria-pressed', 'true');
  });
});

describe('PicksEditor: unsaved changes', () => {
  it("says 'Unsaved changes' once the selection differs from the saved picks, and Discard puts them back", async () => {
    const { user } = render({ saved: [1, 2] });
    await waitFor(() => expect(count()).toBe('2'));
    expect(screen.queryByText('Unsaved changes')).toBeNull();
    await user.click(player('Abdul Carter'));
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(KEY)!)).toEqual([1, 2, 3]);
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.queryByText('Unsaved changes')).toBeNull();
    expect(count()).toBe('2');
    expect(player('Abdul Carter')).toHaveAttribute('aria-pressed', 'false');
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('a selection left unsaved on this device comes back when the screen opens again', async () => {
    localStorage.setItem(KEY, JSON.stringify([4, 6, 8]));
    render({ saved: [1] });
    await waitFor(() => expect(count()).toBe('3'));
    expect(player('Will Campbell')).toHaveAttribute('aria-pressed', 'true');
    expect(player('Cam Ward')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
  });

  it('undoing every change is no longer unsaved, and nothing is kept on the device', async () => {
    const { user } = render({ saved: [1] });
    await waitFor(() => expect(count()).toBe('1'));
    await user.click(player('Travis Hunter'));
    expect(localStorage.getItem(KEY)).not.toBeNull();
    await user.click(player('Travis Hunter'));
    expect(screen.queryByText('Unsaved changes')).toBeNull();
    expect(localStorage.getItem(KEY)).toBeNull();
  });
});

describe('PicksEditor: saving', () => {
  it('sends the selection, shows it saving, then says what was saved and goes to My Picks', async () => {
    const answer = deferred<{ success: boolean; picks: number[]; group_id: number }>();
    const server = new FakeServer({ picks: { save: () => answer.promise } });
    const { user } = render({}, server);
    await user.click(player('Cam Ward'));
    await user.click(player('Player 11'));
    const save = saveButton();
    await user.click(save);
    await waitFor(() => expect(save).toBeDisabled());
    expect(save).toHaveAttribute('data-loading');
    expect(server.inputsTo('picks.save')).toEqual([{ picks: [1, 11] }]);
    expect(currentPath()).toBe('/select-players');
    answer.resolve({ success: true, picks: [1, 11], group_id: 1 });
    expect(await screen.findByText('Picks saved')).toBeInTheDocument();
    expect(screen.getByText('2 players saved. You can change your picks until they lock. Riskiest pick: Player 11 (#11).')).toBeInTheDocument();
    await waitFor(() => expect(currentPath()).toBe('/my-picks'));
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it("saves a group's own picks with the group's id", async () => {
    const { user, server } = render({ groupId: 12, saved: [3], storageKey: null });
    await waitFor(() => expect(count()).toBe('1'));
    await user.click(player('Cam Ward'));
    await user.click(saveButton());
    await waitFor(() => expect(currentPath()).toBe('/my-picks'));
    expect(server.inputsTo('picks.save')).toEqual([{ picks: [3, 1], group_id: 12 }]);
  });

  it('a failed save says so and keeps the selection and the screen', async () => {
    const server = new FakeServer({ picks: { save: () => Promise.reject(new Refusal('INTERNAL', 'boom')) } });
    const { user } = render({ saved: [1] }, server);
    await waitFor(() => expect(count()).toBe('1'));
    await user.click(player('Travis Hunter'));
    await user.click(saveButton());
    expect(await screen.findByText(MESSAGES.savePicksFailed)).toBeInTheDocument();
    expect(currentPath()).toBe('/select-players');
    expect(count()).toBe('2');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    expect(saveButton()).toBeEnabled();
  });

  it('a save the server refuses for its size says Too Many Picks', async () => {
    const server = new FakeServer({ picks: { save: () => Promise.reject(new Refusal('INVALID_INPUT', MESSAGES.picksCountOutOfRange)) } });
    const { user } = render({}, server);
    await user.click(player('Cam Ward'));
    await user.click(saveButton());
    expect(await screen.findByText(MESSAGES.tooManyPicks)).toBeInTheDocument();
    expect(currentPath()).toBe('/select-players');
  });
});

describe('Leaving with unsaved changes (the navigation guard)', () => {
  it('asks before leaving; Cancel stays with the selection, Leave goes', async () => {
    const { user } = render({ saved: [1] });
    await waitFor(() => expect(count()).toBe('1'));
    await user.click(player('Travis Hunter'));
    await user.click(screen.getByRole('link', { name: 'Leaderboard' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    expect(dialog).toHaveTextContent("Your changes to My Picks are not saved, so they don't count yet.");
    expect(currentPath()).toBe('/select-players');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(currentPath()).toBe('/select-players');
    expect(count()).toBe('2');

    await user.click(screen.getByRole('link', { name: 'Leaderboard' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(currentPath()).toBe('/leaderboard'));
    expect(screen.getByText('Another screen')).toBeInTheDocument();
    // What was not saved stays on the device, to save or discard later.
    expect(JSON.parse(localStorage.getItem(KEY)!)).toEqual([1, 2]);
  });

  it('leaves without asking when nothing is unsaved', async () => {
    const { user } = render({ saved: [1] });
    await waitFor(() => expect(count()).toBe('1'));
    await user.click(screen.getByRole('link', { name: 'Leaderboard' }));
    await waitFor(() => expect(currentPath()).toBe('/leaderboard'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it("a save's own move to My Picks is not asked about", async () => {
    const { user } = render({ saved: [1] });
    await waitFor(() => expect(count()).toBe('1'));
    await user.click(player('Travis Hunter'));
    await user.click(saveButton());
    await waitFor(() => expect(currentPath()).toBe('/my-picks'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('closing or reloading the tab asks through the browser only while changes are unsaved', async () => {
    const { user } = render({ saved: [1] });
    await waitFor(() => expect(count()).toBe('1'));
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await user.click(player('Travis Hunter'));
    expect(unload()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(unload()).toBe(false);
  });

  it('Back in the browser with unsaved changes asks too: staying keeps the screen, leaving goes back', async () => {
    const { user } = renderApp(<Editor saved={[1]} />, { server: saving(), route: '/select-players', from: '/leaderboard' });
    await waitFor(() => expect(count()).toBe('1'));
    await user.click(player('Travis Hunter'));
    window.history.back();
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    expect(currentPath()).toBe('/select-players');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(window.location.pathname).toBe('/select-players');
    expect(count()).toBe('2');

    window.history.back();
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(currentPath()).toBe('/leaderboard'));
    expect(window.location.pathname).toBe('/leaderboard');
  });
});
