import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Cross-origin callers: only the configured origins (CORS_ORIGINS, PUBLIC_URL, the server's own) may call
 * with credentials, and answers that depend on the caller's origin say so in `Vary`, so a browser's cache
 * never hands one origin an answer that was allowed for another.
 */
const ALLOWED = 'https://watch-party.example';
const OTHER = 'https://evil.example';

describe('CORS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seedBoard: false, env: { CORS_ORIGINS: ALLOWED } });
  });
  afterAll(async () => t?.close());

  it('answers a preflight from a configured origin, and gives another origin nothing', async () => {
    const preflight = (origin: string) =>
      t.request('OPTIONS', '/api/groups/user', {
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
    const allowed = await preflight(ALLOWED);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    expect(String(allowed.headers['access-control-allow-headers'])).toMatch(/authorization/i);
    const refused = await preflight(OTHER);
    expect(refused.headers).not.toHaveProperty('access-control-allow-origin');
  });

  it('says Vary: Origin and Authorization on the cached hot reads, over tRPC and REST', async () => {
    const user = await t.signUp();
    for (const path of ['/trpc/draft.status', '/api/draft/status', '/trpc/auth.me', '/api/auth/me']) {
      const res = await t.request('GET', path, { user, headers: { origin: ALLOWED } });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['access-control-allow-origin'], path).toBe(ALLOWED);
      const vary = String(res.headers.vary).toLowerCase().split(/\s*,\s*/);
      expect(vary, path).toContain('origin');
      expect(vary, path).toContain('authorization');
      const other = await t.request('GET', path, { user, headers: { origin: OTHER } });
      expect(other.headers, path).not.toHaveProperty('access-control-allow-origin');
    }
  });
});
