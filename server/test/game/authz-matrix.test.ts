/**
 * Authorization matrix: every tRPC procedure × {anonymous, signed-in non-member, member, owner, admin} ×
 * {before, after the start}. The expected table lists every procedure of the router; a new procedure
 * without a row fails the first test.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { appRouter } from '../../src/trpc/root.js';
import type { Meta } from '../../src/trpc/trpc.js';
import { hashPassword } from '../../src/modules/groups/password.js';
import { recordPick } from '../../src/modules/draft/draft.service.js';
import { ADMIN_EMAIL, createTestApp, pushDeviceKeys, type TestApp, type TestUser } from '../support/test-app.js';
import { boardIds, insertPastSeason, operatorReset, operatorStart, sha256hex, uniqueName } from './helpers.js';

const ROLES = ['anonymous', 'nonMember', 'member', 'owner', 'admin'] as const;
type Role = (typeof ROLES)[number];
type Outcome = 'ok' | 400 | 401 | 403 | 404 | 409 | 422;
type Row = Record<Role, Outcome>;
type Phase = 'before' | 'after';

/** [before, after]; a single row when both phases agree. */
type Expected = Row | { before: Row; after: Row };

const signedIn = (o: Outcome): Row => ({ anonymous: 401, nonMember: o, member: o, owner: o, admin: o });
// The fixture group is private: to anyone not in it (an operator included) it answers as no group does,
// 404 'Group not found', so its id cannot be probed (server/test/game/group-probing.test.ts).
const membersOnly: Row = { anonymous: 401, nonMember: 404, member: 'ok', owner: 'ok', admin: 404 };
const membersLocked: Row = { anonymous: 401, nonMember: 404, member: 409, owner: 409, admin: 404 };
const adminOnly = (o: Outcome): Row => ({ anonymous: 401, nonMember: 403, member: 403, owner: 403, admin: o });
const everyone: Row = { anonymous: 'ok', nonMember: 'ok', member: 'ok', owner: 'ok', admin: 'ok' };

const EXPECTED: Record<string, Expected> = {
  'auth.me': signedIn('ok'),
  'auth.authTest': signedIn('ok'),
  'auth.jwtDebug': signedIn('ok'),
  'auth.updateScreenName': signedIn('ok'),
  'auth.migrateParticipantId': signedIn('ok'),
  'users.status': signedIn('ok'),
  'users.markFirstLoginDone': signedIn('ok'),
  'users.reminders': signedIn('ok'),
  // Switching reminders off (or on) is not locked by the start.
  'users.setReminders': signedIn('ok'),
  'groups.mine': signedIn('ok'),
  'groups.publicGroups': signedIn('ok'),
  // The fixture group is private: only its members may open it.
  'groups.get': membersOnly,
  'groups.create': { before: signedIn('ok'), after: signedIn(409) },
  'groups.createSimple': { before: signedIn('ok'), after: signedIn(409) },
  // Joining (with the right password) is not locked by the start; joining twice is a success.
  'groups.join': signedIn('ok'),
  // The owner cannot leave while others remain; non-members have nothing to leave (a private group: 404).
  'groups.leave': { anonymous: 401, nonMember: 404, member: 'ok', owner: 409, admin: 404 },
  'groups.memberCount': membersOnly,
  // Everyone may ask about their own membership of a group they may know of (theirs, or a public one):
  // of a private group they are not in, the answer is 404, as for no group.
  'groups.membership': membersOnly,
  'groups.members': membersOnly,
  // Nothing about anyone's picks before the start (409 for members), members only after it.
  'groups.draftBoard': { before: { anonymous: 401, nonMember: 404, member: 409, owner: 409, admin: 404 }, after: membersOnly },
  'groups.useGlobalPicks': { before: membersOnly, after: membersLocked },
  // Owners only, before and after the start (joining a private group to watch still asks for it).
  'groups.setPassword': { anonymous: 401, nonMember: 404, member: 403, owner: 'ok', admin: 404 },
  // Whether members may invite: the owner's to decide, before and after the start.
  'groups.setMembersCanInvite': { anonymous: 401, nonMember: 404, member: 403, owner: 'ok', admin: 404 },
  // The landing page's counts: visitors too.
  'groups.publicCounts': everyone,
  // The spectators' top 100: visitors too (before the start without rows, as for players).
  'leaderboard.public': everyone,
  // Members may invite while the owner lets them (the fixture's group does: the default), before the start.
  'joinLinks.create': { before: membersOnly, after: membersLocked },
  'joinLinks.resolve': everyone,
  'joinLinks.join': signedIn('ok'),
  'picks.mine': membersOnly,
  'picks.global': signedIn('ok'),
  'picks.save': { before: membersOnly, after: membersLocked },
  // The owner's picks in a picks_public group: hidden before the start, members only after it.
  'picks.ofParticipant': {
    before: { anonymous: 401, nonMember: 403, member: 403, owner: 'ok', admin: 403 },
    after: membersOnly,
  },
  'players.list': everyone,
  'draft.status': everyone,
  'draft.start': { before: adminOnly('ok'), after: adminOnly(409) },
  'draft.recordPick': { before: adminOnly(409), after: adminOnly('ok') },
  'draft.undo': { before: adminOnly(409), after: adminOnly('ok') },
  'draft.completeRound': { before: adminOnly(409), after: adminOnly('ok') },
  'draft.reset': adminOnly('ok'),
  'draft.auditLog': adminOnly('ok'),
  // Nothing to undo on a fresh draft is an answer (null), not a refusal.
  'draft.nextUndo': adminOnly('ok'),
  // The order is season data: changed for a traded pick before, during and after round one.
  'draft.setTeam': adminOnly('ok'),
  // The feed's queue: an unknown item is 404 for the operator, before and after the start.
  'draft.feed': adminOnly('ok'),
  'draft.feedConfirm': adminOnly(404),
  'draft.feedDismiss': adminOnly(404),
  // Live changes: every signed-in page listens.
  'draft.changes': signedIn('ok'),
  // The spectators' stream: anyone, signed in or not (capped per address).
  'draft.publicChanges': everyone,
  'leaderboard.group': membersOnly,
  // Who picked whom: nothing before the start (409 once the caller may read the group), members only after.
  'leaderboard.field': { before: membersLocked, after: membersOnly },
  // The caller's own groups: anyone signed in (an empty list without groups).
  'leaderboard.myGroups': signedIn('ok'),
  // A link to one's own entry in a group: its members, before and after the start.
  'share.createLink': membersOnly,
  // Past seasons read as today's standings do: every signed-in player globally, members in a group.
  'seasons.list': membersOnly,
  'seasons.globalLeaderboard': signedIn('ok'),
  'seasons.groupLeaderboard': membersOnly,
  // The VAPID public key is public; a device's subscription is its player's own (another's answers as none).
  'push.publicKey': everyone,
  'push.status': signedIn('ok'),
  'push.subscribe': signedIn('ok'),
  'push.unsubscribe': signedIn('ok'),
  'push.setDelay': signedIn(404),
  // The caller's own settings per kind of notification.
  'push.preferences': signedIn('ok'),
  'push.setPreferences': signedIn('ok'),
};

type Caller = Awaited<ReturnType<TestApp['caller']>>;
interface Fixture {
  groupId: number;
  token: string;
}
interface Cell {
  caller: Caller;
  role: Role;
  user: TestUser | undefined;
  phase: Phase;
  fixture: Fixture;
}

let t: TestApp;
let users: Record<Exclude<Role, 'anonymous'>, TestUser>;
let callers: Record<Role, Caller>;
let shared: Fixture;
let players: number[];

/** A group owned by "owner" with "member" in it, a password and a live invite link; written directly. */
async function makeFixture(): Promise<Fixture> {
  const [group] = await t.db.query<{ id: number }>(
    `insert into groups (name, is_public, picks_public, password_hash, created_by) values ($1, false, true, $2, $3) returning id`,
    [uniqueName('Matrix'), await hashPassword('secret password'), users.owner.id],
  );
  const groupId = group!.id;
  await t.db.query(`insert into group_membership (group_id, participant_id, is_owner) values ($1, $2, true), ($1, $3, false)`, [
    groupId,
    users.owner.id,
    users.member.id,
  ]);
  const token = crypto.randomBytes(24).toString('base64url');
  await t.db.query(`insert into join_link (group_id, token_hash, created_by, expires_at) values ($1, $2, $3, now() + interval '1 day')`, [
    groupId,
    sha256hex(token),
    users.owner.id,
  ]);
  await t.db.query(`insert into pick (participant_id, group_id, player_id) values ($1, $2, $3)`, [users.owner.id, groupId, players[0]]);
  return { groupId, token };
}

/** Each procedure called with an input that is valid for the owner, so only authorization varies. */
const CALLS: Record<string, { fresh?: boolean; run: (c: Cell) => Promise<unknown>; restore?: (c: Cell) => Promise<void> }> = {
  'auth.me': { run: ({ caller }) => caller.auth.me() },
  'auth.authTest': { run: ({ caller }) => caller.auth.authTest() },
  'auth.jwtDebug': { run: ({ caller }) => caller.auth.jwtDebug() },
  'auth.updateScreenName': { run: ({ caller, user }) => caller.auth.updateScreenName({ screen_name: user?.username ?? 'anonymous' }) },
  'auth.migrateParticipantId': {
    run: async ({ caller, user }) => {
      const temp = `temp_${crypto.randomBytes(6).toString('hex')}`;
      // Made with the caller's address: theirs to move.
      await t.db.query(`insert into participant (id, email) values ($1, $2)`, [temp, user?.email ?? null]);
      return caller.auth.migrateParticipantId({ temp_id: temp, clerk_id: user?.id ?? 'user_nobody' });
    },
  },
  'users.status': { run: ({ caller }) => caller.users.status() },
  'users.markFirstLoginDone': { run: ({ caller }) => caller.users.markFirstLoginDone() },
  'users.reminders': { run: ({ caller }) => caller.users.reminders() },
  'users.setReminders': { run: ({ caller }) => caller.users.setReminders({ reminders: true }) },
  'groups.mine': { run: ({ caller }) => caller.groups.mine() },
  'groups.publicGroups': { run: ({ caller }) => caller.groups.publicGroups() },
  'groups.get': { run: ({ caller, fixture }) => caller.groups.get({ group_id: fixture.groupId }) },
  'groups.create': { run: ({ caller }) => caller.groups.create({ name: uniqueName(), is_public: false, picks_public: false }) },
  'groups.createSimple': { run: ({ caller }) => caller.groups.createSimple({ name: uniqueName() }) },
  'groups.join': { fresh: true, run: ({ caller, fixture }) => caller.groups.join({ group_id: fixture.groupId, password: 'secret password' }) },
  'groups.leave': { fresh: true, run: ({ caller, fixture }) => caller.groups.leave({ group_id: fixture.groupId }) },
  'groups.memberCount': { run: ({ caller, fixture }) => caller.groups.memberCount({ group_id: fixture.groupId }) },
  'groups.membership': { run: ({ caller, fixture }) => caller.groups.membership({ group_id: fixture.groupId }) },
  'groups.members': { run: ({ caller, fixture }) => caller.groups.members({ group_id: fixture.groupId }) },
  'groups.draftBoard': { run: ({ caller, fixture }) => caller.groups.draftBoard({ group_id: fixture.groupId }) },
  'groups.useGlobalPicks': { run: ({ caller, fixture }) => caller.groups.useGlobalPicks({ group_id: fixture.groupId, use_global_picks: false }) },
  // The same password again: the fixture's joins keep working.
  'groups.setPassword': { run: ({ caller, fixture }) => caller.groups.setPassword({ group_id: fixture.groupId, password: 'secret password' }) },
  // On, as it was: the fixture's members keep inviting.
  'groups.setMembersCanInvite': { run: ({ caller, fixture }) => caller.groups.setMembersCanInvite({ group_id: fixture.groupId, members_can_invite: true }) },
  'groups.publicCounts': { run: ({ caller }) => caller.groups.publicCounts() },
  'joinLinks.create': { run: ({ caller, fixture }) => caller.joinLinks.create({ group_id: fixture.groupId, expiration_hours: 24 }) },
  'joinLinks.resolve': { run: ({ caller, fixture }) => caller.joinLinks.resolve({ token: fixture.token }) },
  'joinLinks.join': { fresh: true, run: ({ caller, fixture }) => caller.joinLinks.join({ token: fixture.token }) },
  'picks.mine': { run: ({ caller, fixture }) => caller.picks.mine({ group_id: fixture.groupId }) },
  'picks.global': { run: ({ caller }) => caller.picks.global() },
  'picks.save': { run: ({ caller, fixture }) => caller.picks.save({ picks: [players[1]!, players[2]!], group_id: fixture.groupId }) },
  'picks.ofParticipant': { run: ({ caller, fixture }) => caller.picks.ofParticipant({ group_id: fixture.groupId, participant_id: users.owner.id }) },
  'players.list': { run: ({ caller }) => caller.players.list() },
  'draft.status': { run: ({ caller }) => caller.draft.status() },
  'draft.start': { run: ({ caller }) => caller.draft.start(), restore: async ({ phase }) => void (phase === 'before' && (await operatorReset(t))) },
  'draft.recordPick': {
    run: ({ caller }) => caller.draft.recordPick({ slot: 1, player_id: players[0]! }),
    restore: async () => {
      await t.db.query(`update player set draft_round = null, draft_pick = null`);
    },
  },
  'draft.undo': {
    run: async ({ caller, phase, role }) => {
      if (phase === 'after' && role === 'admin') await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 1, players[0]!);
      return caller.draft.undo();
    },
    restore: async () => {
      await t.db.query(`update player set draft_round = null, draft_pick = null`);
    },
  },
  'draft.completeRound': {
    run: ({ caller }) => caller.draft.completeRound(),
    restore: async () => {
      await t.db.query(`update draft_state set round_one_complete = false`);
    },
  },
  'draft.reset': { run: ({ caller }) => caller.draft.reset(), restore: async ({ phase }) => void (phase === 'after' && (await operatorStart(t).catch(() => {}))) },
  'draft.auditLog': { run: ({ caller }) => caller.draft.auditLog() },
  'draft.nextUndo': { run: ({ caller }) => caller.draft.nextUndo() },
  'draft.setTeam': {
    run: ({ caller }) => caller.draft.setTeam({ slot: 30, team: 'KC' }),
    // Back to the real order: the next call changes it again.
    restore: async () => void (await t.db.query(`update round_one_order set team = 'BUF', changed_by = null where slot = 30`)),
  },
  'draft.feed': { run: ({ caller }) => caller.draft.feed() },
  'draft.feedConfirm': { run: ({ caller }) => caller.draft.feedConfirm({ id: 2_000_000_000 }) },
  'draft.feedDismiss': { run: ({ caller }) => caller.draft.feedDismiss({ id: 2_000_000_000 }) },
  'draft.changes': {
    run: async ({ caller }) => {
      const stream = await caller.draft.changes();
      await stream[Symbol.asyncIterator]().return?.(undefined);
    },
  },
  'draft.publicChanges': {
    run: async ({ caller }) => {
      const stream = await caller.draft.publicChanges();
      await stream[Symbol.asyncIterator]().return?.(undefined);
    },
  },
  'leaderboard.group': { run: ({ caller, fixture }) => caller.leaderboard.group({ group_id: fixture.groupId }) },
  'leaderboard.public': { run: ({ caller }) => caller.leaderboard.public() },
  'leaderboard.field': { run: ({ caller, fixture }) => caller.leaderboard.field({ group_id: fixture.groupId }) },
  'leaderboard.myGroups': { run: ({ caller }) => caller.leaderboard.myGroups() },
  'share.createLink': { run: ({ caller, fixture }) => caller.share.createLink({ group_id: fixture.groupId }) },
  'seasons.list': { run: ({ caller, fixture }) => caller.seasons.list({ group_id: fixture.groupId }) },
  'seasons.globalLeaderboard': { run: ({ caller }) => caller.seasons.globalLeaderboard({ year: 2024 }) },
  'seasons.groupLeaderboard': { run: ({ caller, fixture }) => caller.seasons.groupLeaderboard({ year: 2024, group_id: fixture.groupId }) },
  'push.publicKey': { run: ({ caller }) => caller.push.publicKey() },
  'push.status': { run: ({ caller }) => caller.push.status({ endpoint: 'https://push.example.test/authz' }) },
  // One device per role: an endpoint another player holds is refused (CONFLICT), whoever asks.
  'push.subscribe': { run: ({ caller, role }) => caller.push.subscribe({ endpoint: `https://fcm.googleapis.com/fcm/send/authz-${role}`, keys: pushDeviceKeys() }) },
  'push.unsubscribe': { run: ({ caller }) => caller.push.unsubscribe({ endpoint: 'https://push.example.test/authz' }) },
  'push.setDelay': { run: ({ caller }) => caller.push.setDelay({ endpoint: 'https://push.example.test/nobody', delay_seconds: 10 }) },
  'push.preferences': { run: ({ caller }) => caller.push.preferences() },
  'push.setPreferences': { run: ({ caller }) => caller.push.setPreferences({ busted: true, final: true, reminder: true }) },
};

const procedureNames = () => Object.keys(appRouter._def.procedures).sort();
const expectedRow = (name: string, phase: Phase): Row => {
  const e = EXPECTED[name]!;
  return 'before' in e ? e[phase] : e;
};

async function outcomeOf(promise: Promise<unknown>): Promise<Outcome | string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof TRPCError) return getHTTPStatusCodeFromError(error) as Outcome;
    return `not a TRPCError: ${String(error)}`;
  }
}

beforeAll(async () => {
  t = await createTestApp();
  users = {
    nonMember: await t.signUp('outsider'),
    member: await t.signUp('member'),
    owner: await t.signUp('owner'),
    admin: await t.signUp('operator', ADMIN_EMAIL),
  };
  callers = {
    anonymous: await t.caller(),
    nonMember: await t.caller(users.nonMember),
    member: await t.caller(users.member),
    owner: await t.caller(users.owner),
    admin: await t.caller(users.admin),
  };
  // Participant rows exist once each user has made one call.
  for (const role of ROLES) if (role !== 'anonymous') await callers[role].auth.me();
  players = await boardIds(t);
  shared = await makeFixture();
  // A closed season the fixture group took part in (the current one is 2025).
  const entry = { participantId: users.owner.id, name: users.owner.username, hits: [true] };
  await insertPastSeason(t, 2024, [
    { id: 1, name: 'Global', entries: [entry] },
    { id: shared.groupId, name: 'Matrix then', entries: [entry] },
  ]);
});
afterAll(async () => t?.close());

it('has an expected row for every procedure of the router, and a call for each', () => {
  expect(Object.keys(EXPECTED).sort()).toEqual(procedureNames());
  expect(Object.keys(CALLS).sort()).toEqual(procedureNames());
});

/**
 * Who may call each procedure, as it says of itself (`meta.access`, set by its builder: trpc/trpc.ts) and as
 * docs/procedures.md prints it, agrees with what it answers: anyone is let in only where it says public, a
 * member procedure turns non-members away, an operator's everyone else.
 */
it("states who may call each procedure as the matrix finds it (docs/procedures.md, 'Who')", () => {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;
  const disagree = procedureNames().filter((name) => {
    const access = procedures[name]!._def.meta?.access;
    const rows = [expectedRow(name, 'before'), expectedRow(name, 'after')];
    if (rows.every((r) => r.anonymous === 'ok')) return access !== 'public';
    switch (access) {
      case 'signed-in':
        return false;
      case 'member':
        return !rows.every((r) => r.nonMember === 403 || r.nonMember === 404);
      case 'owner':
        return !rows.every((r) => (r.nonMember === 403 || r.nonMember === 404) && r.member === 403);
      case 'operator':
        return !rows.every((r) => r.nonMember === 403 && r.member === 403 && r.owner === 403);
      default:
        return true;
    }
  });
  expect(disagree).toEqual([]);
});

for (const phase of ['before', 'after'] as const) {
  describe(`${phase} the start`, () => {
    beforeAll(async () => {
      await operatorReset(t);
      if (phase === 'after') await operatorStart(t);
      const status = await callers.anonymous.draft.status();
      expect(status.draftHasStarted).toBe(phase === 'after');
    });

    for (const name of Object.keys(CALLS)) {
      it(name, async () => {
        const call = CALLS[name]!;
        const actual: Partial<Record<Role, Outcome | string>> = {};
        for (const role of ROLES) {
          const fixture = call.fresh ? await makeFixture() : shared;
          const cell: Cell = { caller: callers[role], role, user: role === 'anonymous' ? undefined : users[role], phase, fixture };
          try {
            actual[role] = await outcomeOf(call.run(cell));
          } finally {
            await call.restore?.(cell);
          }
        }
        expect(actual).toEqual(expectedRow(name, phase));
      });
    }
  });
}
