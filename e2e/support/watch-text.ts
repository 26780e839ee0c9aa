import type { BrowserContext } from 'playwright-core';

export interface TextSighting {
  text: string;
  path: string;
  /** performance.now() in the page when the text was added to the DOM. */
  at: number;
  /** Date.now() in the page then: the test's own clock (one machine), to tell a sighting's time from when it is checked. */
  wallAt: number;
  /** The accessible label of the nearest labelled element around it ('Earlier picks'), or null. */
  within: string | null;
}

/**
 * Records every time one of `texts` is ADDED to the DOM of any page of the context, however briefly:
 * a MutationObserver (installed before the app's own scripts run) looks at every added node and every
 * changed text node, so a view that React renders and replaces a moment later is caught too, even when
 * it never lasts long enough for a screenshot or a locator. Sightings are kept in the page
 * (`window.__textSightings`) and reported here, so navigations lose none.
 */
export async function watchForText(context: BrowserContext, texts: string[]) {
  const sightings: TextSighting[] = [];
  await context.exposeFunction('__reportTextSighting', (s: TextSighting) => {
    sightings.push(s);
  });
  // A string, as the page runs it (this project's TypeScript has no DOM types).
  await context.addInitScript(`(() => {
    const needles = ${JSON.stringify(texts)};
    window.__textSightings = [];
    const check = (content, node) => {
      if (!content) return;
      const el = node && (node.nodeType === 1 ? node : node.parentElement);
      const within = el?.closest?.('[aria-label]')?.getAttribute('aria-label') ?? null;
      for (const text of needles) {
        if (!content.includes(text)) continue;
        const s = { text, path: location.pathname, at: performance.now(), wallAt: Date.now(), within };
        window.__textSightings.push(s);
        window.__reportTextSighting?.(s)?.catch?.(() => undefined);
      }
    };
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'characterData') check(r.target.textContent, r.target);
        r.addedNodes.forEach((n) => check(n.textContent, n));
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  })();`);
  return sightings;
}
