import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPerson } from './support/browser';
import { BASE_URL, uniqueEmail, uniqueUsername } from './support/env';
import { apiSession } from './support/idp';
import { enterMailedCode, signInThroughUi, toastText, waitForPath } from './support/ui';
import { watchForText } from './support/watch-text';

/**
 * A friend who follows an invite link must land on the group page as a member, at once
 * and every time, never on 'You are not a member of this group' (nor a load error) left over from
 * answers cached before the join. A MutationObserver records every time those texts enter the DOM, however
 * briefly; the group's answers that follow the join are slowed down, so a stale view stays on screen long
 * enough to be seen whatever the machine's speed.
 */
const NOT_A_MEMBER = 'You are not a member of this group';
const LOAD_ERROR = 'Failed to load group details';

type Session = Awaited<ReturnType<typeof apiSession>>;

async function restAs(session: Session, method: string, route: string, body?: unknown) {
  const res = await fetch(`${BASE_URL}/api${route}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await session.token()}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok) throw new Error(`${method} ${route} failed: ${res.status} ${JSON.stringify(data)}`);
  return data!;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The join takes a moment, and every answer about groups after it takes longer still. */
async function slowAfterJoin(page: Page) {
  let joined = false;
  await page.route('**/trpc/**', async (route) => {
    const url = decodeURIComponent(route.request().url());
    if (/joinLinks\.join\b/.test(url)) {
      joined = true;
      await delay(400);
    } else if (joined && /groups\.(get|membership|members)\b/.test(url)) {
      await delay(800);
    }
    await route.continue().catch(() => undefined);
  });
}

/** The member view of the group page: its title and a members list that includes `name`. */
async function memberView(page: Page, groupName: string, name: string) {
  // includeHidden: a new account's first-login rules open on top and hide the page from the accessibility tree.
  await page.getByRole('heading', { name: groupName, level: 1, includeHidden: true }).waitFor({ state: 'attached' });
  await page.getByRole('list', { name: 'Members', includeHidden: true }).getByText(name, { exact: true }).waitFor({ state: 'attached' });
}

describe('invite link landing: the group opens as a member after the join', () => {
  let browser: Browser;
  let owner: Session;
  const ownerName = uniqueUsername('Host');
  const groupName = `Invite Crew ${Date.now().toString(36)}`;
  let groupId = 0;
  const publicName = `Open Invite ${Date.now().toString(36)}`;
  let publicId = 0;

  /** A fresh invite link to a group of the owner's (the private one unless told). */
  async function inviteLink(id = groupId) {
    const link = await restAs(owner, 'POST', '/groups/join-links', { group_id: id, expiration_hours: 24 });
    return `${BASE_URL}/groups/join/${String(link.token)}`;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await apiSession(uniqueEmail('host'), ownerName);
    groupId = Number((await restAs(owner, 'POST', '/groups', { name: groupName, is_public: false, picks_public: false })).group_id);
    publicId = Number((await restAs(owner, 'POST', '/groups', { name: publicName, is_public: true, picks_public: false })).group_id);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a signed-out friend signs up through the link and the group page shows them as a member straight away', async () => {
    const { page, context } = await newPerson(browser);
    const seen = await watchForText(context, [NOT_A_MEMBER, LOAD_ERROR]);
    await slowAfterJoin(page);
    const friendName = uniqueUsername('Pal');
    const email = uniqueEmail('pal');

    await page.goto(await inviteLink());
    await waitForPath(page, '/sign-up');
    // The invitation card above the form: the group, who asked, how many are in, when picks lock.
    const card = page.getByRole('region', { name: 'Your invitation' });
    await card.getByText(groupName, { exact: true }).waitFor();
    await card.getByText(`${ownerName} invited you to`).waitFor();
    await card.getByText('1 member', { exact: true }).waitFor();
    await card.getByText(/^Picks lock \w{3} \w{3} \d{1,2}, \d{1,2}:\d\d [AP]M [A-Z]{2,4}([+-]\d+)?$/).waitFor();
    await card.getByText("Pick the players you think go in round one. One miss and you're out.").waitFor();
    const cardBox = (await card.boundingBox())!;
    const formBox = (await page.getByRole('heading', { name: 'Join the First Round' }).boundingBox())!;
    expect(cardBox.y + cardBox.height).toBeLessThanOrEqual(formBox.y);
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('textbox', { name: 'Username' }).fill(friendName);
    await enterMailedCode(page, email, 'Sign Up');
    await page.getByRole('button', { name: 'Verify & Create Account' }).click();
    await waitForPath(page, `/groups/${groupId}`, 20_000);

    // Whichever the page settles on: the member view, or the stale 'not a member' one.
    const stale = page.getByText(NOT_A_MEMBER).or(page.getByText(LOAD_ERROR));
    await page.getByRole('list', { name: 'Members', includeHidden: true }).or(stale).first().waitFor({ state: 'attached', timeout: 20_000 });
    expect(seen).toEqual([]);
    await memberView(page, groupName, friendName);
    await page.getByRole('list', { name: 'Members', includeHidden: true }).getByText(ownerName, { exact: true }).waitFor({ state: 'attached' });
    expect(await toastText(page)).toContain('You have joined the group');
    expect(seen).toEqual([]);
    // The owner sees the friend too (the join itself always worked).
    const members = (await restAs(owner, 'GET', `/groups/${groupId}/members`)) as unknown as { participant_name: string }[];
    expect(members.map((m) => m.participant_name)).toContain(friendName);

    // The first-login rules: a card centred on a desktop screen, which closes back onto the group.
    const rules = page.getByRole('alertdialog', { name: 'Rules of the Game' });
    await rules.waitFor();
    const box = (await rules.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.y).toBeGreaterThan(16);
    expect(Math.abs(box.y - (viewport.height - box.y - box.height))).toBeLessThanOrEqual(2);
    expect(Math.abs(box.x - (viewport.width - box.x - box.width))).toBeLessThanOrEqual(2);
    await rules.getByRole('button', { name: 'Play First Round' }).click();
    await rules.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/groups/${groupId}`);
    await page.getByRole('heading', { name: groupName, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Make own picks for this group' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/groups/${groupId}`);
    expect(seen).toEqual([]);
    await context.close();
  });

  it('someone with an account follows the link signed out, signs in instead, and lands in the group', async () => {
    const { page, context } = await newPerson(browser);
    const name = uniqueUsername('Back');
    const email = uniqueEmail('back');
    const session = await apiSession(email, name);
    await restAs(session, 'PATCH', '/users/me/status');

    await page.goto(await inviteLink());
    await waitForPath(page, '/sign-up');
    await page.getByRole('link', { name: 'I already have an account' }).click();
    await waitForPath(page, '/sign-in');
    // The sign-in page itself, as a person sees it: until its code has loaded, the sign-up page (with the
    // same invitation and an Email field) stays on screen under the new address.
    await page.getByRole('heading', { name: 'Welcome Back to First Round' }).waitFor();
    // The invitation stays on screen while they sign in.
    await page.getByRole('region', { name: 'Your invitation' }).getByText(groupName, { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await enterMailedCode(page, email, 'Send Code');
    await page.getByRole('button', { name: 'Verify & Sign In' }).click();
    await waitForPath(page, `/groups/${groupId}`, 20_000);
    await memberView(page, groupName, name);
    expect(await toastText(page)).toContain('You have joined the group');
    await context.close();
  });

  it("a pasted link previews '<owner> invited you to <group> · First Round' with a picture the server serves", async () => {
    const link = await inviteLink();
    const res = await fetch(link, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    const meta = (key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`).exec(html)?.[1];
    const title = `${ownerName} invited you to ${groupName} · First Round`;
    expect(meta('og:title')).toBe(title);
    expect(meta('twitter:title')).toBe(title);
    expect(meta('twitter:card')).toBe('summary_large_image');
    expect(meta('og:description')).toMatch(/\d+ members? · Picks lock /);
    const image = meta('og:image')!;
    expect(meta('twitter:image')).toBe(image);
    expect(new URL(image).pathname).toBe('/og-invite.png');
    const picture = await fetch(new URL('/og-invite.png', BASE_URL));
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    // The same page still runs the app: the module script, no inline one.
    expect(html).toMatch(/<script type="module"[^>]* src="\/assets\/[\w-]+\.js"><\/script>/);
    expect(html.match(/<script\b[^>]*>/g)!.every((tag) => tag.includes(' src='))).toBe(true);
  });

  it('the owner shares the invite with a QR code and changes the group password', async () => {
    const { page, context } = await newPerson(browser);
    const name = uniqueUsername('Boss');
    const email = uniqueEmail('boss');
    const session = await apiSession(email, name);
    await restAs(session, 'PATCH', '/users/me/status');
    const crew = `Password Crew ${Date.now().toString(36)}`;
    const id = Number((await restAs(session, 'POST', '/groups', { name: crew, is_public: false, picks_public: false })).group_id);
    await signInThroughUi(page, email);
    await page.goto(`/groups/${id}`);
    await page.getByRole('heading', { name: crew, level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const url = await page.getByRole('textbox', { name: 'Invite link' }).inputValue();
    expect(url).toMatch(new RegExp(`^${BASE_URL}/groups/join/[A-Za-z0-9_-]+$`));
    await page.getByRole('button', { name: 'QR code' }).click();
    const qr = page.getByRole('img', { name: `QR code of the invite link to ${crew}` });
    await qr.waitFor();
    expect(await qr.evaluate((svg) => svg.tagName.toLowerCase())).toBe('svg');

    await page.getByTestId('password-state').getByText('No password').waitFor();
    await page.getByRole('button', { name: 'Set a Password' }).click();
    await page.getByLabel('New password').fill('open sesame');
    await page.getByRole('button', { name: 'Save Password' }).click();
    expect(await toastText(page)).toContain('Group password updated');
    await page.getByTestId('password-state').getByText('Password set').waitFor();
    // The server has it: a join by id now needs it.
    const outsider = await apiSession(uniqueEmail('out'), uniqueUsername('Out'));
    await expect(restAs(outsider, 'POST', '/groups/join', { group_id: id })).rejects.toThrow(/403/);
    await restAs(outsider, 'POST', '/groups/join', { group_id: id, password: 'open sesame' });
    await page.getByRole('button', { name: 'Remove Password' }).click();
    await page.getByTestId('password-state').getByText('No password').waitFor();
    await context.close();
  });

  // A private group answers a non-member 404, as no group does (a cached error); a public one with the 'not a member'
  // view and its Join button (cached answers that say "not a member").
  it.each([
    ['a private group', () => groupId, () => groupName],
    ['a public group', () => publicId, () => publicName],
  ])('someone signed in who was turned away from %s joins through a link and is let in at once', async (_kind, id, nameOf) => {
    const { page, context } = await newPerson(browser);
    const seen = await watchForText(context, [NOT_A_MEMBER, LOAD_ERROR]);
    const name = uniqueUsername('Late');
    const email = uniqueEmail('late');
    // An account that has played before (no first-login rules), signed in through the browser.
    const session = await apiSession(email, name);
    await restAs(session, 'PATCH', '/users/me/status');
    await signInThroughUi(page, email);

    // Before the join the group turns them away, and that answer is now in the page's cache.
    await page.goto(`/groups/${id()}`);
    await page.getByText(NOT_A_MEMBER).first().waitFor();
    const link = new URL(await inviteLink(id()));
    await slowAfterJoin(page);
    // The link opened inside the running app (same document, same cache), as an in-app link would.
    const armedAt = await page.evaluate<number>(
      `(() => { const at = performance.now(); history.pushState({}, '', ${JSON.stringify(link.pathname)}); dispatchEvent(new PopStateEvent('popstate')); return at; })()`,
    );
    await waitForPath(page, `/groups/${id()}`);
    await page.getByRole('list', { name: 'Members' }).or(page.getByText(NOT_A_MEMBER)).or(page.getByText(LOAD_ERROR)).first().waitFor();
    expect(seen.filter((s) => s.at >= armedAt)).toEqual([]);
    await memberView(page, nameOf(), name);
    expect(await toastText(page)).toContain('You have joined the group');
    expect(seen.filter((s) => s.at >= armedAt)).toEqual([]);
    await context.close();
  });
});
