import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { GroupDto, MyGroupStanding } from '@first-round/shared/schemas';
import { FakeServer } from '../../test/fake-server';
import { draftStatus } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { GroupsPage } from './groups-page';

const group = (group_id: number, name: string): GroupDto => ({
  id: group_id,
  group_id,
  name,
  is_public: false,
  picks_public: true,
  has_password: false,
  members_can_invite: true,
  member_count: 5,
  created_at: '2099-04-01T00:00:00.000Z',
});

const card = (group_id: number, standing: MyGroupStanding['standing']): MyGroupStanding => ({
  group_id,
  members: 5,
  ready: 5,
  has_picks: true,
  use_global_picks: true,
  entry_mode: 'linked',
  my_picks: standing?.picks ?? 0,
  standing,
});

/** My Groups during round one (5 slots filled: 27 left) with the caller's place in each group. */
function groupsServer(cards: MyGroupStanding[], phase: 'live' | 'final' = 'live') {
  return new FakeServer({
    draft: { status: () => draftStatus(phase, 5) },
    groups: {
      mine: () => cards.map((c) => group(c.group_id, `Group ${c.group_id}`)),
      publicGroups: () => [],
      membership: (input) => ({ group_id: input.group_id, participant_id: 'me', is_member: true, is_owner: false, use_global_picks: true, entry_mode: 'linked', can_invite: false }),
    },
    leaderboard: { myGroups: () => ({ draft_started: true, groups: cards }) },
  });
}

const cardOf = async (name: string) => within((await screen.findByRole('link', { name })).closest('li')!);

describe('My Groups: a busted entry on its card', () => {
  it('says Busted with one number, the hits it had, and why: a miss', async () => {
    renderApp(<GroupsPage />, { server: groupsServer([card(3, { rank: 4, entries: 5, alive: 3, busted: true, correct_picks: 0, picks: 8, hits: 3, misses: 1, shared: false })]) });
    const c = await cardOf('Group 3');
    expect(await c.findByText('had 3 hits · 1 pick was not drafted in round one')).toBeInTheDocument();
    expect(c.getByText('Busted')).toBeInTheDocument();
    expect(c.queryByText(/0 hits/)).toBeNull();
  });

  it('explains a bust by the slots left: more picks pending than round-one slots left', async () => {
    renderApp(<GroupsPage />, { server: groupsServer([card(6, { rank: 2, entries: 3, alive: 1, busted: true, correct_picks: 0, picks: 30, hits: 2, misses: 0, shared: false })]) });
    const c = await cardOf('Group 6');
    expect(await c.findByText('had 2 hits · 28 picks still pending, only 27 slots left in round one')).toBeInTheDocument();
  });
});
