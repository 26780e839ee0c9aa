import type { inferRouterInputs } from '@trpc/server';
import { z } from 'zod';
import { parseId, parseWholeNumber } from '@first-round/shared/ids';
import { idSchema, joinLinkTokenInput, participantIdSchema, seasonYearSchema } from '@first-round/shared/schemas';
import type { AppRouter } from '../trpc/root.js';
import { invalidInput } from '../errors.js';

type RouterInputs = inferRouterInputs<AppRouter>;
/** Every procedure path, e.g. "groups.get". */
export type ProcedurePath = { [NS in keyof RouterInputs]: `${NS & string}.${keyof RouterInputs[NS] & string}` }[keyof RouterInputs];

/**
 * Who may call a row: anyone (`public`), a signed-in player with a bearer token, or an operator (`admin`,
 * ADMIN_EMAILS). The procedure enforces it; the row states it for the OpenAPI document and the tests,
 * which check that each row answers as its `auth` says.
 */
export type RestAuth = 'public' | 'bearer' | 'admin';

/** A query value: a whole number read by the shared parser, or text; absent is undefined. */
export type QueryParam = z.ZodOptional<z.ZodType<number | string, unknown>>;
export type QuerySchema = z.ZodObject<Record<string, QueryParam>>;

export interface RestRequest {
  params: Record<string, string>;
  /** The row's query parameters, parsed by its `query` schema (others are ignored). */
  query: Record<string, number | string | undefined>;
  body: unknown;
}

export interface RestRoute {
  method: 'GET' | 'POST' | 'PATCH';
  /** Fastify path (`:id` parameters); served at `/api<path>` and at `<path>`, with or without a trailing slash. */
  path: string;
  procedure: ProcedurePath;
  auth: RestAuth;
  /** The query parameters the row reads: parsed before the procedure runs (malformed: 422) and documented. */
  query?: QuerySchema;
  /** Builds the procedure's input from the request; omitted when the procedure takes none. */
  input?: (req: RestRequest) => unknown;
  /** One of the original REST contract's calls, kept at its path (false: a row this product added, e.g. the operator's calls). */
  spec: boolean;
  summary: string;
  /** Answers beyond the ones every row documents (status → description), for the OpenAPI document. */
  responses?: Record<number, string>;
}

/** The path parameters rows use, each with the schema its procedure checks it by (for the OpenAPI document). */
export const PATH_PARAMS: Record<string, z.ZodType> = {
  id: idSchema,
  participantId: participantIdSchema,
  token: joinLinkTokenInput.shape.token,
  year: seasonYearSchema,
};

/** A whole number from the query string, read by one of the shared parsers (shared/src/ids.ts). */
function numberParam(parse: (value: unknown) => number | null): QueryParam {
  return z
    .unknown()
    .transform((value, ctx) => {
      const n = parse(value);
      if (n === null) ctx.addIssue({ code: 'custom', message: 'must be a positive integer' });
      return n ?? z.NEVER;
    })
    .optional();
}
/** `?group_id=42`, `?limit=100`. */
const idParam = numberParam(parseId);
/** `?offset=0`: zero counts. */
const countParam = numberParam((value) => parseWholeNumber(value, 0));
/** `?search=ann`: text, checked by the procedure's own schema. */
const textParam: QueryParam = z.string().optional();
/** `?before=2026-04-23T20:00:45Z`: the draft as it was then (checked by the procedure's own schema). */
const asOfQuery = z.object({ before: textParam });
const asOfFromQuery = (r: RestRequest) => (r.query.before === undefined ? undefined : { before: r.query.before });

/** The row's query parameters, parsed; a malformed one is a 422 naming it ("limit must be a positive integer"). */
export function parseQuery(schema: QuerySchema | undefined, query: unknown): Record<string, number | string | undefined> {
  if (!schema) return {};
  const parsed = schema.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  throw invalidInput(parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; '));
}

/** A path id, read by the shared parser; else a 422 naming the field. */
export function pathId(value: string | undefined, field: string): number {
  const id = parseId(value);
  if (id === null) throw invalidInput(`${field} must be a positive integer`);
  return id;
}

const body = (req: RestRequest) => req.body ?? {};
const groupFromPath = (req: RestRequest) => ({ group_id: pathId(req.params.id, 'group_id') });
/**
 * The body with the path's queue item id; a body that is no object (null, a number, an array) is passed on
 * as it is, for the schema to refuse (every field of the body may be absent, so `{}` would pass).
 */
const bodyWithItemFromPath = (req: RestRequest) =>
  req.body === undefined || (typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body))
    ? { ...(req.body as object | undefined), id: pathId(req.params.id, 'id') }
    : req.body;
const bodyWithGroupFromPath = (req: RestRequest) => ({ ...(req.body as object | undefined), group_id: pathId(req.params.id, 'group_id') });

/** The REST adapter is data: one row per documented call, each a call of the same tRPC procedure. */
export const restRoutes: RestRoute[] = [
  { method: 'GET', path: '/auth/me', procedure: 'auth.me', auth: 'bearer', spec: true, summary: 'Profile and account sync' },
  { method: 'GET', path: '/auth/auth-test', procedure: 'auth.authTest', auth: 'bearer', spec: true, summary: 'Authentication diagnostic' },
  { method: 'POST', path: '/auth/update-screen-name', procedure: 'auth.updateScreenName', auth: 'bearer', input: body, spec: true, summary: 'Change the username' },
  { method: 'POST', path: '/auth/migrate-participant-id', procedure: 'auth.migrateParticipantId', auth: 'bearer', input: body, spec: true, summary: 'Account fix: move a temp_ participant onto your id' },
  { method: 'GET', path: '/auth/jwt-debug', procedure: 'auth.jwtDebug', auth: 'bearer', spec: true, summary: 'Decoded token claims (never the token)' },
  { method: 'GET', path: '/users/me/status', procedure: 'users.status', auth: 'bearer', spec: true, summary: 'First-login status' },
  { method: 'PATCH', path: '/users/me/status', procedure: 'users.markFirstLoginDone', auth: 'bearer', spec: true, summary: 'Mark the first login done' },
  { method: 'GET', path: '/users/me/reminders', procedure: 'users.reminders', auth: 'bearer', spec: false, summary: 'Whether the caller gets e-mail before picks lock (24 h and 1 h before)' },
  {
    method: 'PATCH',
    path: '/users/me/reminders',
    procedure: 'users.setReminders',
    auth: 'bearer',
    input: body,
    spec: false,
    summary: 'Switch e-mail before picks lock on or off ({reminders: boolean})',
  },
  { method: 'GET', path: '/groups/user', procedure: 'groups.mine', auth: 'bearer', spec: true, summary: "The caller's groups" },
  { method: 'GET', path: '/groups/user-with-counts', procedure: 'groups.mine', auth: 'bearer', spec: true, summary: "The caller's groups with member counts" },
  { method: 'GET', path: '/groups/my-standings', procedure: 'leaderboard.myGroups', auth: 'bearer', spec: false, summary: "The caller's place in each of their groups (before the start: whose picks are in)" },
  { method: 'GET', path: '/groups/public-groups', procedure: 'groups.publicGroups', auth: 'bearer', spec: true, summary: 'Public groups the caller can join' },
  {
    method: 'GET',
    path: '/groups/public-counts',
    procedure: 'groups.publicCounts',
    auth: 'public',
    spec: false,
    summary: 'Entries on the global leaderboard and groups made, for the landing page (no sign-in; counted at most once a minute)',
  },
  {
    method: 'POST',
    path: '/groups/join-links',
    procedure: 'joinLinks.create',
    auth: 'bearer',
    input: body,
    spec: true,
    summary: 'Create an invite link ({group_id, expiration_hours?}; without hours it lasts until picks lock): members, unless the owner turned member invites off; before the start',
  },
  { method: 'GET', path: '/groups/join-links/:token', procedure: 'joinLinks.resolve', auth: 'public', input: (r) => ({ token: r.params.token }), spec: true, summary: 'Resolve an invite link (no sign-in needed)' },
  { method: 'POST', path: '/groups/join-with-link/:token', procedure: 'joinLinks.join', auth: 'bearer', input: (r) => ({ token: r.params.token }), spec: true, summary: 'Join with an invite link' },
  {
    method: 'POST',
    path: '/share/links',
    procedure: 'share.createLink',
    auth: 'bearer',
    // No body (or {}) is the global entry; a JSON null is no object and refused as such.
    input: (r) => (r.body === null ? null : (r.body ?? {})),
    spec: false,
    summary: "A share link for the caller's entry ({group_id}, absent: global): the public page /s/{token} and its card /api/share/{token}.png; the same link each time",
  },
  { method: 'POST', path: '/groups/create-simple', procedure: 'groups.createSimple', auth: 'bearer', input: body, spec: true, summary: 'Create a private group by name' },
  {
    method: 'POST',
    path: '/groups/join',
    procedure: 'groups.join',
    auth: 'bearer',
    input: body,
    spec: true,
    summary: 'Join a group by id (and password)',
    responses: { 429: "Too many failed joins (wrong passwords for this group, the player's or everyone's, or failed joins overall); the message and Retry-After say when to try again" },
  },
  { method: 'POST', path: '/groups', procedure: 'groups.create', auth: 'bearer', input: body, spec: true, summary: 'Create a group' },
  { method: 'GET', path: '/groups/:id', procedure: 'groups.get', auth: 'bearer', input: groupFromPath, spec: true, summary: 'One group' },
  { method: 'POST', path: '/groups/:id/leave', procedure: 'groups.leave', auth: 'bearer', input: groupFromPath, spec: true, summary: 'Leave a group' },
  { method: 'GET', path: '/groups/:id/member-count', procedure: 'groups.memberCount', auth: 'bearer', input: groupFromPath, spec: true, summary: 'Member count' },
  { method: 'GET', path: '/groups/:id/membership', procedure: 'groups.membership', auth: 'bearer', input: groupFromPath, spec: true, summary: "The caller's membership (is_owner)" },
  { method: 'GET', path: '/groups/:id/members', procedure: 'groups.members', auth: 'bearer', input: groupFromPath, spec: true, summary: 'Members and whether their picks are in' },
  {
    method: 'GET',
    path: '/standings/public',
    procedure: 'leaderboard.public',
    auth: 'public',
    spec: false,
    summary: "The global top 100 for anyone (no sign-in): what a signed-in player without an entry sees on the global leaderboard's first page; before the start no rows",
    responses: { 404: 'Public standings are switched off (PUBLIC_STANDINGS=false): the standings are for players' },
  },
  {
    method: 'GET',
    path: '/groups/:id/leaderboard',
    procedure: 'leaderboard.group',
    auth: 'bearer',
    query: z.object({ limit: idParam, offset: countParam, search: textParam, status: textParam, before: textParam }),
    input: (r) => ({ group_id: pathId(r.params.id, 'group_id'), ...r.query }),
    spec: true,
    summary:
      "Standings (1 = global), a page at a time (?limit=&offset=), optionally names matching ?search= or only ?status=alive|busted, with the caller's own row; ?before=: as of the draft's last change before that moment",
  },
  {
    method: 'GET',
    path: '/groups/:id/draft-board',
    procedure: 'groups.draftBoard',
    auth: 'bearer',
    input: groupFromPath,
    spec: false,
    summary: "Members, after the start: round one's slots as they fill with who had each player, and the undrafted players members are waiting on (others' entries where the group's picks are public)",
    responses: { 409: "The draft has not started: nothing about anyone's picks is shown yet" },
  },
  {
    method: 'POST',
    path: '/groups/:id/password',
    procedure: 'groups.setPassword',
    auth: 'bearer',
    input: bodyWithGroupFromPath,
    spec: false,
    summary: "Owner: set the group's password ({password}), or remove it ({password: null}); stored hashed",
  },
  {
    method: 'POST',
    path: '/groups/:id/members-can-invite',
    procedure: 'groups.setMembersCanInvite',
    auth: 'bearer',
    input: bodyWithGroupFromPath,
    spec: false,
    summary: "Owner: let members make invite links ({members_can_invite: true}, the default) or not (false: members' links stop working too)",
  },
  { method: 'POST', path: '/groups/:id/use-global-picks', procedure: 'groups.useGlobalPicks', auth: 'bearer', input: bodyWithGroupFromPath, spec: true, summary: 'Reuse global picks in the group, or not' },
  {
    method: 'GET',
    path: '/groups/:id/picks/:participantId',
    procedure: 'picks.ofParticipant',
    auth: 'bearer',
    input: (r) => ({ group_id: pathId(r.params.id, 'group_id'), participant_id: r.params.participantId }),
    spec: false,
    summary: "A member's picks, after the start, where the group's picks are public",
  },
  {
    method: 'GET',
    path: '/picks/my-picks',
    procedure: 'picks.mine',
    auth: 'bearer',
    query: z.object({ group_id: idParam }),
    input: (r) => (r.query.group_id === undefined ? undefined : { group_id: r.query.group_id }),
    spec: true,
    summary: "The caller's picks (global, or a group's with ?group_id=)",
  },
  { method: 'GET', path: '/picks/global-picks', procedure: 'picks.global', auth: 'bearer', spec: true, summary: "The caller's global picks" },
  // The original contract writes these two with a trailing slash; the router's ignoreTrailingSlash answers both spellings.
  { method: 'POST', path: '/picks/', procedure: 'picks.save', auth: 'bearer', input: body, spec: true, summary: 'Save picks (1–32 players, replaces the set)' },
  { method: 'GET', path: '/players/', procedure: 'players.list', auth: 'public', query: asOfQuery, input: asOfFromQuery, spec: true, summary: "The big board, by rank (?before=: round one's results as of the draft's last change before that moment)" },
  { method: 'GET', path: '/draft/status', procedure: 'draft.status', auth: 'public', query: asOfQuery, input: asOfFromQuery, spec: true, summary: "Draft status (?before=: as of the draft's last change before that moment)" },
  {
    method: 'GET',
    path: '/draft/field',
    procedure: 'leaderboard.field',
    auth: 'bearer',
    query: z.object({ group_id: idParam }),
    input: (r) => (r.query.group_id === undefined ? undefined : { group_id: r.query.group_id }),
    spec: false,
    summary: "After the start: each picked player's share of the entries, globally or in one of the caller's groups (?group_id=)",
    responses: { 409: 'The draft has not started: the field is shown once it starts' },
  },
  {
    method: 'GET',
    path: '/seasons',
    procedure: 'seasons.list',
    auth: 'bearer',
    query: z.object({ group_id: idParam }),
    input: (r) => (r.query.group_id === undefined ? undefined : { group_id: r.query.group_id }),
    spec: false,
    summary: "Every season, newest first: the current one, and the closed ones with their winners and the caller's final place (globally, or in one of the caller's groups with ?group_id=)",
  },
  {
    method: 'GET',
    path: '/seasons/:year/leaderboard',
    procedure: 'seasons.globalLeaderboard',
    auth: 'bearer',
    query: z.object({ limit: idParam, offset: countParam }),
    input: (r) => ({ year: pathId(r.params.year, 'year'), ...r.query }),
    spec: false,
    summary: "A closed season's final global standings, a page at a time (?limit=&offset=), with the caller's own entry and its picks ✓/✗",
    responses: { 404: 'No such season, or it is the current one (its standings are /api/groups/1/leaderboard)' },
  },
  {
    method: 'GET',
    path: '/seasons/:year/groups/:id/leaderboard',
    procedure: 'seasons.groupLeaderboard',
    auth: 'bearer',
    query: z.object({ limit: idParam, offset: countParam }),
    input: (r) => ({ year: pathId(r.params.year, 'year'), group_id: pathId(r.params.id, 'group_id'), ...r.query }),
    spec: false,
    summary: "Members: a closed season's final standings in the group, each entry's picks ✓/✗ where the group's picks are public (the caller's own always)",
    responses: { 404: 'No such group (a private group the caller is not in answers alike), no such season, the current season, or the group was not there when the season closed' },
  },
  { method: 'POST', path: '/draft/start', procedure: 'draft.start', auth: 'admin', spec: false, summary: 'Operator: start the draft' },
  { method: 'POST', path: '/draft/picks', procedure: 'draft.recordPick', auth: 'admin', input: body, spec: false, summary: 'Operator: record a round-one pick' },
  { method: 'POST', path: '/draft/undo', procedure: 'draft.undo', auth: 'admin', spec: false, summary: 'Operator: undo the last change' },
  {
    method: 'GET',
    path: '/draft/undo',
    procedure: 'draft.nextUndo',
    auth: 'admin',
    spec: false,
    summary: "Operator: what undo would take back now (the 'complete' mark, the latest pick or the latest team change), or null",
  },
  {
    method: 'POST',
    path: '/draft/order',
    procedure: 'draft.setTeam',
    auth: 'admin',
    input: body,
    spec: false,
    summary: 'Operator: give a round-one slot to another team, a traded pick ({slot, team}: one of the 32 abbreviations)',
    responses: { 409: 'The slot already belongs to that team' },
  },
  { method: 'POST', path: '/draft/complete-round', procedure: 'draft.completeRound', auth: 'admin', spec: false, summary: 'Operator: mark round one complete' },
  { method: 'POST', path: '/draft/reset', procedure: 'draft.reset', auth: 'admin', spec: false, summary: 'Operator: reset the draft' },
  { method: 'GET', path: '/draft/events', procedure: 'draft.auditLog', auth: 'admin', spec: false, summary: 'Operator: audit log' },
  {
    method: 'GET',
    path: '/draft/feed',
    procedure: 'draft.feed',
    auth: 'admin',
    spec: false,
    summary: "Operator: the results feed's status (last poll, last error, lag) and its queue of picks to confirm or in conflict",
  },
  {
    method: 'POST',
    path: '/draft/feed/queue/:id/confirm',
    procedure: 'draft.feedConfirm',
    auth: 'admin',
    input: bodyWithItemFromPath,
    spec: false,
    summary: "Operator: record a queued feed pick ({player_id}: another board player than the suggestion)",
    responses: { 409: 'The item is already settled, or its slot is filled (a conflict: undo the recorded pick first)' },
  },
  {
    method: 'POST',
    path: '/draft/feed/queue/:id/dismiss',
    procedure: 'draft.feedDismiss',
    auth: 'admin',
    input: bodyWithItemFromPath,
    spec: false,
    summary: 'Operator: dismiss a queued feed pick (the same report is not queued again)',
  },
];
