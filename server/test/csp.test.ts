import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from './support/test-app.js';
import { clerkFrontendApiHost } from '../src/content-security-policy.js';

/**
 * The Content-Security-Policy header, read the way a browser gets it: on the SPA's HTML (pages, the
 * not-found fallback, the invite landing) and on JSON answers, in local mode and in Clerk mode.
 */

const CLERK_HOST = 'clerk.first-round.example';
const publishableKey = (host: string, kind = 'test') => `pk_${kind}_${Buffer.from(`${host}$`).toString('base64')}`;
const clerkJwtKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

const LOCAL_POLICY = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'"],
  'connect-src': ["'self'"],
};

const CLERK_POLICY = {
  ...LOCAL_POLICY,
  'script-src': ["'self'", `https://${CLERK_HOST}`, 'https://challenges.cloudflare.com'],
  'connect-src': ["'self'", `https://${CLERK_HOST}`],
  'img-src': ["'self'", 'https://img.clerk.com'],
  'worker-src': ["'self'", 'blob:'],
  'frame-src': ['https://challenges.cloudflare.com'],
};

/** The header as directive → sources; a directive sent twice fails the test (browsers ignore the second). */
function policyOf(res: LightMyRequestResponse): Record<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(header, `no Content-Security-Policy on ${res.statusCode} ${res.headers['content-type']}`).toBeTypeOf('string');
  const policy: Record<string, string[]> = {};
  for (const part of String(header).split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    expect(policy, `${name} sent twice`).not.toHaveProperty(name);
    policy[name] = sources;
  }
  return policy;
}

/** What an API answer carries (OWASP's REST set): opened as a page, it may load, run and be framed by nothing. */
const API_POLICY = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] };

const DOCUMENTS = ['home', 'page', 'groupPage', 'inviteLanding', 'notFoundFallback'] as const;
const API_ANSWERS = ['json', 'jsonError', 'apiNotFound', 'hotRead'] as const;

const html = { accept: 'text/html,application/xhtml+xml' };

/** What a browser loads (documents) and what REST and tRPC clients call (API answers). */
async function everyKindOfResponse(t: TestApp) {
  const user = await t.signUp();
  const responses = {
    home: await t.request('GET', '/', { headers: html }),
    page: await t.request('GET', '/groups', { headers: html }),
    groupPage: await t.request('GET', '/groups/5', { headers: html }),
    inviteLanding: await t.request('GET', '/groups/join/some-token', { headers: html }),
    notFoundFallback: await t.request('GET', '/no/such/page', { headers: html }),
    json: await t.request('GET', '/api/groups/user', { user }),
    jsonError: await t.request('GET', '/api/groups/user'),
    apiNotFound: await t.request('GET', '/api/nothing-here'),
    hotRead: await t.request('GET', '/trpc/draft.status', { user }),
  };
  for (const name of DOCUMENTS) {
    expect(responses[name].statusCode, name).toBe(200);
    expect(responses[name].headers['content-type'], name).toMatch(/^text\/html/);
  }
  expect(responses.json.statusCode).toBe(200);
  expect(responses.jsonError.statusCode).toBe(401);
  expect(responses.apiNotFound.statusCode).toBe(404);
  expect(responses.hotRead.statusCode).toBe(200);
  return responses;
}

describe('content security policy, built-in sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A publishable key alone (no Clerk secret or JWT key) does not switch Clerk on: no Clerk sources.
    t = await createTestApp({ seedBoard: false, env: { CLERK_PUBLISHABLE_KEY: publishableKey(CLERK_HOST) } });
  });
  afterAll(async () => t?.close());

  it('sends exactly the SPA policy on pages, the not-found fallback and the invite landing', async () => {
    const responses = await everyKindOfResponse(t);
    for (const name of DOCUMENTS) expect(policyOf(responses[name]), name).toEqual(LOCAL_POLICY);
  });

  it('sends API answers the policy that lets nothing load, run or frame them, and the other API headers', async () => {
    const responses = await everyKindOfResponse(t);
    for (const name of API_ANSWERS) {
      expect(policyOf(responses[name]), name).toEqual(API_POLICY);
      expect(responses[name].headers['x-content-type-options'], name).toBe('nosniff');
      expect(responses[name].headers['x-frame-options'], name).toBe('DENY');
      expect(responses[name].headers['strict-transport-security'], name).toMatch(/^max-age=31536000/);
      // What only a document uses stays on documents.
      expect(responses[name].headers, name).not.toHaveProperty('cross-origin-opener-policy');
    }
    expect(responses.home.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('gives the pages served under /api (the unsubscribe answer) the page policy', async () => {
    const res = await t.request('GET', '/api/reminders/unsubscribe?p=nobody&sig=bad', { headers: html });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(policyOf(res)).toEqual(LOCAL_POLICY);
  });

  it('serves HTML with no inline script, which script-src self would block', async () => {
    const page = await t.request('GET', '/groups', { headers: html });
    const scripts = page.body.match(/<script\b[^>]*>/gi) ?? [];
    for (const tag of scripts) expect(tag).toMatch(/\ssrc=/);
    expect(page.body).not.toMatch(/<script\b[^>]*>\s*[^<\s]/i);
    expect(page.body).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it('forbids framing in the older header too', async () => {
    const page = await t.request('GET', '/groups', { headers: html });
    expect(page.headers['x-frame-options']).toBe('DENY');
  });
});

describe('content security policy, Clerk', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seedBoard: false, env: { CLERK_JWT_KEY: clerkJwtKey, CLERK_PUBLISHABLE_KEY: publishableKey(CLERK_HOST) } });
  });
  afterAll(async () => t?.close());

  it("adds Clerk's frontend API (from the publishable key), images, workers and bot protection", async () => {
    for (const path of ['/', '/sign-in', '/groups/join/some-token', '/no/such/page']) {
      expect(policyOf(await t.request('GET', path, { headers: html })), path).toEqual(CLERK_POLICY);
    }
    const config = await t.request('GET', '/api/client-config');
    expect(config.json()).toMatchObject({ auth_provider: 'clerk' });
    // An API answer allows nothing, Clerk or not.
    expect(policyOf(config)).toEqual(API_POLICY);
  });
});

describe("reading Clerk's frontend API host from a publishable key", () => {
  it('decodes development and production keys', () => {
    expect(clerkFrontendApiHost(publishableKey('happy-otter-12.clerk.accounts.dev'))).toBe('happy-otter-12.clerk.accounts.dev');
    expect(clerkFrontendApiHost(publishableKey('clerk.first-round.example', 'live'))).toBe('clerk.first-round.example');
  });

  it('adds nothing for a missing, malformed or hostile key', () => {
    expect(clerkFrontendApiHost(undefined)).toBeNull();
    expect(clerkFrontendApiHost('pk_test_')).toBeNull();
    expect(clerkFrontendApiHost('pk_test_not-base64-of-a-host')).toBeNull();
    expect(clerkFrontendApiHost(`pk_test_${Buffer.from('clerk.example.com').toString('base64')}`)).toBeNull(); // no trailing $
    // A key that would smuggle a wildcard source or a second directive into the header.
    expect(clerkFrontendApiHost(publishableKey("x.example; script-src 'unsafe-inline'"))).toBeNull();
    expect(clerkFrontendApiHost(publishableKey('* data:'))).toBeNull();
  });
});
