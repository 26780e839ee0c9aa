import { expect } from 'vitest';
import type { TestApp } from '../support/test-app.js';

/** A mail in the built-in identity provider's outbox (GET /idp/dev/outbox). */
export interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
  code: string | null;
  sent_at: string;
}

/** The built-in identity provider's routes as a client calls them, on the app `app()` gives. */
export function idpClient(app: () => TestApp) {
  let n = 0;
  const post = (url: string, body: unknown, headers?: Record<string, string>) => app().request('POST', url, { body, headers });
  return {
    /** A new address and username, unused by any other test in the file. */
    fresh(prefix: string) {
      const name = `${prefix}${++n}`;
      return { email: `${name}@example.com`, username: name };
    },
    async outbox(email: string): Promise<OutboxEntry[]> {
      const res = await app().request('GET', `/idp/dev/outbox?email=${encodeURIComponent(email)}`);
      expect(res.statusCode).toBe(200);
      return res.json() as OutboxEntry[];
    },
    post,
    signUp: (email: string, username?: string) => post('/idp/sign-up', username === undefined ? { email } : { email, username }),
    verify: (email: string, code: string, username?: string) => post('/idp/verify', username === undefined ? { email, code } : { email, code, username }),
  };
}
