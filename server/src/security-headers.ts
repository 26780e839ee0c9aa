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
