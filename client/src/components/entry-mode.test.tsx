import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { MyGroupStanding } from '@first-round/shared/schemas';
import { FakeServer, Refusal } from '../test/fake-server';
import { board } from '../test/fixtures';
import { currentPath, renderApp } from '../test/render';
import { GroupEntries } from './group-entries';
import { GroupEntryActions, GroupEntryCard, type GroupEntry } from './groups/group-entry';

const linked: GroupEntry = { groupId: 4, groupName: 'Sunday Squad', mode: 'linked', picks: [1, 2, 3], myPicks: 3 };
const own: GroupEntry = { groupId: 4, groupName: 'Sunday Squad', mode: 'own', picks: [1, 2, 3, 4, 5, 6], myPicks: 3 };

/** groups.useGlobalPicks as the server answers it, and the board the confirmation names picks from. */
function modeServer() {
  return new FakeServer({
    players: { list: () => board(10) },
    groups: {
      useGlobalPicks: (input) => ({ group_id: input.group_id, participant_id: 'me', is_member: true, is_owner: false, use_global_picks: input.use_global_picks, entry_mode: input.use_global_picks ? 'linked' : 'own', can_invite: false }),
    },
  });
}

describe('the entry mode in words', () => {
  it("a linked entry says 'Using My Picks' with their count, and that a change to My Picks changes it", () => {
    renderApp(<GroupEntryCard entry={linked} />);
    const card = within(screen.getByRole('region', { name: 'Your entry in this group' }));
    expect(card.getByTestId('entry-mode')).toHaveTextContent('Using My Picks · 3');
    expect(card.getByText(/a change to My Picks changes them all/)).toBeInTheDocument();
  });

  it("an own entry says 'Own picks' and that they count only in this group", () => {
    renderApp(<GroupEntryCard entry={own} />);
    expect(screen.getByTestId('entry-mode')).toHaveTextContent('Own picks · 6');
    expect(screen.getByText(/These picks count only in Sunday Squad: changing My Picks does not change them/)).toBeInTheDocument();
  });

  it("an entry with no picks says 'no picks yet'", () => {
    renderApp(<GroupEntryCard entry={{ ...own, picks: [] }} />);
    expect(screen.getByTestId('entry-mode')).toHaveTextContent('Own picks · no picks yet');
  });
});

describe('switching the entry mode', () => {
  it('a linked entry offers Edit My Picks, which opens the selection for this group', async () => {
    const { user } = renderApp(<GroupEntryActions entry={linked} />, { server: modeServer(), route: '/groups/4' });
    await user.click(screen.getByRole('button', { name: 'Edit My Picks' }));
    await waitFor(() => expect(currentPath()).toBe('/select-players?groupId=4'));
  });

  it("a linked entry without My Picks offers 'Make My Picks'", () => {
    renderApp(<GroupEntryActions entry={{ ...linked, picks: [], myPicks: 0 }} />, { server: modeServer(), route: '/groups/4' });
    expect(screen.getByRole('button', { name: 'Make My Picks' })).toBeInTheDocument();
  });

  it('Make own picks asks the server to fork the entry, then opens the selection for the group', async () => {
    const { user, server } = renderApp(<GroupEntryActions entry={linked} />, { server: modeServer(), route: '/groups/4' });
    await user.click(screen.getByRole('button', { name: 'Make own picks for this group' }));
    await waitFor(() => expect(currentPath()).toBe('/select-players?groupId=4'));
    expect(server.inputsTo('groups.useGlobalPicks')).toEqual([{ group_id: 4, use_global_picks: false }]);
  });

  it('Follow My Picks again asks first, naming the picks it drops; Cancel changes nothing', async () => {
    const { user, server } = renderApp(<GroupEntryActions entry={own} />, { server: modeServer(), route: '/groups/4' });
    await user.click(screen.getByRole('button', { name: 'Follow My Picks again' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Follow My Picks again?' });
    await waitFor(() =>
      expect(dialog).toHaveTextContent(
        'Your own 6 picks for Sunday Squad will be dropped (Cam Ward, Travis Hunter, Abdul Carter, Will Campbell and 2 more). Sunday Squad will use your My Picks (3 picks) and follow every change you make to them.',
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.inputsTo('groups.useGlobalPicks')).toEqual([]);
  });

  it('confirming Follow My Picks relinks the entry and says so', async () => {
    const { user, server } = renderApp(<GroupEntryActions entry={own} />, { server: modeServer(), route: '/groups/4' });
    await user.click(screen.getByRole('button', { name: 'Follow My Picks again' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Follow My Picks' }));
    expect(await screen.findByText('Sunday Squad now uses your My Picks (3).')).toBeInTheDocument();
    expect(server.inputsTo('groups.useGlobalPicks')).toEqual([{ group_id: 4, use_global_picks: true }]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(currentPath()).toBe('/groups/4');
  });

  it('a refused switch says so and stays', async () => {
    const server = modeServer().answer({ groups: { useGlobalPicks: () => Promise.reject(new Refusal('DRAFT_LOCKED', 'Picks are locked')) } });
    const { user } = renderApp(<GroupEntryActions entry={linked} />, { server, route: '/groups/4' });
    await user.click(screen.getByRole('button', { name: 'Make own picks for this group' }));
    expect(await screen.findByText('Failed to set up new picks for this group')).toBeInTheDocument();
    expect(currentPath()).toBe('/groups/4');
    expect(screen.getByRole('button', { name: 'Make own picks for this group' })).toBeEnabled();
  });
});

const standing = (g: Partial<MyGroupStanding> & { name: string; group_id: number }): MyGroupStanding & { name: string } => ({
  members: 3,
  ready: 3,
  has_picks: true,
  use_global_picks: false,
  entry_mode: 'own',
  my_picks: 8,
  standing: null,
  ...g,
});

describe("My Picks' entries in groups", () => {
  it('names the groups My Picks play in, and lists each own entry with its picks before the start', () => {
    renderApp(<GroupEntries linked={[standing({ group_id: 1, name: 'Alpha', entry_mode: 'linked' }), standing({ group_id: 2, name: 'Beta', entry_mode: 'linked' })]} own={[standing({ group_id: 3, name: 'Gamma' }), standing({ group_id: 5, name: 'Delta', my_picks: 0 })]} phase="before" />);
    expect(screen.getByText('My Picks play in Alpha, Beta.')).toBeInTheDocument();
    const items = within(screen.getByRole('list', { name: 'Entries with own picks' })).getAllByRole('listitem');
    expect(within(items[0]!).getByRole('link', { name: 'Gamma' })).toHaveAttribute('href', '/groups/3/picks');
    expect(items[0]).toHaveTextContent('Own picks · 8');
    expect(within(items[0]!).getByTestId('group-entry-state')).toHaveTextContent('8 picks in');
    expect(within(items[1]!).getByTestId('group-entry-state')).toHaveTextContent('Not in yet');
  });

  it('says each own entry’s place and state once the draft runs, and FINAL once round one is over', () => {
    const own = [standing({ group_id: 3, name: 'Gamma', standing: { rank: 2, entries: 5, alive: 3, busted: false, correct_picks: 2, picks: 8, hits: 2, misses: 0, shared: false } })];
    const { rerender } = renderApp(<GroupEntries linked={[]} own={own} phase="live" />);
    expect(screen.getByTestId('group-entry-state')).toHaveTextContent('2nd of 5 · Alive');
    rerender(<GroupEntries linked={[]} own={[{ ...own[0]!, standing: { ...own[0]!.standing!, rank: 1, busted: false } }]} phase="final" />);
    expect(screen.getByTestId('group-entry-state')).toHaveTextContent('FINAL · 1st of 5 · Winner');
  });

  it('says what a busted entry had, one number: the hits My Picks and the share card show', () => {
    const own = [standing({ group_id: 3, name: 'Gamma', standing: { rank: 4, entries: 5, alive: 3, busted: true, correct_picks: 0, picks: 8, hits: 3, misses: 1, shared: false } })];
    renderApp(<GroupEntries linked={[]} own={own} phase="live" />);
    expect(screen.getByTestId('group-entry-state')).toHaveTextContent('4th of 5 · Busted · had 3 hits');
  });

  it('shows nothing for a player in no group', () => {
    renderApp(<GroupEntries linked={[]} own={[]} phase="before" />);
    expect(screen.queryByText('Your entries in groups')).toBeNull();
  });
});
