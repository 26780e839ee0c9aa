/**
 * Names that pass for someone else's: invisible characters (variation selectors, tags, Hangul fillers and
 * the rest of Unicode's default ignorables), and names that differ only in case, width, spacing or
 * punctuation from an operator's, another player's or a reference entry's (the benchmarks beside every
 * leaderboard). Usernames and group names, over REST, tRPC and the sign-up routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@first-round/shared/messages';
import { ADMIN_EMAIL, createTestApp, latestOutboxCode, type TestApp, type TestUser } from '../support/test-app.js';
import { expectError, expectStatus, uniqueName } from './helpers.js';

let t: TestApp;
let operator: TestUser;
let player: TestUser;

beforeAll(async () => {
  t = await createTestApp({ seedBoard: false });
  operator = await t.signUp('operatorrt', ADMIN_EMAIL);
  expect(expectStatus<{ is_admin: boolean }>(await t.request('GET', '/api/auth/me', { user: operator }), 200).is_admin).toBe(true);
  player = await t.signUp('redteamer');
  expectStatus(await t.request('GET', '/api/auth/me', { user: player }), 200);
});
afterAll(async () => t?.close());

const rename = (user: TestUser, screen_name: string) => t.request('POST', '/api/auth/update-screen-name', { user, body: { screen_name } });
const screenNameOf = async (user: TestUser) => (await t.db.query<{ screen_name: string | null }>(`select screen_name from participant where id = $1`, [user.id]))[0]!.screen_name;

/** Each hides an invisible character that the rule missed before: variation selectors, tags, Khmer and Mongolian. */
const INVISIBLE_NAMES = [
  'OperatorRT\uFE0F',
  'Operator\uFE00RT',
  'OperatorRT\u{E0100}',
  'Operator\u{E01EF}RT',
  'Oper\u17B4atorRT',
  'Oper\u17B5atorRT',
  'Oper\u180BatorRT',
  'Oper\u180FatorRT',
  'Oper\u2065atorRT',
  'Oper\uFFF0atorRT',
  'OperatorRT\u{E0041}\u{E007F}',
  'Oper\u{E0FFF}atorRT',
  'Oper\u{1BCA0}atorRT',
  'Oper\u{1D173}atorRT',
  'Oper\u061CatorRT',
  'Oper\u115FatorRT',
  'Oper\uFFA0atorRT',
];

describe('invisible characters', () => {
  it('are refused in usernames, screen names and group names (422, the field named), and nothing is written', async () => {
    for (const name of INVISIBLE_NAMES) {
      const label = JSON.stringify(name);
      expectError(await rename(player, name), 422, 'Username must not contain invisible or control characters');
      expectError(await t.request('POST', '/api/groups', { user: player, body: { name } }), 422, 'Group name must not contain invisible or control characters');
      expectError(await t.request('POST', '/api/groups/create-simple', { user: player, body: { name } }), 422, 'Group name must not contain invisible or control characters');
      const signUp = await t.request('POST', '/idp/sign-up', { body: { email: 'invisible@example.com', username: name } });
      expect(signUp.statusCode, label).toBe(422);
      expect((signUp.json() as { message: string }).message, label).toBe('Username must not contain invisible or control characters');
    }
    expect(await screenNameOf(player)).toBe('redteamer');
    expect(await t.db.query(`select name from groups where name like 'Oper%'`)).toEqual([]);
  });

  it('are refused over tRPC too', async () => {
    const trpc = (path: string, input: unknown) =>
      t.request('POST', `/trpc/${path}`, { user: player, body: JSON.stringify(input), headers: { 'content-type': 'application/json' } });
    for (const [path, input, message] of [
      ['auth.updateScreenName', { screen_name: 'OperatorRT\uFE0F' }, 'Username must not contain invisible or control characters'],
      ['groups.createSimple', { name: 'Office\u{E0100} Pool' }, 'Group name must not contain invisible or control characters'],
    ] as const) {
      const res = await trpc(path, input);
      expect(res.statusCode, res.body).toBe(400);
      expect((res.json() as { error: { message: string; data: { kind: string } } }).error).toMatchObject({ message, data: { kind: 'INVALID_INPUT' } });
    }
  });

  it('a name that only looks like the operator’s with one appended is not a new name', async () => {
    // Before the rule 'OperatorRT\uFE0F' was accepted while 'operatorrt' was taken.
    expectError(await rename(player, 'operatorrt'), 409, MESSAGES.usernameTaken);
    expectError(await rename(player, 'OperatorRT\uFE0F'), 422);
    expect(await screenNameOf(player)).toBe('redteamer');
  });
});

describe('names that pass for another', () => {
  it('the operator’s name with other spacing, case, width or punctuation is taken (409)', async () => {
    for (const name of ['Operator RT', 'OPERATOR-rt', 'operator.rt', 'Operator_RT', '\uFF2F\uFF50\uFF45\uFF52\uFF41\uFF54\uFF4F\uFF52\uFF32\uFF34', 'op erat or rt']) {
      expectError(await rename(player, name), 409, MESSAGES.usernameTaken);
      const signUp = await t.request('POST', '/idp/sign-up', { body: { email: 'lookalike@example.com', username: name } });
      expect(signUp.statusCode, name).toBe(409);
      expect((signUp.json() as { message: string }).message).toBe(MESSAGES.usernameTaken);
    }
    expect(await screenNameOf(player)).toBe('redteamer');
  });

  it('another player’s name the same way: "Jo Smith" holds "josmith" and "JO-SMITH"', async () => {
    const jo = await t.signUp('Jo Smith', 'josmith@example.com');
    expectStatus(await t.request('GET', '/api/auth/me', { user: jo }), 200);
    for (const name of ['josmith', 'JO-SMITH', 'Jo  Smith', 'jo.smith!']) expectError(await rename(player, name), 409, MESSAGES.usernameTaken);
    // Their own name in another spelling is theirs to take.
    expect(expectStatus<{ screen_name: string }>(await rename(jo, 'JoSmith'), 200).screen_name).toBe('JoSmith');
    // The old spelling is free again once they have moved on.
    expect(expectStatus<{ screen_name: string }>(await rename(jo, 'Joanna Smith'), 200).screen_name).toBe('Joanna Smith');
    const other = await t.signUp();
    expectStatus(await t.request('GET', '/api/auth/me', { user: other }), 200);
    expect(expectStatus<{ screen_name: string }>(await rename(other, 'jo smith'), 200).screen_name).toBe('jo smith');
  });

  it('a reference entry’s name is reserved, however it is spelt (409)', async () => {
    for (const name of ['Big board top 32', 'BigBoard Top32', 'big-board-top-32', 'Chalk 20', 'CHALK20', 'Top 10 only', 'top10only', 'Top 10 Only.']) {
      expectError(await rename(player, name), 409, MESSAGES.usernameReserved);
      const signUp = await t.request('POST', '/idp/sign-up', { body: { email: 'reserved@example.com', username: name } });
      expect(signUp.statusCode, name).toBe(409);
      expect((signUp.json() as { message: string }).message).toBe(MESSAGES.usernameReserved);
    }
    await expect((await t.caller(player)).auth.updateScreenName({ screen_name: 'Chalk 20' })).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.usernameReserved });
    expect(await screenNameOf(player)).toBe('redteamer');
    // Names that merely contain one are fine.
    expect(expectStatus<{ screen_name: string }>(await rename(player, 'Chalk 20 Hater'), 200).screen_name).toBe('Chalk 20 Hater');
  });

  it('a username the identity provider hands over that is reserved or taken is not used as the screen name', async () => {
    for (const username of ['Chalk 20', 'Operator RT']) {
      const email = `handover${username.length}@example.com`;
      // Signed up under a free name, which the provider then holds differently (as Clerk's dashboard may).
      const signUp = await t.request('POST', '/idp/sign-up', { body: { email, username: uniqueName('handover').replace(/\W/g, '') } });
      expect(signUp.statusCode, signUp.body).toBe(200);
      const verified = await t.request('POST', '/idp/verify', { body: { email, code: await latestOutboxCode(t, email) } });
      const { user_id, token } = verified.json() as { user_id: string; token: string };
      await t.db.query(`update idp_user set username = $2 where id = $1`, [user_id, username]);
      const me = expectStatus<{ screen_name: string | null }>(await t.request('GET', '/api/auth/me', { headers: { authorization: `Bearer ${token}` } }), 200);
      expect(me.screen_name).toBeNull();
    }
  });

  it('the database holds the rule: two players renaming to lookalikes at once, one of them gets it', async () => {
    const [a, b] = [await t.signUp(), await t.signUp()];
    for (const u of [a, b]) expectStatus(await t.request('GET', '/api/auth/me', { user: u }), 200);
    const stem = uniqueName('Twin').replace(/\W/g, '');
    for (let round = 0; round < 5; round++) {
      const names = [`${stem}${round}`, `${stem.toUpperCase()}-${round}`];
      const answers = await Promise.all([rename(a, names[0]!), rename(b, names[1]!)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    }
    // And a row written past the service (a tool, a script) cannot hold another's key.
    await expect(t.db.query(`insert into participant (id, screen_name, screen_name_key) values ('user_sneaky', 'OPERATOR RT', 'operatorrt')`)).rejects.toMatchObject({
      code: '23505',
      constraint: 'participant_screen_name_key_unique',
    });
  });

  it('group names keep their rule: invisible characters refused, case-insensitive uniqueness unchanged', async () => {
    const name = uniqueName('Office Pool');
    expectStatus(await t.request('POST', '/api/groups', { user: player, body: { name } }), 200);
    expectError(await t.request('POST', '/api/groups', { user: operator, body: { name: name.toUpperCase() } }), 409, MESSAGES.groupExists);
  });
});
