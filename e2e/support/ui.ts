import { expect } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { readCode } from './idp';

/** Waits until the page's path (and query) matches. */
export async function waitForPath(page: Page, path: string | RegExp, timeout = 15_000) {
  await page.waitForURL((url) => (typeof path === 'string' ? url.pathname + url.search === path || url.pathname === path : path.test(url.pathname + url.search)), { timeout });
}

/**
 * Clicks the button that mails a one-time code ('Send Code', 'Sign Up') and types the code in, as a person
 * does: the code step shows first, then the mail sent since the click is read. When the provider asks to
 * wait ("Please wait N seconds": one code a minute per address), it waits as asked and clicks again. Else
 * a missing code step fails saying what happened: the page's alert, whether a request went out, what the
 * Email field held.
 */
export async function enterMailedCode(page: Page, email: string, button: string) {
  let since = Date.now();
  let asked = 0;
  const onRequest = (request: Request) => {
    if (/\/idp\/sign-(in|up)$/.test(new URL(request.url()).pathname)) asked++;
  };
  page.on('request', onRequest);
  const send = page.getByRole('button', { name: button, exact: true });
  const codeBox = page.getByRole('textbox', { name: 'Verification code' });
  const throttled = page.getByRole('alert').filter({ hasText: /Please wait \d+ seconds/ });
  try {
    await send.click();
    await codeBox.or(throttled).waitFor({ timeout: 20_000 });
    if (await throttled.isVisible()) {
      const seconds = Number((await throttled.innerText()).match(/wait (\d+) seconds/)?.[1] ?? 60);
      await page.waitForTimeout(seconds * 1000 + 500);
      since = Date.now();
      await send.click();
      await codeBox.waitFor({ timeout: 20_000 });
    }
  } catch (error) {
    const said = (await page.getByRole('alert').allInnerTexts()).join(' | ') || 'no alert';
    const field = await page.getByRole('textbox', { name: 'Email' }).inputValue().catch(() => '(no Email field)');
    throw new Error(`No code step after '${button}' at ${page.url()}: ${said}; requests sent: ${asked}; Email field: "${field}"`, { cause: error });
  } finally {
    page.off('request', onRequest);
  }
  await codeBox.fill(await readCode(email, since));
}

/** Sign up through the UI with the code from the development outbox; ends on /groups. */
export async function signUpThroughUi(page: Page, email: string, username: string) {
  await page.goto('/sign-up');
  await page.getByRole('heading', { name: 'Join the First Round' }).waitFor();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await enterMailedCode(page, email, 'Sign Up');
  await page.getByRole('button', { name: 'Verify & Create Account' }).click();
  await waitForPath(page, '/groups');
}

/** Sign in through the UI; ends on /groups. */
export async function signInThroughUi(page: Page, email: string) {
  await page.goto('/sign-in');
  await page.getByRole('heading', { name: 'Welcome Back to First Round' }).waitFor();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await enterMailedCode(page, email, 'Send Code');
  await page.getByRole('button', { name: 'Verify & Sign In' }).click();
  await waitForPath(page, '/groups');
}

/** Closes the first-login rules with its only button; ends on /my-picks. */
export async function acceptRules(page: Page) {
  const dialog = page.getByRole('alertdialog', { name: 'Rules of the Game' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Play First Round' }).click();
  await waitForPath(page, '/my-picks');
  await dialog.waitFor({ state: 'hidden' });
}

/** Toggles a player row on the selection screen by its name. */
export async function togglePlayer(page: Page, name: string) {
  await page.getByRole('button', { name }).click();
}

/**
 * The draft-night strip's headline ('LIVE Pick 14 of 32 · Tyler Warren, TE, Penn State · your entry ✓')
 * once it contains `text` (matched in its text, whitespace collapsed).
 */
export function liveStrip(page: Page, text?: string) {
  const headline = page.getByRole('region', { name: 'Draft live' }).getByRole('status');
  return text === undefined ? headline : headline.filter({ hasText: text });
}

/** The text of the single toast on screen. */
export async function toastText(page: Page): Promise<string> {
  const toast = page.locator('[data-scope="toast"][data-part="root"]').first();
  await toast.waitFor();
  return (await toast.innerText()).replace(/\s+/g, ' ').trim();
}

export async function expectNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  expect(overflow).toBeLessThanOrEqual(0);
}

/**
 * How far the page reaches past the viewport's right edge, in px (0 when it fits): the document's scroll
 * width against the window, and every visible element that is not inside a box that clips or scrolls it
 * (a truncated name, the ticker that scrolls sideways on purpose). The app hides horizontal overflow on
 * <html>, so a page could be cut off without scrolling: both are measured.
 */
export async function sidewaysOverflow(page: Page): Promise<{ scroll: number; element: number; what: string | null }> {
  return page.evaluate<{ scroll: number; element: number; what: string | null }>(`(() => {
    const vw = document.documentElement.clientWidth;
    const clipped = (el) => {
      for (let p = el.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true;
      }
      return false;
    };
    let element = 0;
    let what = null;
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.right <= vw + 0.5 || clipped(el)) continue;
      if (r.right - vw > element) {
        element = r.right - vw;
        what = el.tagName.toLowerCase() + (el.textContent ? ': ' + el.textContent.trim().slice(0, 60) : '');
      }
    }
    return { scroll: document.documentElement.scrollWidth - window.innerWidth, element, what };
  })()`);
}

/**
 * Chooses a viewing delay of `seconds` from the live page's offer ("Watching on TV", at the page's end while
 * live) as a viewer does, and waits for the badge at the top ("Delayed N s" with "Catch up").
 */
export async function chooseViewingDelay(page: Page, seconds: number) {
  const offer = page.getByRole('region', { name: 'Watching on TV' });
  await offer.getByRole('combobox', { name: 'Watching on' }).selectOption({ label: 'Another delay (seconds)' });
  await offer.getByRole('spinbutton', { name: 'Seconds behind' }).fill(String(seconds));
  const bar = page.getByRole('region', { name: 'Viewing delay' });
  await bar.getByText(`Delayed ${seconds} s`).waitFor();
  await bar.getByRole('button', { name: 'Catch up' }).waitFor();
}
