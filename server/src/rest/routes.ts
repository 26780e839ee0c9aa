import type { inferRouterInputs } from '@trpc/server';
import type { AppRouter } from '../trpc/root.js';
import { badRequestInput } from './input.js';

type RouterInputs = inferRouterInputs<AppRouter>;
/** Every procedure path, e.g. "groups.get". */
export type ProcedurePath = { [NS in keyof RouterInputs]: `${NS & string}.${keyof RouterInputs[NS] & string}` }[keyof RouterInputs];

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface RestRoute {
  method: 'GET' | 'POST' | 'PATCH';
  /** Fastify path (`:id` parameters); served at `/api<path>` and at `<path>`. */
  path: string;
  procedure: ProcedurePath;
  /** Builds the procedure's input from the request; omitted when the procedure takes none. */
  input?: (req: RestRequest) => unknown;
  /** Documented in SPEC §7 (false: an extra row this product adds, e.g. the operator's calls). */
  spec: boolean;
  summary: string;
}

/** A path or query id: digits only, else a 422 naming the field. */
export function positiveId(value: string | string[] | undefined, field: string): number {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\d{1,10}$/.test(text) || Number(text) < 1 || Number(text) > 2_147_483_647) {
    throw badRequestInput(`${field} must be a positive integer`);
  }
  return Number(text);
}

const body = (req: RestRequest) => req.body ?? {};
const groupFromPath = (req: RestRequest) => ({ group_id: positiveId(req.params.id, 'group_id') });
const bodyWithGroupFromPath = (req: RestRequest) => ({ ...(req.body as object | undefined), group_id: positiveId(req.params.id, 'group_id') });

/** The REST adapter is data: one row per documented call, each a call of the same tRPC procedure. */
export const restRoutes: RestRoute[] = [
  { method: 'GET', path: '/auth/me', procedure: 'auth.me', spec: true, summary: 'Profile and account sync' },
  { method: 'GET', path: '/auth/auth-test', procedure: 'auth.authTest', spec: true, summary: 'Authentication diagnostic' },
  { method: 'POST', path: '/auth/update-screen-name', procedure: 'auth.updateScreenName', input: body, spec: true, summary: 'Change the username' },
  { method: 'POST', path: '/auth/migrate-participant-id', procedure: 'auth.migrateParticipantId', input: body, spec: true, summary: 'Account fix: move a temp_ participant onto your id' },
  { method: 'GET', path: '/auth/jwt-debug', procedure: 'auth.jwtDebug', spec: true, summary: 'Decoded token claims (never the token)' },
  { method: 'GET', path: '/users/me/status', procedure: 'users.status', spec: true, summary: 'First-login status' },
  { method: 'PATCH', path: '/users/me/status', procedure: 'users.markFirstLoginDone', spec: true, summary: 'Mark the first login done' },
  { method: 'GET', path: '/groups/user', procedure: 'groups.mine', spec: true, summary: "The caller's groups" },
  { method: 'GET', path: '/groups/user-with-counts', procedure: 'groups.mine', spec: true, summary: "The caller's groups with member counts" },
  { method: 'GET', path: '/groups/public-groups', procedure: 'groups.publicGroups', spec: true, summary: 'Public groups the caller can join' },
  { method: 'POST', path: '/groups/join-links', procedure: 'joinLinks.create', input: body, spec: true, summary: 'Create an invite link (owner, before the start)' },
  { method: 'GET', path: '/groups/join-links/:token', procedure: 'joinLinks.resolve', input: (r) => ({ token: r.params.token }), spec: true, summary: 'Resolve an invite link (no sign-in needed)' },
  { method: 'POST', path: '/groups/join-with-link/:token', procedure: 'joinLinks.join', input: (r) => ({ token: r.params.token }), spec: true, summary: 'Join with an invite link' },
  { method: 'POST', path: '/groups/create-simple', procedure: 'groups.createSimple', input: body, spec: true, summary: 'Create a private group by name' },
  { method: 'POST', path: '/groups/join', procedure: 'groups.join', input: body, spec: true, summary: 'Join a group by id (and password)' },
  { method: 'POST', path: '/groups', procedure: 'groups.create', input: body, spec: true, summary: 'Create a group' },
  { method: 'GET', path: '/groups/:id', procedure: 'groups.get', input: groupFromPath, spec: true, summary: 'One group' },
  { method: 'POST', path: '/groups/:id/leave', procedure: 'groups.leave', input: groupFromPath, spec: true, summary: 'Leave a group' },
  { method: 'GET', path: '/groups/:id/member-count', procedure: 'groups.memberCount', input: groupFromPath, spec: true, summary: 'Member count' },
  { method: 'GET', path: '/groups/:id/membership', procedure: 'groups.membership', input: groupFromPath, spec: true, summary: "The caller's membership (is_owner)" },
  { method: 'GET', path: '/groups/:id/members', procedure: 'groups.members', input: groupFromPath, spec: true, summary: 'Members and whether their picks are in' },
  {
    method: 'GET',
    path: '/groups/:id/leaderboard',
    procedure: 'leaderboard.group',
    input: (r) => ({
      group_id: positiveId(r.params.id, 'group_id'),
      ...(r.query.limit === undefined ? {} : { limit: positiveId(r.query.limit, 'limit') }),
      ...(r.query.offset === undefined ? {} : { offset: r.query.offset === '0' ? 0 : positiveId(r.query.offset, 'offset') }),
    }),
    spec: true,
    summary: 'Standings (1 = global), a page at a time (?limit=&offset=), with the caller\'s own row',
  },
  { method: 'POST', path: '/groups/:id/use-global-picks', procedure: 'groups.useGlobalPicks', input: bodyWithGroupFromPath, spec: true, summary: 'Reuse global picks in the group, or not' },
  {
    method: 'GET',
    path: '/groups/:id/picks/:participantId',
    procedure: 'picks.ofParticipant',
    input: (r) => ({ group_id: positiveId(r.params.id, 'group_id'), participant_id: r.params.participantId }),
    spec: false,
    summary: "A member's picks, after the start, where the group's picks are public",
  },
  {
    method: 'GET',
    path: '/picks/my-picks',
    procedure: 'picks.mine',
    input: (r) => (r.query.group_id === undefined ? undefined : { group_id: positiveId(r.query.group_id, 'group_id') }),
    spec: true,
    summary: "The caller's picks (global, or a group's with ?group_id=)",
  },
  { method: 'GET', path: '/picks/global-picks', procedure: 'picks.global', spec: true, summary: "The caller's global picks" },
  { method: 'POST', path: '/picks/', procedure: 'picks.save', input: body, spec: true, summary: 'Save picks (1–32 players, replaces the set)' },
  { method: 'POST', path: '/picks', procedure: 'picks.save', input: body, spec: true, summary: 'Save picks (same as /picks/)' },
  { method: 'GET', path: '/players/', procedure: 'players.list', spec: true, summary: 'The big board, by rank' },
  { method: 'GET', path: '/players', procedure: 'players.list', spec: true, summary: 'The big board (same as /players/)' },
  { method: 'GET', path: '/draft/status', procedure: 'draft.status', spec: true, summary: 'Draft status' },
  { method: 'POST', path: '/draft/start', procedure: 'draft.start', spec: false, summary: 'Operator: start the draft' },
  { method: 'POST', path: '/draft/picks', procedure: 'draft.recordPick', input: body, spec: false, summary: 'Operator: record a round-one pick' },
  { method: 'POST', path: '/draft/undo', procedure: 'draft.undo', spec: false, summary: 'Operator: undo the last change' },
  { method: 'POST', path: '/draft/complete-round', procedure: 'draft.completeRound', spec: false, summary: 'Operator: mark round one complete' },
  { method: 'POST', path: '/draft/reset', procedure: 'draft.reset', spec: false, summary: 'Operator: reset the draft' },
  { method: 'GET', path: '/draft/events', procedure: 'draft.auditLog', spec: false, summary: 'Operator: audit log' },
];
