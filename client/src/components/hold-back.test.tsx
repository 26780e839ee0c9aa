import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { VIEWING_DELAY_KEY, setViewingDelay } from '../lib/viewing-delay';
import { catchUp, holdChangesFrom, pageLoaded } from '../lib/hold-gate';
import { useProfile } from '../lib/queries';
import { FakeServer } from '../test/fake-server';
import { board, draftStatus } from '../test/fixtures';
import type { DraftChange } from '@first-round/shared/schemas';
import { renderApp } from '../test/render';
import { DraftLive } from './draft-live';
import { LiveStrip } from './draft-strip';
import { ViewingDelayBadge } from './viewing-delay-badge';
import { ViewingDelayBar } from './viewing-delay-bar';
import { ViewingDelayChooser } from './viewing-delay-chooser';

/*
 * No spoilers: with a viewing delay, the answers of draft reads wait in the hold-back gate (the tRPC client's
 * first link, as in the app) while the live layer holds a change back; the screen keeps what it showed.
 */

/**
 * A draft whose round one has `picks.now` picks (slot n took player n): change it and read again.
 * `lastChangeAgoMs`: the draft's last change that long before each status answer.
 */
function draftServer(lastChangeAgoMs?: number) {
  const picks = { now: 2 };
  const lastChange = () => (lastChangeAgoMs === undefined ? {} : { last_change_at: new Date(Date.now() - lastChangeAgoMs).toISOString() });
  /** Picks made as a read asks (`before`: the draft as it was then, one pick fewer, the last one within any delay). */
  const asOf = (input: unknown) => (input as { before?: string } | undefined)?.before !== undefined;
  const made = (input: unknown) => (asOf(input) ? picks.now - 1 : picks.now);
  const server = new FakeServer({
    draft: { status: (input) => ({ ...draftStatus('live', made(input)), ...(asOf(input) ? {} : lastChange()) }) },
    players: { list: (input) => board(20, Object.fromEntries(Array.from({ length: made(input) }, (_, i) => [i + 1, i + 1]))) },
    picks: { mine: () => ({ picks: [], group_id: 1, use_global_picks: true, odds: null }) },
    leaderboard: { field: () => [] },
    auth: { me: () => ({ id: 'u1', participant_id: 'me', email: 'me@example.com', screen_name: 'Me Myself', is_first_login: false, is_admin: false }) },
  });
  return { server, picks };
}

function LiveScreen() {
  return (
    <>
      <LiveStrip />
      <ViewingDelayBadge />
      <ViewingDelayChooser />
    </>
  );
}

const headline = async () => within(await screen.findByRole('region', { name: 'Draft live' })).getByRole('status');
/** The newest answer for draft.status has left the server (it may still wait in the gate). */
const asked = (server: FakeServer, times: number) => waitFor(() => expect(server.inputsTo('draft.status').length).toBeGreaterThanOrEqual(times));

afterEach(() => {
  catchUp();
  setViewingDelay(0);
});

describe('the hold-back gate', () => {
  it('live (no delay): a new pick shows as soon as it is read, and there is no badge', async () => {
    const { server, picks } = draftServer();
    const { queryClient } = renderApp(<LiveScreen />, { server, route: '/leaderboard' });
    expect(await headline()).toHaveTextContent('Pick 2');
    expect(screen.queryByRole('button', { name: 'Catch up' })).toBeNull();
    picks.now = 3;
    await queryClient.invalidateQueries();
    await waitFor(async () => expect(await headline()).toHaveTextContent('Pick 3'));
  });

  it('with a delay, a pick held back stays off the screen though the server already answers with it; Catch up shows it', async () => {
    const { server, picks } = draftServer();
    const { queryClient, user } = renderApp(<LiveScreen />, { server, route: '/leaderboard' });
    expect(await headline()).toHaveTextContent('Pick 2');
    setViewingDelay(45);
    expect(await screen.findByText('Delayed 45 s')).toBeInTheDocument();
    // The live layer holds a change that happened now: every draft read answered from now waits 45 s.
    holdChangesFrom(Date.now());
    picks.now = 3;
    void queryClient.invalidateQueries();
    await asked(server, 2);
    await waitFor(() => expect(server.inputsTo('players.list').length).toBeGreaterThanOrEqual(2));
    expect(queryClient.isFetching()).toBeGreaterThan(0);
    expect(await headline()).toHaveTextContent('Pick 2');
    expect(await headline()).not.toHaveTextContent('Pick 3');

    await user.click(screen.getByRole('button', { name: 'Catch up' }));
    await waitFor(async () => expect(await headline()).toHaveTextContent('Pick 3'));
  });

  it('a held answer shows by itself once the delay has passed', async () => {
    const { server, picks } = draftServer();
    const { queryClient } = renderApp(<LiveScreen />, { server, route: '/leaderboard' });
    expect(await headline()).toHaveTextContent('Pick 2');
    setViewingDelay(1);
    holdChangesFrom(Date.now());
    picks.now = 3;
    void queryClient.invalidateQueries();
    await asked(server, 2);
    expect(await headline()).toHaveTextContent('Pick 2');
    await waitFor(async () => expect(await headline()).toHaveTextContent('Pick 3'), { timeout: 5_000 });
  });

  it('choosing Live releases what was held at once, and the badge goes', async () => {
    const { server, picks } = draftServer();
    const { queryClient, user } = renderApp(<LiveScreen />, { server, route: '/leaderboard' });
    expect(await headline()).toHaveTextContent('Pick 2');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Watching on' }), 'TV (about 10 s behind)');
    expect(await screen.findByText('Delayed 10 s')).toBeInTheDocument();
    holdChangesFrom(Date.now());
    picks.now = 3;
    void queryClient.invalidateQueries();
    await asked(server, 2);
    expect(await headline()).toHaveTextContent('Pick 2');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Watching on' }), 'Live');
    await waitFor(async () => expect(await headline()).toHaveTextContent('Pick 3'));
    expect(screen.queryByText(/^Delayed/)).toBeNull();
  });

  it('holds only the draft reads: the profile is read at once during a hold', async () => {
    function Profile() {
      const me = useProfile();
      return <p>{me.data ? `Signed in as ${me.data.screen_name}` : 'Loading profile'}</p>;
    }
    const { server } = draftServer();
    setViewingDelay(45);
    holdChangesFrom(Date.now());
    renderApp(<Profile />, { server, route: '/settings' });
    expect(await screen.findByText('Signed in as Me Myself')).toBeInTheDocument();
  });
});

describe('a page loaded with a viewing delay', () => {
  it('shows the draft at once when it last changed longer ago than the delay, and says nothing of catching up', async () => {
    const { server } = draftServer(120_000);
    setViewingDelay(45);
    pageLoaded();
    renderApp(<LiveScreen />, { server, route: '/leaderboard' });
    expect(await headline()).toHaveTextContent('Pick 2');
    expect(screen.getByText('Delayed 45 s')).toBeInTheDocument();
    expect(screen.queryByText(/catching up/)).toBeNull();
  });

  it('holds the draft that changed within the delay, shows it as it was one delay before the load, says so on the badge, and Catch up shows it', async () => {
    const { server } = draftServer(10_000);
    setViewingDelay(45);
    pageLoaded();
    const { user } = renderApp(<LiveScreen />, { server, route: '/leaderboard' });
    await asked(server, 1);
    expect(await screen.findByText(/Delayed 45 s · catching up to your TV, 3\d s/)).toBeInTheDocument();
    // The status answered and waits in the gate; nothing kept to show, so the draft is read as it was one
    // delay before the load (`before`, on the server's clock) and shown at once: pick 1, never pick 2.
    expect(await headline()).toHaveTextContent('Pick 1');
    const asOf = server.inputsTo('draft.status').find((input) => (input as { before?: string } | undefined)?.before !== undefined) as { before: string };
    expect(Date.parse(asOf.before)).toBeLessThanOrEqual(Date.now() - 45_000);
    expect(await headline()).not.toHaveTextContent('Pick 2');
    await user.click(screen.getByRole('button', { name: 'Catch up' }));
    await waitFor(async () => expect(await headline()).toHaveTextContent('Pick 2'));
    expect(screen.queryByText(/catching up/)).toBeNull();
  });
});

/** The stream's word that round-one slot `slot` took player `slot` just now. */
function pickChange(slot: number): DraftChange {
  return { event_id: slot, kind: 'pick', slot, player: board(20, { [slot]: slot })[slot - 1]!, at: new Date().toISOString() };
}

function StreamScreen() {
  return (
    <>
      <DraftLive />
      <LiveScreen />
    </>
  );
}

describe('changes on the live stream, held back', () => {
  it('live: a pick on the stream reaches the strip at once, with no read', async () => {
    const { server } = draftServer();
    renderApp(<StreamScreen />, { server, route: '/leaderboard' });
    expect(await headline()).toHaveTextContent('Pick 2');
    await waitFor(() => expect(server.streaming('draft.changes')).toBe(true));
    const reads = server.inputsTo('players.list').length;
    server.push('draft.changes', '3', pickChange(3));
    await waitFor(async () => expect(await headline()).toHaveTextContent(`Pick 3`));
    expect(server.inputsTo('players.list')).toHaveLength(reads);
  });

  it('with a delay, a pick on the stream waits off screen; Catch up shows it', async () => {
    const { server } = draftServer();
    setViewingDelay(45);
    const { user } = renderApp(<StreamScreen />, { server, route: '/leaderboard' });
    await waitFor(() => expect(server.streaming('draft.changes')).toBe(true));
    expect(await headline()).toHaveTextContent('Pick 2');
    server.push('draft.changes', '3', pickChange(3));
    // Nothing moves: the pick is held (and the gate now holds the reads' answers from it as well).
    expect(await headline()).toHaveTextContent('Pick 2');
    expect(await headline()).not.toHaveTextContent('Pick 3');
    await user.click(screen.getByRole('button', { name: 'Catch up' }));
    await waitFor(async () => expect(await headline()).toHaveTextContent('Pick 3'));
  });
});

describe('choosing the viewing delay', () => {
  it('remembers the choice on this device and says it on the badge', async () => {
    const { user } = renderApp(<LiveScreen />, { server: draftServer().server, route: '/leaderboard' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Watching on' }), 'A stream (about 45 s behind)');
    expect(await screen.findByText('Delayed 45 s')).toBeInTheDocument();
    expect(localStorage.getItem(VIEWING_DELAY_KEY)).toBe('45');
  });

  it('another delay takes a number of seconds, kept within ten minutes', async () => {
    const { user } = renderApp(<LiveScreen />, { server: draftServer().server, route: '/leaderboard' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Watching on' }), 'Another delay (seconds)');
    const seconds = screen.getByRole('spinbutton', { name: 'Seconds behind' });
    expect(seconds).toHaveValue(30);
    await user.clear(seconds);
    await user.type(seconds, '90');
    expect(await screen.findByText('Delayed 1 min 30 s')).toBeInTheDocument();
    await user.clear(seconds);
    await user.type(seconds, '5000');
    await user.tab();
    expect(await screen.findByText('Delayed 10 min')).toBeInTheDocument();
    expect(seconds).toHaveValue(600);
  });

  it('offers the choice at the end of a live page to a live viewer, and not before the draft starts', async () => {
    const { server } = draftServer();
    const live = renderApp(<ViewingDelayBar place="end" />, { server, route: '/leaderboard' });
    expect(await screen.findByRole('region', { name: 'Watching on TV' })).toHaveTextContent('Watching on TV or a stream?');
    live.unmount();
    const before = new FakeServer({ draft: { status: () => draftStatus('before') } });
    renderApp(<ViewingDelayBar place="end" />, { server: before, route: '/leaderboard' });
    await waitFor(() => expect(before.inputsTo('draft.status')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Watching on TV' })).toBeNull();
  });

  it('with a delay set, the bar at the top carries the chooser and the badge', async () => {
    setViewingDelay(10);
    renderApp(<ViewingDelayBar place="top" />, { server: draftServer().server, route: '/leaderboard' });
    const bar = within(screen.getByRole('region', { name: 'Viewing delay' }));
    expect(bar.getByText('Delayed 10 s')).toBeInTheDocument();
    expect(bar.getByRole('combobox', { name: 'Watching on' })).toHaveValue('10');
  });
});
