import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers (CSP, frame, HSTS, …) for our options, worked out once at start: they never
 * depend on the request, and working them out per request cost as much as a whole hot read.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let ran = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    ran = true;
  });
  // Helmet's middleware is synchronous; if it ever stops being so, fail at start rather than send nothing.
  if (!ran) throw new Error('helmet did not finish synchronously: security headers would be missing');
  return headers;
}

/**
 * The headers of an API answer (JSON, the live stream, the share card's picture): OWASP's REST Security
 * Cheat Sheet set. The rest of helmet's set (COOP, Origin-Agent-Cluster, DNS prefetch, referrer, …) tells a
 * browser how to treat a *document*, which an API answer never is; they were half of every hot read's
 * header bytes and a tenth of its CPU (docs/benchmarks.md). The policy is stricter than the pages': an
 * answer opened as a page may load nothing, run nothing and be framed by no one.
 */
export function apiSecurityHeaders(documentHeaders: Record<string, string>): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'strict-transport-security': documentHeaders['strict-transport-security'] ?? 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
  };
}

/**
 * Whether a request is for the API rather than a page: `/api/…` and `/trpc/…` (the REST rows' unprefixed
 * spellings also serve pages, so they keep the document headers). The few pages served under `/api`
 * (the unsubscribe link's answer) ask for the document headers themselves (`reply.asDocument()`).
 */
export function isApiPath(url: string): boolean {
  return url.startsWith('/api/') || url.startsWith('/trpc/');
}
