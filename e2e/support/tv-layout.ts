import type { Page } from 'playwright-core';

/** The TV view's smallest text: read from across a room. */
export const TV_MIN_FONT_PX = 28;

/**
 * What breaks the TV view's layout at the page's viewport, in words (empty: nothing): the document
 * scrolling either way, any visible element ending outside the viewport, an element wider inside than it
 * is (text overflowing its box, apart from a name cut with an ellipsis on purpose), and any visible text
 * smaller than TV_MIN_FONT_PX.
 */
export async function tvLayoutProblems(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const problems = [];
    const vw = window.innerWidth, vh = window.innerHeight;
    const root = document.documentElement;
    if (root.scrollWidth > vw) problems.push('document scrolls sideways: ' + root.scrollWidth + ' > ' + vw);
    if (root.scrollHeight > vh) problems.push('document scrolls down: ' + root.scrollHeight + ' > ' + vh);
    const name = (el) => el.tagName.toLowerCase() + (el.dataset.testid ? '[' + el.dataset.testid + ']' : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
    for (const el of document.querySelectorAll('main *')) {
      const style = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      if (style.visibility === 'hidden' || style.display === 'none' || (r.width === 0 && r.height === 0)) continue;
      if (r.right > vw + 0.5 || r.bottom > vh + 0.5 || r.left < -0.5 || r.top < -0.5) problems.push('outside the viewport: ' + name(el) + ' ' + JSON.stringify([r.left, r.top, r.right, r.bottom]));
      if (el.scrollWidth > el.clientWidth + 1 && style.textOverflow !== 'ellipsis' && style.overflowX !== 'visible') problems.push('overflows its box: ' + name(el));
      const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
      if (ownText && parseFloat(style.fontSize) < ${TV_MIN_FONT_PX}) problems.push('text below ${TV_MIN_FONT_PX} px (' + style.fontSize + '): ' + name(el));
    }
    return problems;
  })()`);
}
