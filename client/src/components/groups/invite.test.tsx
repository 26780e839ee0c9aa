import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { formatWhen } from '@first-round/shared/deadline';
import type { AppRouter } from '@first-round/server/router';
import type { inferRouterInputs } from '@trpc/server';
import { FakeServer, Refusal, deferred } from '../../test/fake-server';
import { DEADLINE, draftStatus } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { CardInvite } from './invite';
import { InviteLinkBox, type MadeLink } from './invite-link-box';
import { GroupInvite } from './invite-panel';

type CreateInput = inferRouterInputs<AppRouter>['joinLinks']['create'];

const EXPIRES = '2099-04-20T18:00:00.000Z';
const untilLock: MadeLink = { token: 'tok-until-lock', group_id: 5, expires_at: DEADLINE, expiration_hours: 900, until_picks_lock: true, active_links: 1 };

/** joinLinks.create as the server answers: until the lock, or for the hours asked; `active` links working now. */
function linkServer(active = 1) {
  let made = 0;
  return new FakeServer({
    draft: { status: () => draftStatus('before') },
    joinLinks: {
      create: (input: CreateInput) => {
        made += 1;
        const hours = input.expiration_hours;
        return { token: `tok-${made}`, group_id: input.group_id, expires_at: hours ? EXPIRES : DEADLINE, expiration_hours: hours ?? 900, until_picks_lock: hours === undefined, active_links: active + made - 1 };
      },
    },
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'share');
});

describe('InviteLinkBox', () => {
  it('shows the link, how long it works and that it is the only one', () => {
    renderApp(<InviteLinkBox url="http://localhost:3000/groups/join/tok" link={untilLock} groupName="Sunday Squad" />);
    expect(screen.getByRole('textbox', { name: 'Invite link' })).toHaveValue('http://localhost:3000/groups/join/tok');
    expect(screen.getByText(`Share this link with your friends. It works until picks lock, ${formatWhen(DEADLINE)}.`)).toBeInTheDocument();
    expect(screen.getByText('It is the only invite link to this group that works now.')).toBeInTheDocument();
  });

  it('says a shorter link’s hours, and that earlier links still work', () => {
    renderApp(<InviteLinkBox url="u" link={{ ...untilLock, until_picks_lock: false, expiration_hours: 168, expires_at: EXPIRES, active_links: 3 }} />);
    expect(screen.getByText(`Share this link with your friends. It works for 7 days, until ${formatWhen(EXPIRES)}.`)).toBeInTheDocument();
    expect(screen.getByText('Earlier links still work until they expire: 3 links to this group work now.')).toBeInTheDocument();
  });

  it('Copy puts the link on the clipboard and says Copied!', async () => {
    const { user } = renderApp(<InviteLinkBox url="http://localhost:3000/groups/join/abc" link={untilLock} />);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    expect(screen.getByText('Invite link copied')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('http://localhost:3000/groups/join/abc');
  });

  it('a clipboard that refuses says the copy failed', async () => {
    const { user } = renderApp(<InviteLinkBox url="u" link={untilLock} />);
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Failed to copy link to clipboard')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });

  it('opens a QR code of the link on demand and hides it again', async () => {
    const { user } = renderApp(<InviteLinkBox url="http://localhost:3000/groups/join/abc" link={untilLock} groupName="Sunday Squad" />);
    expect(screen.queryByRole('img')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'QR code' }));
    expect(await screen.findByRole('img', { name: 'QR code of the invite link to Sunday Squad' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Hide QR code' }));
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('offers the system share sheet where there is one, titled with the group', async () => {
    const share = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    const { user } = renderApp(<InviteLinkBox url="http://x/groups/join/abc" link={untilLock} groupName="Sunday Squad" />);
    await user.click(screen.getByRole('button', { name: 'Share…' }));
    expect(share).toHaveBeenCalledWith(expect.objectContaining({ title: 'Join Sunday Squad on First Round', url: 'http://x/groups/join/abc' }));
  });

  it('offers no Share button where the browser has no share sheet', () => {
    renderApp(<InviteLinkBox url="u" link={untilLock} />);
    expect(screen.queryByRole('button', { name: 'Share…' })).toBeNull();
  });
});

describe('GroupInvite: how long the link lasts', () => {
  it('offers until picks lock (the default) and the shorter lifetimes that end before it', async () => {
    renderApp(<GroupInvite groupId={5} groupName="Sunday Squad" />, { server: linkServer() });
    const select = screen.getByRole('combobox', { name: 'Link lasts' });
    await waitFor(() => expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Until picks lock', '7 days', '24 hours']));
    expect(select).toHaveValue('lock');
  });

  it('leaves out a lifetime that would outlast the lock', async () => {
    const soon = new Date(Date.now() + 48 * 3_600_000).toISOString();
    renderApp(<GroupInvite groupId={5} />, { server: linkServer().answer({ draft: { status: () => ({ ...draftStatus('before'), deadline: soon }) } }) });
    const select = screen.getByRole('combobox', { name: 'Link lasts' });
    await waitFor(() => expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Until picks lock', '24 hours']));
  });

  it('Invite makes a link until picks lock and shows it; New Invite Link makes another for the hours chosen', async () => {
    const { user, server } = renderApp(<GroupInvite groupId={5} groupName="Sunday Squad" />, { server: linkServer() });
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByRole('textbox', { name: 'Invite link' })).toHaveValue(`${window.location.origin}/groups/join/tok-1`);
    expect(server.inputsTo('joinLinks.create')).toEqual([{ group_id: 5 }]);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Link lasts' }), '24 hours');
    await user.click(screen.getByRole('button', { name: 'New Invite Link' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Invite link' })).toHaveValue(`${window.location.origin}/groups/join/tok-2`));
    expect(server.inputsTo('joinLinks.create').at(-1)).toEqual({ group_id: 5, expiration_hours: 24 });
    expect(screen.getByText(`Share this link with your friends. It works for 24 hours, until ${formatWhen(EXPIRES)}.`)).toBeInTheDocument();
    expect(screen.getByText('Earlier links still work until they expire: 2 links to this group work now.')).toBeInTheDocument();
  });

  it('shows the button busy while the link is being made', async () => {
    const answer = deferred<MadeLink>();
    const server = linkServer().answer({ joinLinks: { create: () => answer.promise } });
    const { user } = renderApp(<GroupInvite groupId={5} />, { server });
    const invite = screen.getByRole('button', { name: 'Invite' });
    await user.click(invite);
    await waitFor(() => expect(invite).toBeDisabled());
    answer.resolve(untilLock);
    expect(await screen.findByRole('textbox', { name: 'Invite link' })).toBeInTheDocument();
  });

  it('a FORBIDDEN refusal (member invites turned off) shows the server’s reason and takes the link away', async () => {
    const server = linkServer();
    const { user } = renderApp(<GroupInvite groupId={5} />, { server });
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    await screen.findByRole('textbox', { name: 'Invite link' });
    server.answer({ joinLinks: { create: () => Promise.reject(new Refusal('FORBIDDEN', 'The owner has turned member invites off')) } });
    await user.click(screen.getByRole('button', { name: 'New Invite Link' }));
    expect(await screen.findByText('The owner has turned member invites off')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Invite link' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Invite' })).toBeInTheDocument();
  });

  it('a failure that is not a refusal says only that the link failed', async () => {
    const server = linkServer().answer({ joinLinks: { create: () => Promise.reject(new Refusal('INTERNAL', 'stack trace here')) } });
    const { user } = renderApp(<GroupInvite groupId={5} />, { server });
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('Failed to generate join link')).toBeInTheDocument();
    expect(screen.queryByText('stack trace here')).toBeNull();
  });
});

describe('CardInvite: the groups list’s Invite', () => {
  it('copies a link until picks lock at once and says so', async () => {
    const { user } = renderApp(<CardInvite groupId={5} groupName="Sunday Squad" />, { server: linkServer() });
    await user.click(screen.getByRole('button', { name: 'Invite friends to Sunday Squad' }));
    expect(await screen.findByText('Invite link copied')).toBeInTheDocument();
    expect(screen.getByText(`Anyone with the link can join Sunday Squad until picks lock (${formatWhen(DEADLINE)}).`)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/groups/join/tok-1`);
  });

  it('without the clipboard shows the link on the card to copy by hand', async () => {
    const { user } = renderApp(<CardInvite groupId={5} groupName="Sunday Squad" />, { server: linkServer() });
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Invite friends to Sunday Squad' }));
    expect(await screen.findByText('Failed to copy link to clipboard')).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Invite link' })).toHaveValue(`${window.location.origin}/groups/join/tok-1`);
  });
});
