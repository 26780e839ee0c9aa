import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp({ env: { IDP_IP_RATE_LIMIT: '2' }, deps: { idpLimits: { requestsPerIpPerMinute: 2 } } });
});
afterAll(async () => t.close());

describe('transport details REST clients rely on', () => {
  it('ignores X-Forwarded-For unless proxies are trusted, so the per-IP limit cannot be dodged', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.request('POST', '/idp/sign-up', {
        body: { email: `spoof${i}@example.com`, username: `spoof${i}` },
        headers: { 'x-forwarded-for': `10.0.0.${i}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(statuses.slice(2)).toEqual([429, 429]);
  });

  it('accepts bodyless calls that declare JSON', async () => {
    const other = await createTestApp();
    try {
      user = await other.signUp('bodyless');
      const res = await other.request('PATCH', '/users/me/status', { user, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ is_first_login: false });
      const bad = await other.request('POST', '/api/groups', { user, headers: { 'content-type': 'application/json' }, body: '{not json' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ message: 'Request body is not valid JSON' });
    } finally {
      await other.close();
    }
  });
});
