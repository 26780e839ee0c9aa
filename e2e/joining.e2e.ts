import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { formatWhen } from '@first-round/shared/deadline';
import { launchBrowser, newPerson, type Person } from './support/browser';
import { BASE_URL, STEWARD_EMAIL, uniqueEmail, uniqueUsername } from './support/env';
import { apiSession } from './support/idp';
import { operator } from './support/operator';
import { rest } from './support/rest';
import { signInWithSession } from './support/session';
import { toastText, waitForPath } from './support/ui';

/**
 * Joining and inviting as people meet it:
 * 1. after a wrong group password the join screen says how many tries are left, then, at the limit, when
 *    the lock lifts (in minutes and as a clock time in the reader's own words) and to ask for an invite link;
 * 2. the invite panel makes links that last until picks lock, or for a shorter time chosen, and says that
 *    earlier links still work;
 * 3. a member who is not the owner invites; once the owner turns member invites off, the member is
 *    refused and the link they made stops working;
 * 4. once the draft has started, the join screen, the toast after joining and the invitation card say
 *    what a newcomer will and won't see (in final words after round one).
 * The draft is started here and reset at the end.
 */
type Session = Awaited<ReturnType<typeof apiSession>>;

/** A player with an account made over HTTP (first-login rules done), signed into a browser of their own. */
async function player(browser: Browser, prefix: string): Promise<{ session: Session; person: Person; name: string }> {
  const email = uniqueEmail(prefix);
  const name = uniqueUsername(prefix.slice(0, 6));
  const session = await apiSession(email, name);
  await rest(session, 'PATCH', '/users/me/status');
  const person = await newPerson(browser);
  await signInWithSession(person.page, email, name);
  return { session, person, name };
}

/** A join by id over REST as `session`: the status and the body (rest() throws on refusals, which these are). */
async function joinOverRest(session: Session, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${BASE_URL}/api/groups/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await session.token()}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** What the app writes for a clock time: the reader's own, rounded up to the minute. */
function localClock(page: Page, iso: string): Promise<string> {
  return page.evaluate(
    ([at]) => {
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })
          .formatToParts(new Date(Math.ceil(Date.parse(at!) / 60_000) * 60_000))
          .map((p) => [p.type, p.value]),
      );
      return `${parts.hour}:${parts.minute} ${parts.dayPeriod} ${parts.timeZoneName}`;
    },
    [iso],
  );
}

async function submitJoin(page: Page, groupId: number, password: string) {
  await page.getByRole('textbox', { name: 'Group ID' }).fill(String(groupId));
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Join Group' }).click();
}

describe('joining and inviting', () => {
  let browser: Browser;
  let host: Session;
  let vaultId = 0;
  let owner: Awaited<ReturnType<typeof player>>;
  let groupId = 0;
  const groupName = `Invite Desk ${Date.now().toString(36)}`;
  let ownersLink = '';
  let op: Awaited<ReturnType<typeof operator>> | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
    host = await apiSession(uniqueEmail('jhost'), uniqueUsername('JHost'));
    vaultId = Number((await rest(host, 'POST', '/groups', { name: `Join Vault ${Date.now().toString(36)}`, password: 'open sesame' })).group_id);
  });
  afterAll(async () => {
    await op?.resetDraft().catch(() => undefined);
    await browser?.close();
  });

  it('a wrong password says how many tries are left; the last says when to try again; then the lock says it too', async () => {
    const guesser = await player(browser, 'jguess');
    const { page } = guesser.person;
    await page.goto('/groups/join');
    await submitJoin(page, vaultId, 'guess 1');
    await page.getByText('Wrong password for this group. 4 tries left.', { exact: true }).waitFor();
    expect(await page.getByText('Please check the group ID and password').count()).toBe(0);
    // Three more, faster than typing.
    for (let i = 2; i <= 4; i++) expect((await joinOverRest(guesser.session, { group_id: vaultId, password: `guess ${i}` })).status).toBe(403);

    await submitJoin(page, vaultId, 'guess 5');
    const last = page.getByText(/^Wrong password for this group\. No tries left: try again in 15 minutes \(at .+\), or ask a member for an invite link\.$/);
    await last.waitFor();
    // The lock's time, as the server gives it (retry_at), in the reader's words.
    const locked = await joinOverRest(guesser.session, { group_id: vaultId, password: 'open sesame' });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ tries_left: 0, lockout: 'group' });
    const clock = await localClock(page, String(locked.body.retry_at));
    expect(await last.innerText()).toContain(`(at ${clock})`);

    await submitJoin(page, vaultId, 'open sesame');
    await page.getByText(`Too many wrong passwords for this group. Try again in 15 minutes (at ${clock}), or ask a member for an invite link.`, { exact: true }).waitFor();
    expect(await page.getByText('Please check the group ID and password').count()).toBe(0);
    // An id that names no group still gets the plain message.
    await submitJoin(page, 98_765_432, '');
    await page.getByText('Failed to join group. Please check the group ID and password.', { exact: true }).waitFor();
    await guesser.person.context.close();
  });

  it('the invite panel makes links until picks lock, or for a shorter time, and says earlier links still work', async () => {
    owner = await player(browser, 'jowner');
    groupId = Number((await rest(owner.session, 'POST', '/groups', { name: groupName })).group_id);
    const deadline = String(((await (await fetch(`${BASE_URL}/api/draft/status`)).json()) as { deadline: string }).deadline);
    const { page } = owner.person;
    // Times as this browser reads them: its own zone, named.
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const lockAt = formatWhen(deadline, zone);
    await page.goto(`/groups/${groupId}`);
    const lifetime = page.getByRole('combobox', { name: 'Link lasts' });
    expect(await lifetime.inputValue()).toBe('lock');
    expect(await lifetime.locator('option:checked').innerText()).toBe('Until picks lock');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText(`Share this link with your friends. It works until picks lock, ${lockAt}.`).waitFor();
    await page.getByText('It is the only invite link to this group that works now.').waitFor();
    ownersLink = await page.getByRole('textbox', { name: 'Invite link' }).inputValue();
    const first = (await (await fetch(`${BASE_URL}/api/groups/join-links/${ownersLink.split('/').pop()}`)).json()) as { expires_at: string };
    expect(first.expires_at).toBe(deadline);

    await lifetime.selectOption({ label: '24 hours' });
    await page.getByRole('button', { name: 'New Invite Link' }).click();
    await page.getByText(/^Share this link with your friends\. It works for 24 hours, until .+\.$/).waitFor();
    await page.getByText('Earlier links still work until they expire: 2 links to this group work now.').waitFor();
    const shorter = await page.getByRole('textbox', { name: 'Invite link' }).inputValue();
    expect(shorter).not.toBe(ownersLink);
    const second = (await (await fetch(`${BASE_URL}/api/groups/join-links/${shorter.split('/').pop()}`)).json()) as { expires_at: string };
    expect(Math.abs(Date.parse(second.expires_at) - (Date.now() + 24 * 3_600_000))).toBeLessThan(120_000);
  });

  it('a member who is not the owner invites; once the owner turns that off the member is refused and their link stops', async () => {
    const member = await player(browser, 'jmember');
    await rest(member.session, 'POST', `/groups/join-with-link/${ownersLink.split('/').pop()}`);
    const { page } = member.person;
    await page.goto(`/groups/${groupId}`);
    await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const membersLink = await page.getByRole('textbox', { name: 'Invite link' }).inputValue();
    expect(membersLink).toMatch(new RegExp(`^${BASE_URL}/groups/join/[A-Za-z0-9_-]{20,}$`));
    // No owner's settings for a member.
    expect(await page.getByRole('checkbox', { name: 'Members can invite friends' }).count()).toBe(0);

    const ownerPage = owner.person.page;
    const setting = ownerPage.getByRole('checkbox', { name: 'Members can invite friends' });
    expect(await setting.isChecked()).toBe(true);
    await setting.uncheck();
    await ownerPage.getByText('Only you can invite. Links members made stop working until you turn this back on.').waitFor();

    // The member's page still offers a new link: asking is refused with the reason, and the control goes.
    await page.getByRole('button', { name: 'New Invite Link' }).click();
    expect(await toastText(page)).toContain("Only the group's owner can invite to this group: they have turned off invites from members");
    await page.getByRole('button', { name: 'New Invite Link' }).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
    await page.getByRole('list', { name: 'Members' }).waitFor();
    expect(await page.getByRole('button', { name: /Invite/ }).count()).toBe(0);

    // The link the member made leads nowhere now, and says why.
    const visitor = await newPerson(browser);
    await visitor.page.goto(membersLink);
    await visitor.page.getByText("This invite link no longer works: the group's owner has turned off invites from members").waitFor();
    await visitor.context.close();
    await member.person.context.close();
  });

  it('after the start the join screen, the toast and the invitation card say what a newcomer will and won\'t see', async () => {
    op = await operator(STEWARD_EMAIL);
    await op.resetDraft();
    await op.startDraft();
    const started = "The draft has started: you'll see this group's standings and draft board, but you can't make picks here.";
    const late = await player(browser, 'jlate');
    const { page } = late.person;
    await page.goto('/groups/join');
    await page.getByText(started, { exact: true }).waitFor();
    await submitJoin(page, vaultId, 'open sesame');
    await waitForPath(page, new RegExp(`^/groups/${vaultId}(/picks)?$`));
    const toast = await toastText(page);
    expect(toast).toContain('You have joined the group');
    expect(toast).toContain(started);

    // Signed out, a link made before the start: the invitation card above the sign-up form says it too.
    const visitor = await newPerson(browser);
    await visitor.page.goto(ownersLink);
    await waitForPath(visitor.page, '/sign-up');
    await visitor.page.getByRole('region', { name: 'Your invitation' }).getByText(started, { exact: true }).waitFor();
    await visitor.context.close();

    await op.completeRound();
    await page.goto('/groups/join');
    await page.getByText("Round one is complete: you'll see this group's final standings and draft board, but you can't make picks here.", { exact: true }).waitFor();
    await op.resetDraft();
    await late.person.context.close();
  });
});
