import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import type { LeaderboardInput, LeaderboardRow } from '@first-round/shared/schemas';
import { FakeServer, Refusal } from '../test/fake-server';
import { draftStatus, manyRows, row, standingsPage } from '../test/fixtures';
import { renderApp } from '../test/render';
import { StandingsBoard } from './standings-board';
import { StandingsTable } from './standings-table';

const GROUP = 7;

/** A fake server holding `rows` (the caller's is `me`) in the given draft phase. */
function standings(rows: LeaderboardRow[], { me = null as string | null, phase = 'live' as 'before' | 'live' | 'final' } = {}) {
  return new FakeServer({
    draft: { status: () => draftStatus(phase, 5) },
    leaderboard: { group: (input) => standingsPage(rows, me, input as LeaderboardInput, { started: phase !== 'before' }) },
  });
}

const requests = (server: FakeServer) => server.inputsTo('leaderboard.group') as LeaderboardInput[];
const list = (label = 'Rankings') => within(screen.getByRole('list', { name: label }));
const names = (label = 'Rankings') => list(label).queryAllByRole('listitem').map((li) => li.querySelector('p:not([aria-label])')?.textContent);
const rowOf = (name: string, label = 'Rankings') => list(label).getByText(name).closest('li')!;
const pager = (label = 'Pages of the standings') => within(screen.getByRole('navigation', { name: label }));
/** Waits until the pager says which rows show ('11–20 of 25'). */
const pagerShows = (text: string) => waitFor(() => expect(screen.getByRole('navigation', { name: 'Pages of the standings' })).toHaveTextContent(text));

describe('StandingsBoard: what the rows say', () => {
  it('shows the rows in rank order with hits, pending picks and the summary line', async () => {
    const rows = [row(1, 'Ann', { hits: 4 }), row(2, 'Bob', { hits: 3 }), row(3, 'Cy', { hits: 2, busted: true })];
    renderApp(<StandingsBoard groupId={GROUP} />, { server: standings(rows) });
    expect(screen.getByText('Loading the leaderboard...')).toBeInTheDocument();
    expect(await screen.findByText('3 entries · 2 still alive')).toBeInTheDocument();
    const items = list().getAllByRole('listitem');
    expect(items.map((li) => within(li).getByLabelText(/^Rank /).textContent)).toEqual(['1', '2', '3']);
    expect(within(items[0]!).getByText('Ann')).toBeInTheDocument();
    expect(within(items[0]!).getByLabelText('4 correct picks')).toBeInTheDocument();
    expect(within(items[1]!).getByLabelText('7 picks pending')).toBeInTheDocument();
  });

  it("says each entry's odds in words while round one runs, and none where the server sends none", async () => {
    const rows = [
      row(1, 'Ann', { hits: 4, odds: { survive: 0.37, win: 0.12, text: '37 % to survive · 12 % to win' } }),
      row(2, 'Bob', { hits: 3, odds: { survive: 0.004, win: 0, text: '<1 % to survive · 0 % to win' } }),
      row(3, 'Cy', { hits: 2, busted: true }),
    ];
    renderApp(<StandingsBoard groupId={GROUP} />, { server: standings(rows) });
    await screen.findByText('Ann');
    expect(within(rowOf('Ann')).getByTestId('entry-odds')).toHaveTextContent('37 % to survive · 12 % to win');
    expect(within(rowOf('Bob')).getByTestId('entry-odds')).toHaveTextContent('<1 % to survive · 0 % to win');
    expect(within(rowOf('Cy')).queryByTestId('entry-odds')).toBeNull();
    expect(list().getAllByTestId('entry-odds')).toHaveLength(2);
  });

  it("the global board: each row's odds among every global entry, and the pinned entry's own wherever it ranks; none once final", async () => {
    const odds = (survive: number, win: number, text: string) => ({ survive, win, text });
    const rows = [
      row(1, 'Ann', { hits: 4, odds: odds(1, 0.62, '100 % to survive · 62 % to win') }),
      row(2, 'Bob', { hits: 3, odds: odds(0.4, 0.38, '40 % to survive · 38 % to win') }),
      ...manyRows(120, 3),
      row(123, 'Me Myself', { hits: 1, id: 'me', odds: odds(0.05, 0, '5 % to survive · 0 % to win') }),
    ];
    renderApp(<StandingsBoard groupId={GLOBAL_GROUP_ID} />, { server: standings(rows, { me: 'me' }) });
    await screen.findByText('Ann');
    expect(within(rowOf('Ann')).getByTestId('entry-odds')).toHaveTextContent('100 % to survive · 62 % to win');
    expect(within(rowOf('Bob')).getByTestId('entry-odds')).toHaveTextContent('40 % to survive · 38 % to win');
    // The caller's row is on page 2: the pinned entry says its odds.
    expect(list().queryByText('Me Myself')).toBeNull();
    const pinned = within(screen.getByRole('region', { name: 'Your entry' }));
    expect(pinned.getByTestId('entry-odds')).toHaveTextContent('5 % to survive · 0 % to win');
  });

  it('the pinned entry says no odds once round one is complete (the server sends none)', async () => {
    const rows = [row(1, 'Ann', { hits: 4 }), row(2, 'Me Myself', { hits: 1, id: 'me' })];
    renderApp(<StandingsBoard groupId={GLOBAL_GROUP_ID} />, { server: standings(rows, { me: 'me', phase: 'final' }) });
    const pinned = within(await screen.findByRole('region', { name: 'Your entry' }));
    expect(pinned.getByText('Me Myself')).toBeInTheDocument();
    expect(screen.queryAllByTestId('entry-odds')).toEqual([]);
  });

  it('gives tied entries the same rank, as the server ranks them, with the tie-break in words', async () => {
    const rows = [row(1, 'Ann', { hits: 3, tiebreak: 40 }), row(1, 'Bea', { hits: 3, tiebreak: 40 }), row(3, 'Cy', { hits: 3, tiebreak: 12 })];
    renderApp(<StandingsBoard groupId={GROUP} />, { server: standings(rows) });
    await screen.findByText('Ann');
    expect(within(rowOf('Ann')).getByLabelText('Rank 1')).toBeInTheDocument();
    expect(within(rowOf('Bea')).getByLabelText('Rank 1')).toBeInTheDocument();
    expect(within(rowOf('Cy')).getByLabelText('Rank 3')).toBeInTheDocument();
    expect(within(rowOf('Cy')).getByText('Tie-break: boldest hit, #12 on the board')).toBeInTheDocument();
  });

  it('marks a busted entry in words: the Busted badge, no pending picks and no chance to win', async () => {
    const rows = [row(1, 'Ann', { hits: 2 }), row(2, 'Zed', { hits: 1, busted: true })];
    renderApp(<StandingsBoard groupId={GROUP} />, { server: standings(rows) });
    const zed = within(rowOf(await screen.findByText('Zed').then(() => 'Zed')));
    expect(zed.getByText('Busted')).toBeInTheDocument();
    expect(zed.getByLabelText('No pending picks: busted')).toHaveTextContent('–');
    // One number for a busted entry, the hits it had (as My Picks and the share card say), with why it busted.
    expect(zed.getByLabelText('Busted: score 0, had 1 hit')).toHaveTextContent('–');
    expect(zed.getByText('had 1 hit · 1 pick was not drafted in round one')).toBeInTheDocument();
    expect(zed.queryByText('Can still win')).toBeNull();
    expect(within(rowOf('Ann')).getByText('Alive')).toBeInTheDocument();
    expect(within(rowOf('Ann')).getByText('Can still win')).toBeInTheDocument();
  });

  it('explains a bust by the slots left while round one runs: more picks pending than slots left', async () => {
    // 5 slots filled: 27 left; Yan had 2 hits and 28 picks still pending.
    const rows = [row(1, 'Ann', { hits: 2 }), row(2, 'Yan', { hits: 2, picks: 30, busted: true, misses: 0 })];
    renderApp(<StandingsBoard groupId={GROUP} />, { server: standings(rows) });
    const yan = within(rowOf(await screen.findByText('Yan').then(() => 'Yan')));
    expect(yan.getByText('had 2 hits · 28 picks still pending, only 27 slots left in round one')).toBeInTheDocument();
    expect(screen.getByTestId('bust-rule')).toHaveTextContent('more picks were undrafted than round-one slots left');
  });

  it('the pinned entry follows the draft from live to final (the same hooks either way): Busted, and what it had', async () => {
    let phase: 'live' | 'final' = 'live';
    const rows = [row(1, 'Ann', { hits: 1, picks: 1 }), row(2, 'Me Myself', { busted: true, hits: 1, picks: 3, misses: 1, id: 'me' })];
    const server = new FakeServer({
      draft: { status: () => draftStatus(phase, 5) },
      leaderboard: { group: (input) => standingsPage(rows, 'me', input as LeaderboardInput) },
    });
    const { queryClient } = renderApp(<StandingsBoard groupId={GROUP} />, { server });
    const pinned = within(await screen.findByRole('region', { name: 'Your entry' }));
    expect(pinned.getByText('had 1 hit · 1 pick was not drafted in round one')).toBeInTheDocument();
    phase = 'final';
    await queryClient.invalidateQueries();
    await waitFor(() => expect(screen.getByText('2 entries · 1 survived round one')).toBeInTheDocument());
    expect(within(screen.getByRole('region', { name: 'Your entry' })).getByText('Busted', { exact: true })).toBeInTheDocument();
  });

  it('pins the caller’s entry on top and highlights their row with You', async () => {
    const rows = [row(1, 'Ann', { hits: 3, tiebreak: 30 }), row(2, 'Me Myself', { hits: 2, picks: 3, id: 'me' })];
    renderApp(<StandingsBoard groupId={GROUP} />, { server: standings(rows, { me: 'me' }) });
    const pinned = within(await screen.findByRole('region', { name: 'Your entry' }));
    expect(pinned.getByLabelText('Rank 2')).toHaveTextContent('#2');
    expect(pinned.getByText('2 hits · 1 pending')).toBeInTheDocument();
    expect(pinned.getByText('Can still win')).toBeInTheDocument();
    const mine = rowOf('Me Myself');
    expect(mine).toHaveAttribute('aria-current', 'true');
    expect(within(mine).getByText('You')).toBeInTheDocument();
    expect(rowOf('Ann')).not.toHaveAttribute('aria-current');
  });

  it('says the results once round one is final: Winner, Survived with the hits, no pending', async () => {
    const rows = [row(1, 'Ann', { hits: 5, picks: 5 }), row(2, 'Bob', { hits: 3, picks: 3 }), row(3, 'Cy', { busted: true })];
    renderApp(<StandingsBoard groupId={GROUP} />, { server: standings(rows, { phase: 'final' }) });
    expect(await screen.findByText('3 entries · 2 survived round one')).toBeInTheDocument();
    expect(within(rowOf('Ann')).getByText('Winner')).toBeInTheDocument();
    expect(within(rowOf('Bob')).getByText('Survived · 3 hits')).toBeInTheDocument();
    expect(within(rowOf('Cy')).getByText('Busted')).toBeInTheDocument();
    expect(screen.queryByText('Can still win')).toBeNull();
  });

  it('calls a first place shared by two entries Shared winner', async () => {
    const rows = [row(1, 'Ann', { hits: 5, picks: 5 }), row(1, 'Bea', { hits: 5, picks: 5 }), row(3, 'Cy', { hits: 2, picks: 2 })];
    renderApp(<StandingsBoard groupId={GROUP} />, { server: standings(rows, { phase: 'final' }) });
    await screen.findByText('Ann');
    expect(within(rowOf('Ann')).getByText('Shared winner')).toBeInTheDocument();
    expect(within(rowOf('Bea')).getByText('Shared winner')).toBeInTheDocument();
  });
});

describe('StandingsBoard: the tie-break explained', () => {
  it('opens on hover and closes when the pointer leaves; a tap pins it until Escape', async () => {
    const { user } = renderApp(<StandingsBoard groupId={GROUP} />, { server: standings([row(1, 'Ann')]) });
    const tip = await screen.findByRole('button', { name: 'Tie-break: boldest hit (what it means)' });
    const text = document.getElementById(tip.getAttribute('aria-describedby')!)!;
    expect(text).toHaveAttribute('role', 'tooltip');
    expect(text).not.toBeVisible();
    await user.hover(tip);
    expect(text).toBeVisible();
    expect(text).toHaveTextContent(/A tie goes to the bolder entry/);
    await user.unhover(tip);
    expect(text).not.toBeVisible();
    await user.click(tip);
    expect(text).toBeVisible();
    await user.keyboard('{Escape}');
    expect(text).not.toBeVisible();
  });
});

describe('StandingsBoard: states', () => {
  it('before the start it says when the standings open, with no rows', async () => {
    renderApp(<StandingsBoard groupId={GROUP} />, { server: standings([], { phase: 'before' }) });
    expect(await screen.findByText(MESSAGES.leaderboardBeforeStart)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Rankings' })).toBeNull();
  });

  it('with nobody’s picks in, it says so', async () => {
    renderApp(<StandingsBoard groupId={GROUP} />, { server: standings([]) });
    expect(await screen.findByText(MESSAGES.leaderboardEmpty)).toBeInTheDocument();
  });

  it('a failed load says so with Retry, and Retry loads the standings', async () => {
    const server = standings([row(1, 'Ann')]);
    server.answer({ leaderboard: { group: () => Promise.reject(new Refusal('NOT_FOUND', 'Group not found')) } });
    const { user } = renderApp(<StandingsBoard groupId={GROUP} />, { server });
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.leaderboardLoadFailed);
    server.answer({ leaderboard: { group: (input) => standingsPage([row(1, 'Ann')], null, input as LeaderboardInput) } });
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Ann')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('opens a row with details onto its panel, and closes it again', async () => {
    const details = { hint: (r: LeaderboardRow, open: boolean) => `${open ? 'Hide' : 'Show'} ${r.participant_name}’s picks`, panel: (r: LeaderboardRow) => <p>Picks of {r.participant_name}</p> };
    const { user } = renderApp(<StandingsBoard groupId={GROUP} details={details} variant="group" />, { server: standings([row(1, 'Ann'), row(2, 'Bob')]) });
    // Named by what the row shows (its name among it), then the hint a screen reader hears after it.
    const button = await screen.findByRole('button', { name: /Ann.*Show Ann’s picks$/ });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('Picks of Ann')).toBeNull();
    await user.click(button);
    expect(screen.getByText('Picks of Ann')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Ann.*Hide Ann’s picks$/ })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.queryByText('Picks of Bob')).toBeNull();
    await user.click(screen.getByRole('button', { name: /Ann.*Hide Ann’s picks$/ }));
    expect(screen.queryByText('Picks of Ann')).toBeNull();
  });
});

describe('StandingsBoard: pages, search and the busted fold', () => {
  it("says 'Clinched 1st' on a board read a page at a time: on the leader's row, and on the leader's own entry from another page", async () => {
    // Ann is settled at 5 hits; the 24 others are alive with 3 picks at most: none can still finish first.
    const others = Array.from({ length: 24 }, (_, i) => row(i + 2, `Player ${i + 2}`, { hits: 1, picks: 3, canWin: false }));
    const rows = [row(1, 'Ann', { hits: 5, picks: 5, id: 'me' }), ...others];
    const { user } = renderApp(<StandingsBoard groupId={GROUP} pageSize={10} />, { server: standings(rows, { me: 'me' }) });
    await pagerShows('1–10 of 25');
    expect(within(rowOf('Ann')).getByText('Clinched 1st')).toBeInTheDocument();
    await user.click(pager().getByRole('button', { name: 'Next' }));
    await pagerShows('11–20 of 25');
    expect(within(screen.getByRole('region', { name: 'Your entry' })).getByText('Clinched 1st')).toBeInTheDocument();
  });

  it('reads a page at a time: Previous and Next ask for the next page and say which rows show', async () => {
    const { user, server } = renderApp(<StandingsBoard groupId={GROUP} pageSize={10} />, { server: standings(manyRows(25)) });
    await pagerShows('1–10 of 25');
    expect(pager().getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(names()).toHaveLength(10);
    await user.click(pager().getByRole('button', { name: 'Next' }));
    await pagerShows('11–20 of 25');
    expect(requests(server).at(-1)).toMatchObject({ group_id: GROUP, limit: 10, offset: 10 });
    await waitFor(() => expect(names()[0]).toBe('Player 11'));
    await user.click(pager().getByRole('button', { name: 'Next' }));
    await pagerShows('21–25 of 25');
    expect(pager().getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(pager().getByRole('button', { name: 'Previous' }));
    await pagerShows('11–20 of 25');
  });

  it('shows no pager when everything fits on one page', async () => {
    renderApp(<StandingsBoard groupId={GROUP} pageSize={10} />, { server: standings(manyRows(10)) });
    await screen.findByText('Player 10');
    expect(screen.queryByRole('navigation', { name: 'Pages of the standings' })).toBeNull();
  });

  it('searches the whole standings by name and says how many match; clearing brings the board back', async () => {
    const rows = [...manyRows(12), row(13, 'Zebra Zed', { busted: true })];
    const { user, server } = renderApp(<StandingsBoard groupId={GROUP} pageSize={10} />, { server: standings(rows) });
    await pagerShows('1–10 of 13');
    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'zebra');
    expect(await screen.findByText('1 match for “zebra”')).toBeInTheDocument();
    expect(names()).toEqual(['Zebra Zed']);
    expect(requests(server).at(-1)).toMatchObject({ search: 'zebra', offset: 0 });
    // The rows stay, the benchmarks and pager go while searching.
    expect(screen.queryByRole('navigation', { name: 'Pages of the standings' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Clear the search' }));
    await pagerShows('1–10 of 13');
    expect(screen.getByRole('searchbox', { name: 'Search by name' })).toHaveValue('');
    expect(names()).toHaveLength(10);
    expect(list().queryByText('Zebra Zed')).toBeNull();
  });

  it('says when no one matches the search', async () => {
    const { user } = renderApp(<StandingsBoard groupId={GROUP} />, { server: standings([row(1, 'Ann')]) });
    await screen.findByText('Ann');
    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'nobody');
    expect(await screen.findByText('No one named “nobody” in these standings.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Rankings' })).toBeNull();
  });

  it('a search typed on page two starts from the first page of its matches', async () => {
    const { user, server } = renderApp(<StandingsBoard groupId={GROUP} pageSize={10} />, { server: standings(manyRows(30)) });
    await pagerShows('1–10 of 30');
    await user.click(pager().getByRole('button', { name: 'Next' }));
    await pagerShows('11–20 of 30');
    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'Player 2');
    // 'Player 2' and 'Player 20'–'Player 29': 11 matches, shown from the first.
    expect(await screen.findByText('11 matches for “Player 2”')).toBeInTheDocument();
    await pagerShows('1–10 of 11');
    expect(requests(server).at(-1)).toMatchObject({ search: 'Player 2', offset: 0 });
  });

  it('folds the busted entries away once they outnumber the alive ones, and opens them on demand', async () => {
    const rows = [...manyRows(2), ...manyRows(3, 3, true)];
    const { user, server } = renderApp(<StandingsBoard groupId={GROUP} />, { server: standings(rows) });
    const fold = await screen.findByRole('button', { name: /Busted \(3\)/ });
    expect(fold).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(requests(server).at(-1)).toMatchObject({ status: 'alive' }));
    expect(names()).toEqual(['Player 1', 'Player 2']);
    expect(screen.queryByRole('list', { name: 'Busted entries' })).toBeNull();
    await user.click(fold);
    expect(fold).toHaveAttribute('aria-expanded', 'true');
    await screen.findByRole('list', { name: 'Busted entries' });
    expect(names('Busted entries')).toEqual(['Player 3', 'Player 4', 'Player 5']);
    expect(requests(server).at(-1)).toMatchObject({ status: 'busted', offset: 0 });
    await user.click(fold);
    expect(screen.queryByRole('list', { name: 'Busted entries' })).toBeNull();
  });

  it('never shows a busted row among the alive ones, even before the folded answer arrives', async () => {
    const rows = [row(1, 'Ann', { hits: 2 }), row(2, 'Bo', { busted: true }), row(3, 'Cy', { busted: true })];
    renderApp(<StandingsBoard groupId={GROUP} />, { server: standings(rows) });
    // The first answer (every entry) already has the counts that fold the board: its busted rows are left out.
    await screen.findByText('Ann');
    expect(names()).toEqual(['Ann']);
    await screen.findByRole('button', { name: /Busted \(2\)/ });
    expect(names()).toEqual(['Ann']);
  });

  it('keeps the busted entries in the list while fewer than the alive ones', async () => {
    const rows = [...manyRows(3), row(4, 'Zed', { busted: true })];
    renderApp(<StandingsBoard groupId={GROUP} />, { server: standings(rows) });
    await screen.findByText('Zed');
    expect(screen.queryByRole('button', { name: /Busted \(/ })).toBeNull();
    expect(names()).toHaveLength(4);
  });

  it('Jump to me loads the page holding the caller’s row and focuses it', async () => {
    const rows = manyRows(25).map((r, i) => (i === 16 ? { ...r, participant_id: 'me', participant_name: 'Me Myself' } : r));
    const { user, server } = renderApp(<StandingsBoard groupId={GROUP} pageSize={10} />, { server: standings(rows, { me: 'me' }) });
    await pagerShows('1–10 of 25');
    expect(list().queryByText('Me Myself')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Jump to me' }));
    await pagerShows('11–20 of 25');
    expect(requests(server).at(-1)).toMatchObject({ offset: 10 });
    const mine = rowOf('Me Myself');
    expect(mine).toHaveAttribute('aria-current', 'true');
    await waitFor(() => expect(mine).toHaveFocus());
  });

  it('Jump to me from a search clears it and finds the caller among the busted entries once folded', async () => {
    const rows = [row(1, 'Ann', { hits: 2 }), row(2, 'Bo', { busted: true }), row(3, 'Me Myself', { busted: true, id: 'me' })];
    const { user } = renderApp(<StandingsBoard groupId={GROUP} />, { server: standings(rows, { me: 'me' }) });
    await screen.findByRole('button', { name: /Busted \(2\)/ });
    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'ann');
    await screen.findByText('1 match for “ann”');
    await user.click(screen.getByRole('button', { name: 'Jump to me' }));
    await screen.findByRole('list', { name: 'Busted entries' });
    expect(screen.getByRole('searchbox', { name: 'Search by name' })).toHaveValue('');
    const mine = rowOf('Me Myself', 'Busted entries');
    await waitFor(() => expect(mine).toHaveFocus());
    expect(within(mine).getByLabelText('No pending picks: busted')).toBeInTheDocument();
  });

  it('a page that no longer exists (the list shrank) falls back to the last page there is', async () => {
    let rows = manyRows(25);
    const server = new FakeServer({
      draft: { status: () => draftStatus('live', 5) },
      leaderboard: { group: (input) => standingsPage(rows, null, input as LeaderboardInput) },
    });
    const { user, queryClient } = renderApp(<StandingsBoard groupId={GROUP} pageSize={10} />, { server });
    await pagerShows('1–10 of 25');
    await user.click(pager().getByRole('button', { name: 'Next' }));
    await pagerShows('11–20 of 25');
    await user.click(pager().getByRole('button', { name: 'Next' }));
    await pagerShows('21–25 of 25');
    rows = manyRows(15);
    await queryClient.invalidateQueries();
    await pagerShows('11–15 of 15');
    expect(names()).toEqual(['Player 11', 'Player 12', 'Player 13', 'Player 14', 'Player 15']);
  });
});

describe('StandingsTable', () => {
  it('shows the caller below the rows as You: #rank when their row is on another page', async () => {
    const me = row(1234, 'Me Myself', { hits: 1, picks: 4, id: 'me' });
    renderApp(<StandingsTable rows={[row(1, 'Ann', { hits: 3 }), row(2, 'Bob', { hits: 2 })]} me={me} />, { server: { draft: { status: () => draftStatus('live', 3) } } });
    const own = within(screen.getByRole('group', { name: 'Your entry' }));
    expect(own.getByText('You: #1234')).toBeInTheDocument();
    expect(own.getByText('Me Myself')).toBeInTheDocument();
    expect(own.getByLabelText('3 picks pending')).toBeInTheDocument();
    expect(names()).toEqual(['Ann', 'Bob']);
  });

  it('shows no extra row when the caller’s row is among the rows, and highlights it there', async () => {
    const me = row(2, 'Me Myself', { id: 'me' });
    renderApp(<StandingsTable rows={[row(1, 'Ann'), me]} me={me} />, { server: { draft: { status: () => draftStatus('live', 3) } } });
    expect(screen.queryByRole('group', { name: 'Your entry' })).toBeNull();
    expect(rowOf('Me Myself')).toHaveAttribute('aria-current', 'true');
  });

  it('shows the rise and fall of each row since the previous pick as the draft moves on', async () => {
    let picks = 3;
    const server = new FakeServer({ draft: { status: () => draftStatus('live', picks) } });
    const rows = [row(1, 'Ann'), row(2, 'Bob'), row(3, 'Cy')];
    const { rerender, queryClient } = renderApp(<StandingsTable rows={rows} me={null} />, { server });
    await waitFor(() => expect(server.inputsTo('draft.status')).toHaveLength(1));
    expect(screen.queryByText(/moved (up|down)/)).toBeNull();
    picks = 4;
    await queryClient.invalidateQueries();
    await waitFor(() => expect(server.inputsTo('draft.status')).toHaveLength(2));
    rerender(<StandingsTable rows={[row(1, 'Cy'), row(2, 'Ann'), row(3, 'Bob')]} me={null} />);
    await waitFor(() => expect(within(rowOf('Cy')).getByText(/Up 2/)).toBeInTheDocument());
    expect(within(rowOf('Ann')).getByText(/Down 1/)).toBeInTheDocument();
  });
});
