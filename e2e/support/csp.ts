import type { BrowserContext, Page } from 'playwright-core';

export interface CspViolation {
  directive: string;
  blocked: string;
  sample: string;
  source: string;
  path: string;
}

/** Pushes every `securitypolicyviolation` of the document into `window.__cspViolations` and reports it. */
const LISTENER = `(() => {
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    const v = { directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample || '', source: e.sourceFile + ':' + e.lineNumber, path: location.pathname };
    window.__cspViolations.push(v);
    window.__reportCspViolation?.(v).catch?.(() => undefined);
  }, true);
})();`;

/**
 * Watches a browser context for Content-Security-Policy trouble on every page it opens, across full
 * navigations: violation events (kept in the page as `window.__cspViolations` and reported here, so a
 * reload loses none), console messages that mention the policy, and uncaught page errors.
 */
export async function watchCsp(context: BrowserContext) {
  const violations: CspViolation[] = [];
  const consoleMessages: string[] = [];
  const pageErrors: string[] = [];
  await context.exposeFunction('__reportCspViolation', (v: CspViolation) => {
    violations.push(v);
  });
  await context.addInitScript(LISTENER);
  const watchPage = (page: Page) => {
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') consoleMessages.push(`${msg.type()} on ${new URL(page.url()).pathname}: ${msg.text()}`);
    });
    page.on('pageerror', (error) => pageErrors.push(`${new URL(page.url()).pathname}: ${error.message}`));
  };
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
  return {
    violations,
    pageErrors,
    /** Console messages about the policy ("Refused to …", "Content Security Policy"). */
    cspConsoleMessages: () => consoleMessages.filter((m) => /content.security.policy|refused to/i.test(m)),
    consoleMessages,
  };
}

/**
 * Lets events already queued in the page run (a violation is reported in a task of its own), then
 * returns the violations the page holds.
 */
export async function settledViolations(page: Page): Promise<CspViolation[]> {
  return page.evaluate<CspViolation[]>('new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(window.__cspViolations ?? []), 0)))');
}
