import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';

const require = createRequire(import.meta.url);
/** axe-core's browser build, from node_modules: the pages never fetch anything from the network for it. */
const AXE_SOURCE = require.resolve('axe-core/axe.min.js');
/** A same-origin address the browser context answers itself, so the page's policy (script-src 'self') allows it. */
const AXE_URL = '/__e2e/axe.min.js';

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** Serves axe-core to every page of the context at AXE_URL, from the file on disk. */
export async function serveAxe(context: BrowserContext) {
  await context.route(`**${AXE_URL}`, (route) => route.fulfill({ path: AXE_SOURCE, contentType: 'text/javascript' }));
}

interface RawNode {
  target: unknown[];
  failureSummary?: string;
  any?: { data?: { contrastRatio?: number; expectedContrastRatio?: string; fgColor?: string; bgColor?: string } | null }[];
}
interface RawResult {
  id: string;
  impact: string | null;
  help: string;
  nodes: RawNode[];
}

const ORDER = ['minor', 'moderate', 'serious', 'critical'];

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules, plus best practices) on the page as it is, and returns the
 * violations of at least `minImpact` ('serious' by default: serious and critical). Contrast that axe only
 * marks "needs review" (a score of one digit is "too short to tell if it is text") counts too whenever
 * axe could measure both colours and found them below the ratio it expected.
 */
export async function axeFindings(page: Page, minImpact: 'minor' | 'moderate' | 'serious' | 'critical' = 'serious'): Promise<AxeFinding[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ url: AXE_URL });
  const { violations, incomplete } = await page.evaluate<{ violations: RawResult[]; incomplete: RawResult[] }>(`
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, resultTypes: ['violations', 'incomplete'] })
      .then((r) => {
        const plain = (v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary, any: n.any.map((a) => ({ data: a.data })) })) });
        return { violations: r.violations.map(plain), incomplete: r.incomplete.filter((v) => v.id === 'color-contrast').map(plain) };
      })
  `);
  const target = (n: RawNode) => n.target.map(String).join(' ');
  const found = violations
    .filter((v) => ORDER.indexOf(v.impact ?? 'minor') >= ORDER.indexOf(minImpact))
    .map((v) => ({ rule: v.id, impact: v.impact ?? '', help: v.help, nodes: v.nodes.map((n) => ({ target: target(n), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim() })) }));
  const lowContrast = incomplete.flatMap((v) =>
    v.nodes.flatMap((n) =>
      (n.any ?? [])
        .map((a) => a.data)
        .filter((d) => typeof d?.contrastRatio === 'number' && d.contrastRatio > 0 && d.contrastRatio < Number.parseFloat(d.expectedContrastRatio ?? '0'))
        .map((d) => ({ target: target(n), summary: `${d!.contrastRatio}:1 (${d!.fgColor} on ${d!.bgColor}), expected ${d!.expectedContrastRatio}` })),
    ),
  );
  if (lowContrast.length > 0) found.push({ rule: 'color-contrast (measured, marked for review)', impact: 'serious', help: 'Text must meet minimum color contrast ratio thresholds', nodes: lowContrast });
  return found;
}
