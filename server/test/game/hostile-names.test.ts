/**
 * Names that pass for someone else's: invisible characters (variation selectors, tags, Hangul fillers and
 * the rest of Unicode's default ignorables), and names that differ only in case, width, spacing or
 * punctuation from an operator's, another player's or a reference entry's (the benchmarks beside every
 * leaderboard). Usernames and group names, over REST, tRPC and the sign-up routes.
 */
import crypto from 'node:crypto';
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

/**
 * Names that look like another's without being the same letters: letters of another script ('Сhalk 20'
 * with a Cyrillic С, 'Top 10 οnly' with a Greek ο, 'аlice' with a Cyrillic а), digits and letters that look
 * alike ('Chalk 2O', 'aIice' with a capital i), digits of another script ('Chalk ٢٠'), and letters buried
 * under stacked combining marks. Compared by Unicode's table of look-alikes (shared/src/name-keys.ts).
 */
describe('look-alike names', () => {
  const RESERVED_LOOKALIKES = ['Сhalk 20', 'Chalk 2O', 'Top 10 οnly', 'Chalk ٢٠', 'BIG BОARD TOP 32'];
  const ALICE = 'alice400877';
  const ALICE_LOOKALIKES = ['аlice400877', 'aIice400877', 'alice4OO877', 'ALICE4００877', 'a|ice400877'];
  const STACKED = `Zo${'\u0301\u0300\u0302'.repeat(10)}`; // 32 characters: within the length rule
  const STACKED_MESSAGE = (field: string) => `${field} must not stack more than 3 accents or marks on one letter`;
  let alice: TestUser;

  beforeAll(async () => {
    alice = await t.signUp(ALICE, 'alice400877@example.com');
    expectStatus(await t.request('GET', '/api/auth/me', { user: alice }), 200);
  });

  const signUpAs = (username: string) => t.request('POST', '/idp/sign-up', { body: { email: 'lookalike-signup@example.com', username } });

  it("a reference entry's name in look-alike letters or digits is reserved, at sign-up and at rename (409)", async () => {
    const before = await screenNameOf(player);
    for (const name of RESERVED_LOOKALIKES) {
      expectError(await rename(player, name), 409, MESSAGES.usernameReserved);
      expectError(await signUpAs(name), 409, MESSAGES.usernameReserved);
      await expect((await t.caller(player)).auth.updateScreenName({ screen_name: name }), name).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.usernameReserved });
    }
    expect(await screenNameOf(player)).toBe(before);
  });

  it("another player's name in look-alike letters or digits is taken, at sign-up and at rename (409)", async () => {
    const before = await screenNameOf(player);
    for (const name of ALICE_LOOKALIKES) {
      expectError(await rename(player, name), 409, MESSAGES.usernameTaken);
      expectError(await signUpAs(name), 409, MESSAGES.usernameTaken);
      await expect((await t.caller(player)).auth.updateScreenName({ screen_name: name }), name).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.usernameTaken });
    }
    expect(await screenNameOf(player)).toBe(before);
    // And the other way round: a look-alike held first keeps the plain spelling from others.
    const cyrillic = await t.signUp('Воb Lookalike', 'cyrillic-bob@example.com');
    expectStatus(await t.request('GET', '/api/auth/me', { user: cyrillic }), 200);
    expectError(await rename(player, 'Bob Lookalike'), 409, MESSAGES.usernameTaken);
    expectError(await signUpAs('BOB LOOKALIKE'), 409, MESSAGES.usernameTaken);
    // Their own name in a look-alike spelling is theirs to take.
    expect(expectStatus<{ screen_name: string }>(await rename(alice, 'aIice400877'), 200).screen_name).toBe('aIice400877');
  });

  it('a letter under more than three stacked marks is refused in usernames and group names (422)', async () => {
    const before = await screenNameOf(player);
    expectError(await rename(player, STACKED), 422, STACKED_MESSAGE('Username'));
    expectError(await signUpAs(STACKED), 422, STACKED_MESSAGE('Username'));
    expectError(await t.request('POST', '/api/groups', { user: player, body: { name: STACKED } }), 422, STACKED_MESSAGE('Group name'));
    expectError(await t.request('POST', '/api/groups/create-simple', { user: player, body: { name: STACKED } }), 422, STACKED_MESSAGE('Group name'));
    expect(await screenNameOf(player)).toBe(before);
  });

  it("a group's name in look-alike letters is taken (409): the global group's, and any other's", async () => {
    const create = (name: string) => t.request('POST', '/api/groups', { user: player, body: { name } });
    const createSimple = (name: string) => t.request('POST', '/api/groups/create-simple', { user: player, body: { name } });
    for (const name of ['Glоbal', 'GLОBAL', 'G1obal', 'GIobal']) {
      expectError(await create(name), 409, MESSAGES.groupExists);
      expectError(await createSimple(name), 409, MESSAGES.groupExists);
    }
    for (const name of ['Chalk 20', 'Top 10 only', ALICE]) expectStatus(await create(`${name} pool`), 200);
    for (const name of [...RESERVED_LOOKALIKES.slice(0, 4), ...ALICE_LOOKALIKES]) {
      expectError(await create(`${name} pool`), 409, MESSAGES.groupExists);
      expectError(await createSimple(`${name} POOL`), 409, MESSAGES.groupExists);
    }
    expect(await t.db.query(`select name from groups where name like '%Glоbal%' or name like '%οnly%'`)).toEqual([]);
  });

  it('names that only share letters with another stay free: accents, one letter more, other scripts', async () => {
    const jose = await t.signUp('Jose Lookalike', 'jose-lookalike@example.com');
    expectStatus(await t.request('GET', '/api/auth/me', { user: jose }), 200);
    const jo = await t.signUp('Jo Smyth', 'jo-smyth@example.com');
    expectStatus(await t.request('GET', '/api/auth/me', { user: jo }), 200);
    for (const name of ['José Lookalike', 'Jon Smyth', '李小龍', 'Ана Петрова', 'Nguyễn Thị Ánh', 'שָּׁלוֹם', 'ကျော်ဇင်', 'हूँ मैं', 'ที่รัก', 'Zoë Ørsted']) {
      const other = await t.signUp(undefined, `${crypto.randomUUID()}@example.com`);
      expectStatus(await t.request('GET', '/api/auth/me', { user: other }), 200);
      expect(expectStatus<{ screen_name: string }>(await rename(other, name), 200).screen_name, name).toBe(name.normalize('NFC'));
      expectStatus(await t.request('POST', '/api/groups', { user: other, body: { name: `${name} group` } }), 200);
    }
  });

  it('the database holds the rule: two players renaming to look-alikes at once, one of them gets it', async () => {
    const [a, b] = [await t.signUp(), await t.signUp()];
    for (const u of [a, b]) expectStatus(await t.request('GET', '/api/auth/me', { user: u }), 200);
    const stem = `Twin${crypto.randomBytes(3).toString('hex').replace(/[0-9]/g, 'x')}`;
    for (let round = 0; round < 4; round++) {
      // Cyrillic а for Latin a (the fold key), then a capital I for an l (the glyph key).
      const names = round % 2 === 0 ? [`${stem}a${round}`, `${stem}а${round}`] : [`${stem}l${round}`, `${stem}I${round}`];
      const answers = await Promise.all([rename(a, names[0]!), rename(b, names[1]!)]);
      expect(answers.map((r) => r.statusCode).sort(), names.join(' / ')).toEqual([200, 409]);
    }
    await expect(
      t.db.query(`insert into participant (id, screen_name, screen_name_key, screen_name_glyph_key) values ('user_sneaky2', 'a1ice400877', 'sneaky', 'alice4oo877')`),
    ).rejects.toMatchObject({ code: '23505', constraint: 'participant_screen_name_glyph_key_unique' });
  });
});
