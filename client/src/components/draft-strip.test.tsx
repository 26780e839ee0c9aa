import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { TEAM_ABBREVIATIONS } from '@first-round/shared/teams';
import type { LeaderboardInput } from '@first-round/shared/schemas';
import { FakeServer } from '../test/fake-server';
import { board, draftStatus, row, standingsPage } from '../test/fixtures';
import { renderApp } from '../test/render';
import { trpc } from '../lib/trpc';
import { DraftStateBanner, LiveStrip } from './draft-strip';

/** Round one with `picks` slots filled, slot n taking player n; the caller's entry holds `mine`. */
function liveServer({ picks = 3, mine = [] as number[], shares = {} as Record<number, number>, phase = 'live' as 'before' | 'live' | 'final' } = {}) {
  const drafted = Object.fromEntries(Array.from({ length: picks }, (_, i) => [i + 1, i + 1]));
  return new FakeServer({
    draft: { status: () => draftStatus(phase, picks) },
    players: { list: () => board(40, drafted) },
    picks: { mine: (input) => ({ picks: mine, group_id: input?.group_id ?? 1, use_global_picks: true, odds: null }) },
    leaderboard: {
      field: () => Object.entries(shares).map(([id, share]) => ({ player_id: Number(id), player_name: `Player ${id}`, picked_by: 1, entries: 10, share })),
    },
  });
}

const strip = () => screen.findByRole('region', { name: 'Draft live' });
const headline = async () => within(await strip()).getByRole('status');
const team = (slot: number) => TEAM_ABBREVIATIONS[slot - 1]!;

describe('the live strip', () => {
  it('leads with the latest pick: its slot, the team that made it and the player', async () => {
    renderApp(<LiveStrip />, { server: liveServer(), route: '/leaderboard' });
    const status = await headline();
    expect(status).toHaveTextContent(`LIVE Pick 3 · ${team(3)} · Abdul Carter, EDGE, School 3`);
    expect(within(status).getByText(team(3))).toHaveAttribute('title');
  });

  it('lists the picks before it, newest first, in the ticker', async () => {
    renderApp(<LiveStrip />, { server: liveServer({ picks: 4 }), route: '/my-picks' });
    const ticker = within(await strip()).getByRole('list', { name: 'Earlier picks' });
    expect(within(ticker).getAllByRole('listitem').map((li) => li.textContent)).toEqual([`Pick 3 · ${team(3)} · Abdul Carter, EDGE`, `Pick 2 · ${team(2)} · Travis Hunter, CB`, `Pick 1 · ${team(1)} · Cam Ward, QB`]);
  });

  it('keeps the ticker to the five picks before the latest', async () => {
    renderApp(<LiveStrip />, { server: liveServer({ picks: 9 }), route: '/my-picks' });
    const ticker = within(await strip()).getByRole('list', { name: 'Earlier picks' });
    expect(within(ticker).getAllByRole('listitem').map((li) => li.textContent?.split(' · ')[0])).toEqual(['Pick 8', 'Pick 7', 'Pick 6', 'Pick 5', 'Pick 4']);
  });

  it("marks a pick in the caller's entry: 'your entry ✓' on the latest, ✓ in the ticker", async () => {
    renderApp(<LiveStrip />, { server: liveServer({ picks: 3, mine: [1, 3] }), route: '/leaderboard' });
    await waitFor(async () => expect(await headline()).toHaveTextContent('your entry ✓'));
    const ticker = within(await strip()).getByRole('list', { name: 'Earlier picks' });
    const [second, first] = within(ticker).getAllByRole('listitem');
    expect(first).toHaveTextContent('✓ your entry');
    expect(second).not.toHaveTextContent('✓');
  });

  it("says how many of all entries had the latest pick once the field is read (0 % for a player nobody had)", async () => {
    const { unmount } = renderApp(<LiveStrip />, { server: liveServer({ picks: 2, shares: { 2: 0.41 } }), route: '/leaderboard' });
    await waitFor(async () => expect(await headline()).toHaveTextContent('· 41 % of all entries'));
    unmount();
    renderApp(<LiveStrip />, { server: liveServer({ picks: 3, shares: { 2: 0.41 } }), route: '/leaderboard' });
    await waitFor(async () => expect(await headline()).toHaveTextContent('· 0 % of all entries'));
  });

  it('before the first pick says the draft has started and who is on the clock', async () => {
    renderApp(<LiveStrip />, { server: liveServer({ picks: 0 }), route: '/groups' });
    expect(await headline()).toHaveTextContent(`LIVE The draft has started · Pick 1 · ${team(1)} on the clock`);
    expect(screen.queryByRole('list', { name: 'Earlier picks' })).toBeNull();
  });

  it('follows the draft: a new pick takes the lead and the one before joins the ticker', async () => {
    let picks = 2;
    const server = liveServer({ picks: 2 }).answer({
      draft: { status: () => draftStatus('live', picks) },
      players: { list: () => board(40, Object.fromEntries(Array.from({ length: picks }, (_, i) => [i + 1, i + 1]))) },
    });
    const { queryClient } = renderApp(<LiveStrip />, { server, route: '/leaderboard' });
    expect(await headline()).toHaveTextContent('Pick 2');
    picks = 3;
    await queryClient.invalidateQueries();
    await waitFor(async () => expect(await headline()).toHaveTextContent(`Pick 3 · ${team(3)} · Abdul Carter`));
    const ticker = within(await strip()).getByRole('list', { name: 'Earlier picks' });
    expect(within(ticker).getAllByRole('listitem')[0]).toHaveTextContent('Pick 2');
  });

  it('is not shown before the start, once round one is over, or on pages that are not the game’s tabs', async () => {
    const before = renderApp(<LiveStrip />, { server: liveServer({ phase: 'before', picks: 0 }), route: '/leaderboard' });
    await waitFor(() => expect(before.server.inputsTo('draft.status')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Draft live' })).toBeNull();
    before.unmount();
    const settings = renderApp(<LiveStrip />, { server: liveServer(), route: '/settings' });
    await waitFor(() => expect(settings.server.inputsTo('draft.status')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Draft live' })).toBeNull();
    expect(settings.server.inputsTo('players.list')).toEqual([]);
    settings.unmount();
    const final = renderApp(<LiveStrip />, { server: liveServer({ phase: 'final' }), route: '/leaderboard' });
    await waitFor(() => expect(final.server.inputsTo('draft.status')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Draft live' })).toBeNull();
  });

  it("on a group's page speaks of the caller's entry in that group, as the page read it", async () => {
    function GroupPage() {
      trpc.picks.mine.useQuery({ group_id: 4 });
      return <LiveStrip />;
    }
    const server = liveServer({ picks: 3, mine: [] }).answer({ picks: { mine: (input) => ({ picks: input?.group_id === 4 ? [3] : [], group_id: input?.group_id ?? 1, use_global_picks: false, odds: null }) } });
    renderApp(<GroupPage />, { server, route: '/groups/4' });
    await waitFor(async () => expect(await headline()).toHaveTextContent('your entry ✓'));
  });
});

describe('the draft state banner', () => {
  it('before the start shows when picks lock', async () => {
    renderApp(<DraftStateBanner />, { server: liveServer({ phase: 'before', picks: 0 }), route: '/my-picks' });
    expect(await screen.findByRole('timer')).toHaveTextContent(/^Picks lock \w{3} \w{3} \d+, \d+:\d\d (AM|PM) \S+ · \d+ d$/);
  });

  it('shows nothing while round one runs (the strip has the news)', async () => {
    const { server } = renderApp(<DraftStateBanner />, { server: liveServer(), route: '/my-picks' });
    await waitFor(() => expect(server.inputsTo('draft.status')).toHaveLength(1));
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Round one final' })).toBeNull();
  });

  function finalServer() {
    const rows = [row(1, 'Ana', { hits: 6, picks: 6 }), row(2, 'Me Myself', { hits: 4, picks: 4, id: 'me' }), row(3, 'Cy', { hits: 2, picks: 2 }), row(4, 'Dee', { busted: true })];
    return liveServer({ phase: 'final' }).answer({
      leaderboard: {
        group: (input) => standingsPage(rows, 'me', input as LeaderboardInput),
        myGroups: () => ({ draft_started: true, groups: [] }),
      },
    });
  }

  it('once round one is over the Leaderboard shows the winner, the podium and the caller’s place', async () => {
    const { server } = renderApp(<DraftStateBanner />, { server: finalServer(), route: '/leaderboard' });
    const card = within(await screen.findByRole('region', { name: 'Round one final' }));
    expect(card.getByText('ROUND ONE FINAL')).toBeInTheDocument();
    expect(await card.findByText('Winner: Ana')).toBeInTheDocument();
    expect(card.getAllByRole('listitem', { hidden: false }).map((li) => li.textContent)).toEqual(['Ana6 hits1st', 'Me Myself4 hits2nd', 'Cy2 hits3rd']);
    expect(card.getByText('You finished 2nd of 4')).toBeInTheDocument();
    expect(server.inputsTo('leaderboard.group')).toEqual([{ group_id: 1, limit: 100 }]);
  });

  it('elsewhere says the same in two lines, with a link to the podium', async () => {
    renderApp(<DraftStateBanner />, { server: finalServer(), route: '/my-picks' });
    const card = within(await screen.findByRole('region', { name: 'Round one final' }));
    expect(await card.findByText('Winner: Ana')).toBeInTheDocument();
    expect(card.queryByRole('list', { name: 'Podium' })).toBeNull();
    expect(card.getByRole('link', { name: 'See the podium' })).toHaveAttribute('href', '/leaderboard');
  });
});
