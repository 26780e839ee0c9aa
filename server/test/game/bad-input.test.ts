/**
 * Bad input on every REST row, every tRPC procedure and the /idp routes: wrong types, missing and unknown
 * fields, bad ids (negative, zero, huge, non-numeric, fractional, absent), NUL, zero-width and bidi
 * characters in every field, path and query value, oversized and malformed bodies. Always the exact 4xx
 * (422 malformed, 404 unknown, 401 unauthenticated, 400/413/415 for unreadable bodies) with a non-empty
 * message, never a 5xx, and nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { GroupDto } from '@first-round/shared/schemas';
import { restRoutes, type RestRoute } from '../../src/rest/routes.js';
import { z } from 'zod';
import { MESSAGES } from '@first-round/shared/messages';
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
  group = await createGroup(t, owner, { password: 'secret password' });
  await joinGroup(t, member, group.id, 'secret password');
});
afterAll(async () => t?.close());

type FieldKind = 'id' | 'int' | 'string' | 'nonEmptyString' | 'boolean' | 'idArray' | 'passwordOrNull' | 'team';
interface BodySpec {
  /** A body that would be accepted (as `user`), so each variant differs from it in one way only. */
  valid: () => Record<string, unknown>;
  fields: Record<string, { kind: FieldKind; required: boolean }>;
}

/** Body-taking rows: their valid body and the type of each field. */
const BODIES: Record<string, BodySpec> = {
  'PATCH /users/me/reminders': { valid: () => ({ reminders: true }), fields: { reminders: { kind: 'boolean', required: true } } },
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
    valid: () => ({ group_id: group.id, password: 'secret password' }),
    fields: { group_id: { kind: 'id', required: true }, password: { kind: 'string', required: false } },
  },
  'POST /groups': {
    valid: () => ({ name: 'Another fine name', is_public: false, picks_public: false, password: 'long enough' }),
    fields: {
      name: { kind: 'nonEmptyString', required: true },
      is_public: { kind: 'boolean', required: false },
      picks_public: { kind: 'boolean', required: false },
      password: { kind: 'string', required: false },
    },
  },
  'POST /groups/:id/use-global-picks': { valid: () => ({ use_global_picks: true }), fields: { use_global_picks: { kind: 'boolean', required: true } } },
  // The owner's new password (the same as before, so the fixture's joins keep working), or null to remove it.
  'POST /groups/:id/password': { valid: () => ({ password: 'secret password' }), fields: { password: { kind: 'passwordOrNull', required: true } } },
  // On, as the fixture's group has it.
  'POST /groups/:id/members-can-invite': { valid: () => ({ members_can_invite: true }), fields: { members_can_invite: { kind: 'boolean', required: true } } },
  'POST /picks/': {
    valid: () => ({ picks: [players[0], players[1]], group_id: group.id }),
    fields: { picks: { kind: 'idArray', required: true }, group_id: { kind: 'id', required: false } },
  },
  // Every field optional (no group: the global entry), so an empty object is a valid body here.
  'POST /share/links': { valid: () => ({ group_id: group.id }), fields: { group_id: { kind: 'id', required: false } } },
  'POST /draft/picks': { valid: () => ({ slot: 1, player_id: players[0] }), fields: { slot: { kind: 'id', required: true }, player_id: { kind: 'id', required: true } } },
  // The slot's own team: refused as a repeat (409) rather than written, so the valid body changes nothing.
  'POST /draft/order': { valid: () => ({ slot: 1, team: 'TEN' }), fields: { slot: { kind: 'id', required: true }, team: { kind: 'team', required: true } } },
  // The queue item is the path's; the player is optional (absent: the feed's suggestion).
  'POST /draft/feed/queue/:id/confirm': { valid: () => ({ player_id: players[0] }), fields: { player_id: { kind: 'id', required: false } } },
};

const HUGE = 99999999999;
/** Strings no field takes in place of a number or a flag: NUL, zero-width and bidi characters around digits. */
const HOSTILE_DIGITS = ['1\u0000', '\u200b1', '1\u202E'];
const WRONG: Record<FieldKind, unknown[]> = {
  id: [-1, 0, HUGE, 1.5, '1', 'abc', null, true, [], {}, ...HOSTILE_DIGITS],
  int: [0, -5, 721, HUGE, 2.5, '24', null, false, {}, ...HOSTILE_DIGITS],
  string: [123, true, null, [], {}, 'x'.repeat(201), 'a\u0000b', '\u0000'],
  nonEmptyString: ['', '   ', 123, true, null, [], {}, 'x'.repeat(201), 'a\u0000b', '\u0000', 'Ad\u200bmin', 'evil\u202Egnp.exe', '\u2066Admin\u2069', 'A\u2028B', '\u200b', 'x'.repeat(20_000)],
  boolean: ['true', 1, 0, null, [], {}, 'true\u0000', '\u200b'],
  idArray: ['abc', 5, null, {}, [-1], [0], [HUGE], [1.5], ['1'], [null], Array.from({ length: 1001 }, (_, i) => i + 1), ['1\u0000'], ['\u200b1']],
  // null is a valid value here (it removes the password); a blank one is not.
  passwordOrNull: [123, true, [], {}, '', '   ', 'x'.repeat(201), 'a\u0000b', '\u0000'],
  // One of the 32 abbreviations (any case): not a made-up one, a city alone, or one dressed in invisible characters.
  team: ['', 'XYZ', 'New York', 12, true, null, [], {}, ['SEA'], 'SEA\u0000', '\u200bSEA', 'SE\u202EA', 'x'.repeat(201)],
};

const BAD_IDS = ['-1', '0', String(HUGE), 'abc', '1.5', '1e3', '%20', '0x10', '%00', '1%00', '%E2%80%8B1', '1%E2%80%AE', '9'.repeat(300)];

/** Who sends each row's requests: the caller the row would accept, so only the input is wrong. */
const userFor = (route: RestRoute) => (route.auth === 'admin' ? admin : route.path === '/groups/:id/use-global-picks' ? member : owner);

function concrete(path: string, params: Record<string, string> = {}) {
  return path
    .replace(':year', params.year ?? '2025')
    .replace(':id', params.id ?? String(group.id))
    .replace(':participantId', params.participantId ?? member.id)
    .replace(':token', params.token ?? 'sometoken');
}

async function expectRefused(res: LightMyRequestResponse, what: string, status?: number) {
  const context = `${what} → ${res.statusCode} ${res.body.slice(0, 200)}`;
  expect(res.statusCode, context).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, context).toBeLessThan(500);
  if (status !== undefined) expect(res.statusCode, context).toBe(status);
  const body = res.json() as { message?: unknown };
  expect(typeof body.message, context).toBe('string');
  expect((body.message as string).trim().length, context).toBeGreaterThan(0);
}

interface BadRequest {
  what: string;
  /** The exact status it must get. */
  status: number;
  send: () => Promise<LightMyRequestResponse>;
}

/** Sends each request and checks it was refused, and that no table changed (bad input never deletes either). */
async function refusedWithoutWrites(route: RestRoute, requests: BadRequest[]) {
  const before = await tableCounts(t);
  for (const r of requests) await expectRefused(await r.send(), `${route.method} ${route.path}: ${r.what}`, r.status);
  expect(await tableCounts(t), `${route.method} ${route.path}: one of ${requests.map((r) => r.what).join(' | ')} wrote something`).toEqual(before);
}

const key = (r: RestRoute) => `${r.method} ${r.path}`;

/** Rows whose input comes from the path alone (covered by the path tests below). */
const PATH_ONLY = ['POST /groups/:id/leave', 'POST /groups/join-with-link/:token', 'POST /draft/feed/queue/:id/dismiss'];

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
  const isPublic = route.auth === 'public';

  it('refuses malformed credentials (401 with a message), ignores junk query strings and refuses a NUL in one (422)', async () => {
    const url = `/api${concrete(route.path)}`;
    const body = route.method === 'GET' ? undefined : (BODIES[key(route)]?.valid() ?? {});
    // A public row answers junk credentials as it answers no credentials at all (never worse, never a 5xx).
    const signedOut = isPublic && route.method === 'GET' ? (await t.request(route.method, url)).statusCode : undefined;
    for (const authorization of ['Bearer', 'Bearer ', 'Bearer a.b.c', `Basic ${Buffer.from('a:b').toString('base64')}`, `Bearer ${'x'.repeat(5000)}`]) {
      const before = await tableCounts(t);
      const res = await t.request(route.method, url, { body, headers: { authorization } });
      if (isPublic) expect(res.statusCode, `${authorization} → ${res.body.slice(0, 200)}`).toBe(signedOut ?? 401);
      else {
        expect(res.statusCode, `${authorization} → ${res.body}`).toBe(401);
        await expectRefused(res, authorization);
      }
      expect(await tableCounts(t)).toEqual(before);
    }
    if (route.method === 'GET') {
      // Junk the row does not read is ignored: the same answer as without it.
      const plain = await t.request('GET', url, { user: user() });
      const junk = await t.request('GET', `${url}?x[]=1&x[]=2&%zz=1&${'q'.repeat(2000)}=1&zw=%E2%80%8B&bidi=%E2%80%AE`, { user: user() });
      expect(junk.statusCode, junk.body).toBe(plain.statusCode);
      // An empty value for a parameter the row does read (my-picks' group_id) is malformed.
      const empty = await t.request('GET', `${url}?group_id`, { user: user() });
      if (route.path === '/picks/my-picks' || route.path === '/draft/field' || route.path === '/seasons') await expectRefused(empty, 'empty group_id', 422);
      else expect(empty.statusCode, empty.body).toBe(plain.statusCode);
    }
    // A NUL anywhere in the query, value or key, read by the row or not: 422 before anything runs.
    const body2 = route.method === 'GET' ? undefined : (BODIES[key(route)]?.valid() ?? {});
    await refusedWithoutWrites(route, [
      { what: 'NUL query value', status: 422, send: () => t.request(route.method, `${url}?note=%00`, { user: user(), body: body2 }) },
      { what: 'NUL query key', status: 422, send: () => t.request(route.method, `${url}?%00=1`, { user: user(), body: body2 }) },
      { what: 'NUL signed out', status: 422, send: () => t.request(route.method, `${url}?a=b%00c`, { body: body2 }) },
    ]);
  });

  if (route.path.includes(':id')) {
    it('refuses bad group ids in the path (negative, zero, huge, non-numeric, fractional) and an absent one', async () => {
      await refusedWithoutWrites(route, [
        ...BAD_IDS.map((id) => ({
          what: `id ${id}`,
          status: 422,
          send: () => t.request(route.method, `/api${concrete(route.path, { id })}`, { user: user(), body: route.method === 'GET' ? undefined : (BODIES[key(route)]?.valid() ?? {}) }),
        })),
        { what: 'no id', status: 422, send: () => t.request(route.method, `/api${concrete(route.path, { id: '' })}`, { user: user(), body: route.method === 'GET' ? undefined : {} }) },
        // An id that is well formed but names no group.
        // (A participant's picks answer "not visible" rather than revealing whether the group exists.)
        { what: 'unknown id', status: route.path.includes(':participantId') ? 403 : 404, send: () => t.request(route.method, `/api${concrete(route.path, { id: '2147483647' })}`, { user: user(), body: route.method === 'GET' ? undefined : (BODIES[key(route)]?.valid() ?? {}) }) },
      ]);
    });
  }

  if (route.path.includes(':token')) {
    it('refuses unknown, over-long and absent tokens', async () => {
      await refusedWithoutWrites(route, [
        { what: 'unknown token', status: 404, send: () => t.request(route.method, `/api${concrete(route.path, { token: 'nope' })}`, { user: user() }) },
        { what: 'long token', status: 422, send: () => t.request(route.method, `/api${concrete(route.path, { token: 'x'.repeat(300) })}`, { user: user() }) },
        { what: 'NUL token', status: 422, send: () => t.request(route.method, `/api${concrete(route.path, { token: 'ab%00cd' })}`, { user: user() }) },
        { what: 'bidi token', status: 422, send: () => t.request(route.method, `/api${concrete(route.path, { token: 'ab%E2%80%AEcd' })}`, { user: user() }) },
        { what: 'zero-width token', status: 422, send: () => t.request(route.method, `/api${concrete(route.path, { token: '%E2%80%8Bab' })}`, { user: user() }) },
        { what: 'no token', status: 422, send: () => t.request(route.method, `/api${concrete(route.path, { token: '' })}`, { user: user() }) },
      ]);
    });
  }

  if (route.path.includes(':participantId')) {
    it('refuses unknown and over-long participant ids', async () => {
      await refusedWithoutWrites(route, [
        { what: 'unknown participant', status: 403, send: () => t.request(route.method, `/api${concrete(route.path, { participantId: 'user_nobody' })}`, { user: member }) },
        { what: 'long participant', status: 422, send: () => t.request(route.method, `/api${concrete(route.path, { participantId: 'u'.repeat(300) })}`, { user: member }) },
        { what: 'NUL participant', status: 422, send: () => t.request(route.method, `/api${concrete(route.path, { participantId: 'user_%00x' })}`, { user: member }) },
        { what: 'bidi participant', status: 422, send: () => t.request(route.method, `/api${concrete(route.path, { participantId: 'user_%E2%80%AEx' })}`, { user: member }) },
        { what: 'not a participant id', status: 422, send: () => t.request(route.method, `/api${concrete(route.path, { participantId: 'admin' })}`, { user: member }) },
        { what: 'zero-width participant', status: 422, send: () => t.request(route.method, `/api${concrete(route.path, { participantId: 'user_%E2%80%8Bx' })}`, { user: member }) },
      ]);
    });
  }

  if (route.path.includes(':year')) {
    it('refuses years that are no draft year, and answers 404 for one with no season', async () => {
      await refusedWithoutWrites(route, [
        ...['1999', '3000', '0', '-1', 'abc', '2024.5', '2e3', '%00', '9'.repeat(300)].map((year) => ({
          what: `year ${year}`,
          status: 422,
          send: () => t.request('GET', `/api${concrete(route.path, { year })}`, { user: user() }),
        })),
        { what: 'unknown year', status: 404, send: () => t.request('GET', `/api${concrete(route.path, { year: '2031' })}`, { user: user() }) },
      ]);
    });
  }

  if (route.path === '/groups/:id/leaderboard' || route.path.startsWith('/seasons/')) {
    it('refuses bad page values (limit, offset)', async () => {
      const url = `/api${concrete(route.path)}`;
      await refusedWithoutWrites(route, [
        ...[...BAD_IDS, '', '5001'].map((v) => ({ what: `limit=${v}`, status: 422, send: () => t.request('GET', `${url}?limit=${v}`, { user: user() }) })),
        ...['-1', 'abc', '1.5', '', '99999999999', '%00', '%E2%80%8B0'].map((v) => ({ what: `offset=${v}`, status: 422, send: () => t.request('GET', `${url}?offset=${v}`, { user: user() }) })),
      ]);
    });
  }

  if (route.path === '/picks/my-picks' || route.path === '/draft/field' || route.path === '/seasons') {
    it('refuses bad group_id query values', async () => {
      await refusedWithoutWrites(route, [
        ...[...BAD_IDS, ''].map((id) => ({ what: `group_id=${id}`, status: 422, send: () => t.request('GET', `/api${route.path}?group_id=${id}`, { user: user() }) })),
        { what: 'unknown group', status: 404, send: () => t.request('GET', `/api${route.path}?group_id=2147483647`, { user: user() }) },
      ]);
    });
  }

  const spec = BODIES[key(route)];
  if (spec) {
    it('refuses wrong types, missing fields, unknown fields and non-object bodies', async () => {
      const url = `/api${concrete(route.path)}`;
      const send = (body: unknown) => () => t.request(route.method, url, { user: user(), body });
      // Every one is malformed input: 422.
      const variants: BadRequest[] = [];
      for (const [field, { kind, required }] of Object.entries(spec.fields)) {
        for (const wrong of WRONG[kind]) variants.push({ what: `${field}=${JSON.stringify(wrong).slice(0, 40)}`, status: 422, send: send({ ...spec.valid(), [field]: wrong }) });
        if (required) {
          const { [field]: _dropped, ...rest } = spec.valid();
          variants.push({ what: `missing ${field}`, status: 422, send: send(rest) });
        }
      }
      variants.push({ what: 'unknown field', status: 422, send: send({ ...spec.valid(), admin: true }) });
      variants.push({ what: 'NUL in an unknown field', status: 422, send: send({ ...spec.valid(), note: 'a\u0000' }) });
      variants.push({ what: 'NUL in a key', status: 422, send: send({ ...spec.valid(), 'k\u0000': 1 }) });
      variants.push({ what: 'NUL deep inside', status: 422, send: send({ ...spec.valid(), extra: { list: [{ text: '\u0000' }] } }) });
      if (Object.values(spec.fields).some((f) => f.required)) variants.push({ what: 'empty object', status: 422, send: send({}) });
      variants.push({ what: 'array body', status: 422, send: send([spec.valid()]) });
      variants.push({ what: 'JSON null', status: 422, send: () => t.request(route.method, url, { user: user(), body: 'null', headers: { 'content-type': 'application/json' } }) });
      variants.push({ what: 'JSON string', status: 422, send: () => t.request(route.method, url, { user: user(), body: '"text"', headers: { 'content-type': 'application/json' } }) });
      variants.push({ what: 'JSON number', status: 422, send: () => t.request(route.method, url, { user: user(), body: '42', headers: { 'content-type': 'application/json' } }) });
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
      await expectRefused(await t.request(route.method, url, { user: user(), body: '{"broken": ', headers: { 'content-type': 'application/json' } }), 'invalid JSON', 400);
      await expectRefused(await t.request(route.method, url, { user: user(), body: '{"a": "\u0000', headers: { 'content-type': 'application/json' } }), 'invalid JSON with NUL', 400);
      await expectRefused(await t.request(route.method, url, { user: user(), body: '<x/>', headers: { 'content-type': 'application/xml' } }), 'unsupported type', 415);
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
 * The same hostility straight at tRPC: every procedure of the router (subscriptions too), as its HTTP
 * method wants and as the caller it would accept (the operator for draft.*, the group's owner otherwise),
 * so only the input is wrong. Inputs are built from each procedure's own input schema (every field it
 * takes, with a plausible value), then each field in turn carries NUL (always 422, before anything runs),
 * invisible or bidi characters, oversized or wrong-typed values (400, tRPC's status for a schema
 * failure). Never a 5xx, and nothing written by a refused call.
 */
describe('every tRPC procedure', () => {
  type Def = { type: string; inputs: unknown[] };
  const procedures = Object.entries((appRouter._def as unknown as { procedures: Record<string, { _def: Def }> }).procedures);
  const sample = (): Record<string, unknown> => ({
    group_id: group.id,
    name: 'Sweep name',
    screen_name: 'sweep_name',
    password: 'secret password',
    token: 'sometoken',
    participant_id: member.id,
    temp_id: 'temp_sweep',
    clerk_id: admin.id,
    picks: [players[0]],
    slot: 1,
    team: 'TEN',
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
      type Prop = { type?: string; anyOf?: Prop[] };
      const schema = z.toJSONSchema(input as z.ZodType, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, Prop>;
        anyOf?: { properties?: Record<string, Prop> }[];
      };
      const props = schema.properties ?? schema.anyOf?.find((a) => a.properties)?.properties ?? {};
      // A nullable string (`anyOf: [string, null]`) is a string field too.
      const isString = (prop: Prop): boolean => prop.type === 'string' || Boolean(prop.anyOf?.some(isString));
      for (const [name, prop] of Object.entries(props)) fields[name] = isString(prop) ? 'string' : 'other';
    }
    return fields;
  }
  const callerFor = (path: string) => (path.startsWith('draft.') ? admin : owner);
  /**
   * A new session token for the caller, as the web app gets one: a token lasts a minute, and on a loaded
   * machine this file's procedures take longer than that (the last ones were answered 401, not their 400).
   */
  async function freshToken(user: TestUser) {
    const res = await t.request('POST', '/idp/token', { headers: { cookie: user.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    user.token = (res.json() as { token: string }).token;
    user.authorization = `Bearer ${user.token}`;
  }
  const call = (path: string, type: string, input: unknown) => {
    const encoded = encodeURIComponent(JSON.stringify(input));
    const user = callerFor(path);
    return type === 'mutation'
      ? t.request('POST', `/trpc/${path}`, { user, body: JSON.stringify(input), headers: { 'content-type': 'application/json' } })
      : t.request('GET', `/trpc/${path}?input=${encoded}`, { user });
  };
  /** The HTTP status, or for a subscription the status its SSE error event carries (200 if none). */
  const statusOf = (res: LightMyRequestResponse) => {
    if (!String(res.headers['content-type']).startsWith('text/event-stream')) return res.statusCode;
    const match = /event: serialized-error\ndata: .*"httpStatus":(\d+)/.exec(res.body);
    return match ? Number(match[1]) : res.statusCode;
  };
  const show = (path: string, input: unknown, res: LightMyRequestResponse) =>
    `${path} ${JSON.stringify(input).slice(0, 100)} → ${statusOf(res)} ${res.body.slice(0, 200)}`;
  /** Calls and checks the exact status, and that a refusal wrote nothing. */
  async function expectAnswer(path: string, def: Def, input: unknown, status: number) {
    const before = await tableCounts(t);
    const res = await call(path, def.type, input);
    expect(statusOf(res), show(path, input, res)).toBe(status);
    expect(await tableCounts(t), `${show(path, input, res)} wrote something`).toEqual(before);
  }
  const INVISIBLE = ['Ad\u200bmin', 'evil\u202Egnp.exe', '\u2066x\u2069', 'a\u2028b', '\u00ad'];

  it.each(procedures.map(([path, p]) => [path, p._def] as const))('%s', async (path, def) => {
    await freshToken(callerFor(path));
    const fields = fieldsOf(def);
    const base = Object.fromEntries(Object.keys(fields).map((f) => [f, sample()[f] ?? 'x']));
    // NUL in a field, in an array, in a key, deep inside, in any shape: 422 for every procedure.
    for (const [field, kind] of Object.entries(fields)) {
      const nulValue = kind === 'string' ? `a\u0000${String(base[field])}` : '\u0000';
      for (const input of [{ ...base, [field]: nulValue }, { ...base, [field]: [nulValue] }, { ...base, [`${field}\u0000`]: 1 }]) {
        await expectAnswer(path, def, input, 422);
      }
    }
    for (const input of [{ [`k\u0000`]: 1 }, { a: { b: ['\u0000'] } }, ['\u0000'], '\u0000']) await expectAnswer(path, def, input, 422);
    if (def.inputs.length > 0) {
      // Not an object at all.
      for (const input of [null, 'text', 42, []]) await expectAnswer(path, def, input, 400);
      for (const [field, kind] of Object.entries(fields)) {
        const wrongTyped = kind === 'string' ? [12, true, {}, ['x'], 'x'.repeat(20_000)] : ['12', -1, 2 ** 53, 1.5, {}, '\u200b1'];
        for (const value of wrongTyped) await expectAnswer(path, def, { ...base, [field]: value }, 400);
        // A password may hold any character but NUL (it is only ever hashed); every other text refuses these.
        if (kind === 'string' && field !== 'password') {
          for (const value of INVISIBLE) await expectAnswer(path, def, { ...base, [field]: value }, 400);
        }
      }
    } else {
      // Procedures without input ignore what they are sent (the operator's start, reset… act): never a 5xx.
      for (const input of [null, 'text', 42, [], { a: 'Ad\u200bmin' }]) {
        const res = await call(path, def.type, input);
        expect(statusOf(res), show(path, input, res)).toBeLessThan(500);
      }
      await operatorReset(t).catch(() => undefined);
    }
  });
});

describe('the identity provider', () => {
  /** Bodies no /idp route accepts: malformed (422) for the ones that read a body. */
  const bodies: unknown[] = [
    null,
    [],
    'x',
    { email: 'a\u0000@example.com' },
    { email: 'zw\u200b@example.com' },
    { email: 'bidi\u202E@example.com' },
    { email: 'nul@example.com', username: 'a\u0000b' },
    { email: 'zw@example.com', username: 'Ad\u200bmin' },
    { email: 'bidi@example.com', username: 'evil\u202Egnp' },
    { email: 'iso@example.com', username: '\u2066Admin\u2069' },
    { email: 'nul@example.com', code: '123456', username: '\u0000' },
    { email: 'x'.repeat(5000) + '@example.com' },
    { email: 'long@example.com', username: 'x'.repeat(20_000) },
    { email: 42, code: [], username: {} },
    { email: 'nul@example.com', 'k\u0000': 1 },
  ];
  /** What each route answers them: sign-up, sign-in and verify read the body (422); token and sign-out only the cookie. */
  const expected: Record<string, number> = { 'sign-up': 422, 'sign-in': 422, verify: 422, token: 401, 'sign-out': 200 };
  it.each(Object.keys(expected))('POST /idp/%s', async (route) => {
    const before = await tableCounts(t);
    for (const body of bodies) {
      const res = await t.request('POST', `/idp/${route}`, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', cookie: 'fr_session=a%00b' } });
      expect(res.statusCode, `${route} ${JSON.stringify(body).slice(0, 80)} → ${res.body.slice(0, 200)}`).toBe(expected[route]);
    }
    // A code carrying a NUL is simply a wrong code (no code was sent to that address): the same words.
    const res = await t.request('POST', '/idp/verify', { body: { email: 'nul@example.com', code: '12\u00003456' } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ message: MESSAGES.invalidCode });
    expect(await tableCounts(t)).toEqual(before);
  });

  it('GET /idp/dev/outbox', async () => {
    for (const q of ['email=a%00b%40example.com', 'email=%E2%80%8B', 'email=%E2%80%AE%40example.com', 'email=', '', 'email=' + 'x'.repeat(5000)]) {
      // Not an address: malformed, 422 (the outbox is open to this machine, which the tests are).
      const res = await t.request('GET', `/idp/dev/outbox?${q}`);
      expect(res.statusCode, `${q} → ${res.body.slice(0, 200)}`).toBe(422);
    }
  });
});
