import type { Page } from 'playwright-core';

/** The TV view's smallest text: read from across a room. */
export const TV_MIN_FONT_PX = 28;

/**
 * What breaks the TV view's layout at the page's viewport, in words (empty: nothing): the document
 * scrolling either way, any visible element ending outside the viewport, an element wider inside than it
 * is (text overflowing its box, apart from a name cut with an ellipsis on purpose), text cut off: reaching
 * past a box that hides its overflow, or taller than its own such box (apart from a name cut on purpose), and any visible text smaller than TV_MIN_FONT_PX.
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
      if (!ownText) continue;
      // A name cut on purpose: one line with an ellipsis (its glyphs may reach a pixel past a tight line
      // height), or clamped to its lines.
      const onPurpose = style.textOverflow === 'ellipsis' || (style.webkitLineClamp !== undefined && style.webkitLineClamp !== 'none');
      if (el.scrollHeight > el.clientHeight + 1 && style.overflowY !== 'visible' && !onPurpose) problems.push('cut at its bottom: ' + name(el));
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const as = getComputedStyle(a);
        if (as.overflowX === 'visible' && as.overflowY === 'visible') continue;
        const ar = a.getBoundingClientRect();
        if (r.right > ar.right + 0.5 || r.bottom > ar.bottom + 0.5 || r.left < ar.left - 0.5 || r.top < ar.top - 0.5) {
          problems.push('cut off by ' + name(a) + ': ' + name(el));
          break;
        }
      }
    }
    return problems;
  })()`);
}

/** The longest words a TV row's odds can say: a chance reads at most five characters ('>99 %', '100 %'). */
export const LONGEST_ODDS = '>99 % to survive · >99 % to win';

/**
 * Whether the longest odds words fit on one line where the first row's odds are (data-testid 'tv-odds'),
 * in its font: a copy of that line with LONGEST_ODDS, measured and taken away. null: no row shows odds.
 */
export async function longestOddsFit(page: Page): Promise<{ fits: boolean; width: number; room: number } | null> {
  return page.evaluate(`(() => {
    const line = document.querySelector('[data-testid="tv-odds"]');
    if (!line) return null;
    const copy = line.cloneNode(false);
    copy.removeAttribute('data-testid');
    copy.style.whiteSpace = 'nowrap';
    copy.style.width = 'max-content';
    copy.textContent = ${JSON.stringify(LONGEST_ODDS)};
    line.parentElement.appendChild(copy);
    const width = copy.getBoundingClientRect().width;
    copy.remove();
    const room = line.parentElement.clientWidth;
    return { fits: width <= room, width, room };
  })()`);
}
