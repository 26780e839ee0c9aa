/**
 * Bad input on every REST row: wrong types, missing and unknown fields, bad ids (negative, zero, huge,
 * non-numeric, fractional, absent), oversized and malformed bodies. Always a 4xx with a non-empty message,
 * never a 5xx, and nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { GroupDto } from '@first-round/shared/schemas';
import { restRoutes, type RestRoute } from '../../src/rest/routes.js';
import { z } from 'zod';
import { appRouter } from '../../src/trpc/root.js';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { boardIds, createGroup, joinGroup, operatorReset, operatorStart, tableCounts } from './helpers.js';

let t: TestApp;
let owner: TestUser;
let member: TestUser;
let admin: TestUser;
let group: GroupDto;
let players: number[];

beforeAll(async () => {
  t = await createTestApp();
  [owner, member, admin] = [await t.signUp('badowner'), await t.signUp('badmember'), await t.signUp('badop', ADMIN_EMAIL)];
  for (const user of [owner, member, admin]) await t.request('GET', '/api/auth/me', { user });
  players = await boardIds(t);
  group = await createGroup(t, owner, { password: 'secret' });
  await joinGroup(t, member, group.id, 'secret');
});
afterAll(async () => t?.close());

type FieldKind = 'id' | 'int' | 'string' | 'nonEmptyString' | 'boolean' | 'idArray';
interface BodySpec {
  /** A body that would be accepted (as `user`), so each variant differs from it in one way only. */
  valid: () => Record<string, unknown>;
  fields: Record<string, { kind: FieldKind; required: boolean }>;
}

/** Body-taking rows: their valid body and the type of each field. */
const BODIES: Record<string, BodySpec> = {
  'POST /auth/update-screen-name': { valid: () => ({ screen_name: 'fine_name' }), fields: { screen_name: { kind: 'nonEmptyString', required: true } } },
  'POST /auth/migrate-participant-id': {
    valid: () => ({ temp_id: 'temp_abc', clerk_id: owner.id }),
    fields: { temp_id: { kind: 'nonEmptyString', required: true }, clerk_id: { kind: 'nonEmptyString', required: true } },
  },
  'POST /groups/join-links': {
    valid: () => ({ group_id: group.id, expiration_hours: 24 }),
    fields: { group_id: { kind: 'id', required: true }, expiration_hours: { kind: 'int', required: false } },
  },
  'POST /groups/create-simple': { valid: () => ({ name: 'Fine name' }), fields: { name: { kind: 'nonEmptyString', required: true } } },
  'POST /groups/join': {
    valid: () => ({ group_id: group.id, password: 'secret' }),
    fields: { group_id: { kind: 'id', required: true }, password: { kind: 'string', required: false } },
  },
  'POST /groups': {
    valid: () => ({ name: 'Another fine name', is_public: false, picks_public: false, password: 'x' }),
    fields: {
      name: { kind: 'nonEmptyString', required: true },
      is_public: { kind: 'boolean', required: false },
      picks_public: { kind: 'boolean', required: false },
      password: { kind: 'string', required: false },
    },
  },
  'POST /groups/:id/use-global-picks': { valid: () => ({ use_global_picks: true }), fields: { use_global_picks: { kind: 'boolean', required: true } } },
  'POST /picks/': {
    valid: () => ({ picks: [players[0], players[1]], group_id: group.id }),
    fields: { picks: { kind: 'idArray', required: true }, group_id: { kind: 'id', required: false } },
  },
  'POST /picks': {
    valid: () => ({ picks: [players[0]], group_id: group.id }),
    fields: { picks: { kind: 'idArray', required: true }, group_id: { kind: 'id', required: false } },
  },
  'POST /draft/picks': { valid: () => ({ slot: 1, player_id: players[0] }), fields: { slot: { kind: 'id', required: true }, player_id: { kind: 'id', required: true } } },
};

const HUGE = 99999999999;
const WRONG: Record<FieldKind, unknown[]> = {
  id: [-1, 0, HUGE, 1.5, '1', 'abc', null, true, [], {}],
  int: [0, -5, 721, HUGE, 2.5, '24', null, false, {}],
  string: [123, true, null, [], {}, 'x'.repeat(201), 'a\u0000b'],
  nonEmptyString: ['', '   ', 123, true, null, [], {}, 'x'.repeat(201), 'a\u0000b', '\u0000', 'Ad\u200bmin', 'evil\u202Egnp.exe'],
  boolean: ['true', 1, 0, null, [], {}],
  idArray: ['abc', 5, null, {}, [-1], [0], [HUGE], [1.5], ['1'], [null], Array.from({ length: 1001 }, (_, i) => i + 1)],
};

const BAD_IDS = ['-1', '0', String(HUGE), 'abc', '1.5', '1e3', '%20', '0x10', '%00', '1%00', '%E2%80%8B1'];

/** Who sends each row's requests: the caller the row would accept, so only the input is wrong. */
const userFor = (route: RestRoute) => (route.path.startsWith('/draft') ? admin : route.path === '/groups/:id/use-global-picks' ? member : owner);

function concrete(path: string, params: Record<string, string> = {}) {
  return path
    .replace(':id', params.id ?? String(group.id))
    .replace(':participantId', params.participantId ?? member.id)
    .replace(':token', params.token ?? 'sometoken');
}

async function expectRefused(res: LightMyRequestResponse, what: string) {
  const context = `${what} → ${res.statusCode} ${res.body.slice(0, 200)}`;
  expect(res.statusCode, context).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, context).toBeLessThan(500);
  const body = res.json() as { message?: unknown };
  expect(typeof body.message, context).toBe('string');
  expect((body.message as string).trim().length, context).toBeGreaterThan(0);
}

/** Sends each request and checks it was refused, and that no table changed (bad input never deletes either). */
async function refusedWithoutWrites(route: RestRoute, requests: { what: string; send: () => Promise<LightMyRequestResponse> }[]) {
  const before = await tableCounts(t);
  for (const r of requests) await expectRefused(await r.send(), `${route.method} ${route.path}: ${r.what}`);
  expect(await tableCounts(t), `${route.method} ${route.path}: one of ${requests.map((r) => r.what).join(' | ')} wrote something`).toEqual(before);
}

const key = (r: RestRoute) => `${r.method} ${r.path}`;

/** Rows whose input comes from the path alone (covered by the path tests below). */
const PATH_ONLY = ['POST /groups/:id/leave', 'POST /groups/join-with-link/:token'];

it('knows the body of every row that takes one', () => {
  const withInput = restRoutes.filter((r) => r.method !== 'GET' && r.input).map(key);
  expect([...Object.keys(BODIES), ...PATH_ONLY].sort()).toEqual(withInput.sort());
});

it('accepts the valid bodies the variants are built from', async () => {
  // Sanity: the base bodies are right (checked where accepting them writes nothing lasting).
  const res = await t.request('POST', '/api/groups/join', { user: member, body: BODIES['POST /groups/join']!.valid() });
  expect(res.statusCode).toBe(200);
  const res2 = await t.request('POST', `/api/groups/${group.id}/use-global-picks`, { user: member, body: BODIES['POST /groups/:id/use-global-picks']!.valid() });
  expect(res2.statusCode).toBe(200);
});

describe.each(restRoutes.map((r) => [key(r), r] as const))('%s', (_name, route) => {
  const user = () => userFor(route);
  const isPublic = ['joinLinks.resolve', 'players.list', 'draft.status'].includes(route.procedure);

  it('refuses malformed credentials (401 with a message) and ignores junk query strings, never a 5xx', async () => {
    const url = `/api${concrete(route.path)}`;
    const body = route.method === 'GET' ? undefined : (BODIES[key(route)]?.valid() ?? {});
    for (const authorization of ['Bearer', 'Bearer ', 'Bearer a.b.c', `Basic ${Buffer.from('a:b').toString('base64')}`, `Bearer ${'x'.repeat(5000)}`]) {
      const before = await tableCounts(t);
      const res = await t.request(route.method, url, { body, headers: { authorization } });
      if (isPublic) expect(res.statusCode, authorization).toBeLessThan(500);
      else {
        expect(res.statusCode, `${authorization} → ${res.body}`).toBe(401);
        await expectRefused(res, authorization);
      }
      expect(await tableCounts(t)).toEqual(before);
    }
    if (route.method === 'GET') {
      const res = await t.request('GET', `${url}?x[]=1&x[]=2&group_id&%zz=1&${'q'.repeat(2000)}=1&nul=%00&%00=1`, { user: user() });
      expect(res.statusCode, res.body).toBeLessThan(500);
      if (res.statusCode >= 400) await expectRefused(res, 'junk query');
    }
  });

  if (route.path.includes(':id')) {
    it('refuses bad group ids in the path (negative, zero, huge, non-numeric, fractional) and an absent one', async () => {
      await refusedWithoutWrites(route, [
        ...BAD_IDS.map((id) => ({
          what: `id ${id}`,
          send: () => t.request(route.method, `/api${concrete(route.path, { id })}`, { user: user(), body: route.method === 'GET' ? undefined : (BODIES[key(route)]?.valid() ?? {}) }),
        })),
        { what: 'no id', send: () => t.request(route.method, `/api${concrete(route.path, { id: '' })}`, { user: user(), body: route.method === 'GET' ? undefined : {} }) },
        // An id that is well formed but names no group.
        { what: 'unknown id', send: () => t.request(route.method, `/api${concrete(route.path, { id: '2147483647' })}`, { user: user(), body: route.method === 'GET' ? undefined : (BODIES[key(route)]?.valid() ?? {}) }) },
      ]);
    });
  }

  if (route.path.includes(':token')) {
    it('refuses unknown, over-long and absent tokens', async () => {
      await refusedWithoutWrites(route, [
        { what: 'unknown token', send: () => t.request(route.method, `/api${concrete(route.path, { token: 'nope' })}`, { user: user() }) },
        { what: 'long token', send: () => t.request(route.method, `/api${concrete(route.path, { token: 'x'.repeat(300) })}`, { user: user() }) },
        { what: 'NUL token', send: () => t.request(route.method, `/api${concrete(route.path, { token: 'ab%00cd' })}`, { user: user() }) },
        { what: 'bidi token', send: () => t.request(route.method, `/api${concrete(route.path, { token: 'ab%E2%80%AEcd' })}`, { user: user() }) },
        { what: 'no token', send: () => t.request(route.method, `/api${concrete(route.path, { token: '' })}`, { user: user() }) },
      ]);
    });
  }

  if (route.path.includes(':participantId')) {
    it('refuses unknown and over-long participant ids', async () => {
      await refusedWithoutWrites(route, [
        { what: 'unknown participant', send: () => t.request(route.method, `/api${concrete(route.path, { participantId: 'user_nobody' })}`, { user: member }) },
        { what: 'long participant', send: () => t.request(route.method, `/api${concrete(route.path, { participantId: 'u'.repeat(300) })}`, { user: member }) },
        { what: 'NUL participant', send: () => t.request(route.method, `/api${concrete(route.path, { participantId: 'user_%00x' })}`, { user: member }) },
        { what: 'zero-width participant', send: () => t.request(route.method, `/api${concrete(route.path, { participantId: 'user_%E2%80%8Bx' })}`, { user: member }) },
      ]);
    });
  }

  if (route.path === '/groups/:id/leaderboard') {
    it('refuses bad page values (limit, offset)', async () => {
      const url = `/api${concrete(route.path)}`;
      await refusedWithoutWrites(route, [
        ...[...BAD_IDS, '', '5001'].map((v) => ({ what: `limit=${v}`, send: () => t.request('GET', `${url}?limit=${v}`, { user: user() }) })),
        ...['-1', 'abc', '1.5', '', '99999999999'].map((v) => ({ what: `offset=${v}`, send: () => t.request('GET', `${url}?offset=${v}`, { user: user() }) })),
      ]);
    });
  }

  if (route.path === '/picks/my-picks') {
    it('refuses bad group_id query values', async () => {
      await refusedWithoutWrites(route, [
        ...[...BAD_IDS, ''].map((id) => ({ what: `group_id=${id}`, send: () => t.request('GET', `/api/picks/my-picks?group_id=${id}`, { user: user() }) })),
        { what: 'unknown group', send: () => t.request('GET', `/api/picks/my-picks?group_id=2147483647`, { user: user() }) },
      ]);
    });
  }

  const spec = BODIES[key(route)];
  if (spec) {
    it('refuses wrong types, missing fields, unknown fields and non-object bodies', async () => {
      const url = `/api${concrete(route.path)}`;
      const send = (body: unknown) => () => t.request(route.method, url, { user: user(), body });
      const variants: { what: string; send: () => Promise<LightMyRequestResponse> }[] = [];
      for (const [field, { kind, required }] of Object.entries(spec.fields)) {
        for (const wrong of WRONG[kind]) variants.push({ what: `${field}=${JSON.stringify(wrong).slice(0, 40)}`, send: send({ ...spec.valid(), [field]: wrong }) });
        if (required) {
          const { [field]: _dropped, ...rest } = spec.valid();
          variants.push({ what: `missing ${field}`, send: send(rest) });
        }
      }
      variants.push({ what: 'unknown field', send: send({ ...spec.valid(), admin: true }) });
      variants.push({ what: 'empty object', send: send({}) });
      variants.push({ what: 'array body', send: send([spec.valid()]) });
      variants.push({ what: 'JSON null', send: () => t.request(route.method, url, { user: user(), body: 'null', headers: { 'content-type': 'application/json' } }) });
      variants.push({ what: 'JSON string', send: () => t.request(route.method, url, { user: user(), body: '"text"', headers: { 'content-type': 'application/json' } }) });
      variants.push({ what: 'JSON number', send: () => t.request(route.method, url, { user: user(), body: '42', headers: { 'content-type': 'application/json' } }) });
      await refusedWithoutWrites(route, variants);
    });
  }

  if (route.method !== 'GET') {
    it('refuses malformed and oversized bodies (413 over 100 KB)', async () => {
      const url = `/api${concrete(route.path)}`;
      const big = JSON.stringify({ ...(spec?.valid() ?? {}), padding: 'x'.repeat(101 * 1024) });
      const before = await tableCounts(t);
      const tooLarge = await t.request(route.method, url, { user: user(), body: big, headers: { 'content-type': 'application/json' } });
      expect(tooLarge.statusCode).toBe(413);
      await expectRefused(tooLarge, 'oversized');
      await expectRefused(await t.request(route.method, url, { user: user(), body: '{"broken": ', headers: { 'content-type': 'application/json' } }), 'invalid JSON');
      await expectRefused(await t.request(route.method, url, { user: user(), body: '<x/>', headers: { 'content-type': 'application/xml' } }), 'unsupported type');
      expect(await tableCounts(t)).toEqual(before);
    });
  }
});

describe('bad input after the start', () => {
  it('still answers 4xx, not 5xx, and writes nothing', async () => {
    await operatorStart(t);
    try {
      const before = await tableCounts(t);
      await expectRefused(await t.request('POST', '/api/draft/picks', { user: admin, body: { slot: 0, player_id: players[0] } }), 'slot 0');
      await expectRefused(await t.request('POST', '/api/draft/picks', { user: admin, body: { slot: 1, player_id: HUGE } }), 'huge player');
      await expectRefused(await t.request('POST', '/api/draft/picks', { user: admin, body: { slot: 1, player_id: 999999 } }), 'unknown player');
      await expectRefused(await t.request('POST', '/api/picks/', { user: owner, body: { picks: [] } }), 'no picks');
      expect(await tableCounts(t)).toEqual(before);
    } finally {
      await operatorReset(t);
    }
  });
});

/**
 * The same hostility straight at tRPC: every procedure of the router, as its HTTP method wants. Inputs
 * are built from each procedure's own input schema (every field it takes, with a plausible value), then
 * each string field in turn carries NUL, invisible or bidi characters, and every field gets a wrong type.
 * A NUL is always refused (422) with nothing written; nothing is ever a 5xx.
 */
describe('every tRPC procedure', () => {
  type Def = { type: string; inputs: unknown[] };
  const procedures = Object.entries((appRouter._def as unknown as { procedures: Record<string, { _def: Def }> }).procedures).filter(
    ([, p]) => p._def.type !== 'subscription',
  );
  const sample = (): Record<string, unknown> => ({
    group_id: group.id,
    name: 'Sweep name',
    screen_name: 'sweep_name',
    password: 'secret',
    token: 'sometoken',
    participant_id: member.id,
    temp_id: 'temp_sweep',
    clerk_id: admin.id,
    picks: [players[0]],
    slot: 1,
    player_id: players[0],
    limit: 10,
    offset: 0,
    expiration_hours: 24,
    use_global_picks: true,
    is_public: false,
    picks_public: false,
    lastEventId: '1',
  });
  /** The fields a procedure takes and whether each is a string, from its zod input schemas. */
  function fieldsOf(def: Def): Record<string, 'string' | 'other'> {
    const fields: Record<string, 'string' | 'other'> = {};
    for (const input of def.inputs) {
      const schema = z.toJSONSchema(input as z.ZodType, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, { type?: string }>;
        anyOf?: { properties?: Record<string, { type?: string }> }[];
      };
      const props = schema.properties ?? schema.anyOf?.find((a) => a.properties)?.properties ?? {};
      for (const [name, prop] of Object.entries(props)) fields[name] = prop.type === 'string' ? 'string' : 'other';
    }
    return fields;
  }
  const call = (path: string, type: string, input: unknown) => {
    const encoded = encodeURIComponent(JSON.stringify(input));
    return type === 'query'
      ? t.request('GET', `/trpc/${path}?input=${encoded}`, { user: admin })
      : t.request('POST', `/trpc/${path}`, { user: admin, body: JSON.stringify(input), headers: { 'content-type': 'application/json' } });
  };
  const show = (path: string, input: unknown, res: LightMyRequestResponse) => `${path} ${JSON.stringify(input).slice(0, 100)} → ${res.statusCode} ${res.body.slice(0, 160)}`;

  it.each(procedures.map(([path, p]) => [path, p._def] as const))('%s', async (path, def) => {
    const fields = fieldsOf(def);
    const base = Object.fromEntries(Object.keys(fields).map((f) => [f, sample()[f] ?? 'x']));
    const before = await tableCounts(t);
    for (const [field, kind] of Object.entries(fields)) {
      const nulValue = kind === 'string' ? `a\u0000${String(base[field])}` : '\u0000';
      for (const input of [{ ...base, [field]: nulValue }, { ...base, [field]: [nulValue] }, { ...base, [`${field}\u0000`]: 1 }]) {
        const res = await call(path, def.type, input);
        expect(res.statusCode, show(path, input, res)).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, show(path, input, res)).toBeLessThan(500);
      }
    }
    for (const input of [null, 'text', 42, [], { [`k\u0000`]: 1 }, { a: { b: ['\u0000'] } }]) {
      const res = await call(path, def.type, input);
      expect(res.statusCode, show(path, input, res)).toBeLessThan(500);
    }
    if (def.inputs.length > 0) expect(await tableCounts(t), `${path} wrote something`).toEqual(before);
    // Invisible and bidi characters, and oversized or wrong-typed values: refused or harmless, never a 5xx.
    for (const [field, kind] of Object.entries(fields)) {
      const variants = kind === 'string' ? ['Ad\u200bmin', 'evil\u202Egnp.exe', '\u2066x\u2069', 'x'.repeat(20_000), 12, true] : ['12', -1, 2 ** 53, 1.5, {}];
      for (const value of variants) {
        const input = { ...base, [field]: value };
        const res = await call(path, def.type, input);
        expect(res.statusCode, show(path, input, res)).toBeLessThan(500);
      }
    }
    // Procedures without input (the operator's start, reset…) act whatever they are sent: put the draft back.
    await operatorReset(t).catch(() => undefined);
  });
});

describe('the identity provider', () => {
  const bodies: unknown[] = [
    null,
    [],
    'x',
    { email: 'a\u0000@example.com' },
    { email: 'nul@example.com', username: 'a\u0000b' },
    { email: 'zw@example.com', username: 'Ad\u200bmin' },
    { email: 'bidi@example.com', username: 'evil\u202Egnp' },
    { email: 'nul@example.com', code: '12\u00003456' },
    { email: 'nul@example.com', code: '123456', username: '\u0000' },
    { email: 'x'.repeat(5000) + '@example.com' },
    { email: 42, code: [], username: {} },
  ];
  it.each(['sign-up', 'sign-in', 'verify', 'token', 'sign-out'])('POST /idp/%s', async (route) => {
    const before = await tableCounts(t);
    for (const body of bodies) {
      const res = await t.request('POST', `/idp/${route}`, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', cookie: 'fr_session=a%00b' } });
      expect(res.statusCode, `${route} ${JSON.stringify(body).slice(0, 80)} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
      expect(res.statusCode).toBeGreaterThanOrEqual(route === 'sign-out' || route === 'token' ? 200 : 400);
    }
    expect(await tableCounts(t)).toEqual(before);
  });

  it('GET /idp/dev/outbox', async () => {
    for (const q of ['email=a%00b%40example.com', 'email=%E2%80%8B', 'email=', '']) {
      const res = await t.request('GET', `/idp/dev/outbox?${q}`);
      expect(res.statusCode, q).toBeLessThan(500);
    }
  });
});
