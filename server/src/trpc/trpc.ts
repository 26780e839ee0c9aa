import { initTRPC, TRPCError, type TRPCProcedureBuilder } from '@trpc/server';
import { z } from 'zod';
import { MESSAGES } from '@first-round/shared/messages';
import type { ErrorKind } from '@first-round/shared/errors';
import { idSchema, NUL_MESSAGE } from '@first-round/shared/schemas';
import type { Context } from './context.js';
import { describeError, DomainError, draftLocked, ERROR_TABLE, isDatabaseUnavailable, isUniqueViolation, unprocessable } from '../errors.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParticipantRow } from '../modules/users/participants.service.js';
import { ensureParticipant } from '../modules/auth/account.service.js';
import type { MaybePromise } from '../cache/maybe-promise.js';
import type { Identity } from '../modules/auth/bearer.js';
import { requireMembership } from '../modules/groups/membership.js';
import { spendOnGroupNotFound } from '../modules/groups/probe-budget.js';
import { isDraftStarted } from '../modules/draft/draft.service.js';
import { SSE_OPTIONS } from '../live/parts.js';

/**
 * Who may call a procedure. Each builder below sets its own (`.meta({ access })`), so a procedure says it
 * by the builder it is made from; a hot read (trpc/hot-read.ts), which checks for itself, states its own.
 */
export const ACCESS = {
  public: 'anyone, signed in or not',
  'signed-in': 'a signed-in player (bearer token)',
  member: 'a signed-in member of the group `group_id` names (the global group, 1, is every signed-in player; an absent optional `group_id` is the global group)',
  owner: 'the owner of the group `group_id` names',
  operator: 'a draft operator (ADMIN_EMAILS)',
} as const;
export type Access = keyof typeof ACCESS;

/**
 * What a procedure says about itself beyond its schemas, for the OpenAPI document and the procedure
 * reference (docs/procedures.md, `npm run docs:procedures`). Each procedure's REST paths live in
 * rest/routes.ts, not here.
 */
export interface Meta {
  description?: string;
  /**
   * The documented output of a procedure without `.output()`: a hot read, whose answer a cache validates
   * once per version (`.output()` would validate and copy it on every call), or an operator's change.
   */
  output?: z.ZodType;
  /**
   * Who may call it: set by the builder (below). A procedure whose own check narrows it says so itself: a
   * hot read, a service that requires membership of an optional `group_id`. The authorization matrix
   * (server/test/game/authz-matrix.test.ts) holds every procedure's `access` to what it answers.
   */
  access?: Access;
  /** Refused with DRAFT_LOCKED once the draft has started: set by `draftOpenProcedure`. */
  lockedAtStart?: boolean;
  /**
   * The error kinds its own rules give, beyond those its access, its input and the lock imply (the
   * reference adds those itself): a taken name is CONFLICT, an unknown player NOT_FOUND.
   */
  errors?: readonly ErrorKind[];
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // Outside development stack traces would leak into responses (tRPC's isDev).
    isDev: false,
    // SSE subscriptions: the same settings as the frames written by hand (live/parts.ts).
    sse: SSE_OPTIONS,
    // The message a client may see, the kind it branches on and the error's data (a refused join's tries
    // left), from the one error model (errors.ts); tRPC's own code and HTTP status stay as tRPC sets them.
    errorFormatter({ shape, error }) {
      const { kind, message, data } = describeError(error);
      return { ...shape, message, data: { ...shape.data, stack: undefined, detail: message, kind, ...data } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
/** The root configuration (its error formatter, its SSE settings), for answers written outside tRPC (wire.ts). */
export const trpcConfig = t._config;

/**
 * Domain errors, stray unique violations and the database out of reach as tRPC errors with the table's
 * code (errors.ts); undefined for anything else, which tRPC answers as its own (a 500 for the unknown).
 */
export function toTrpcError(cause: unknown): TRPCError | undefined {
  if (!(cause instanceof DomainError) && !isUniqueViolation(cause) && !isDatabaseUnavailable(cause)) return undefined;
  return trpcErrorOf(cause);
}

function trpcErrorOf(cause: unknown): TRPCError {
  const { kind, message } = describeError(cause);
  return new TRPCError({ code: ERROR_TABLE[kind].trpc, message, cause: cause as Error });
}

/** Whether a NUL character hides anywhere in a decoded input (keys included). */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 32) return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v, depth + 1));
}

/** PostgreSQL text cannot hold NUL: a NUL that reached a query would answer 500. */
export function refuseNulInput(input: unknown) {
  if (containsNul(input)) throw trpcErrorOf(unprocessable(NUL_MESSAGE));
}

/**
 * Every procedure's first (and, for public ones, only) step, one middleware because each tRPC middleware
 * level costs about as much as a hot read itself:
 * - a NUL anywhere in the input is refused before anything runs (schemas refuse it field by field; this
 *   covers every procedure, fields added later included);
 * - a fresh EntityManager per procedure (not per HTTP request: batched calls would share and hang),
 *   passed explicitly (`allowGlobalContext` is off and nothing reaches for an implicit one);
 * - a 'Group not found' is counted against the caller's address, and past its budget answered 429
 *   (modules/groups/probe-budget.ts);
 * - domain errors and constraint violations become tRPC errors, in this one place.
 */
const base = t.middleware(async ({ ctx, getRawInput, next }) => {
  refuseNulInput(await getRawInput());
  const result = await next({ ctx: { em: ctx.deps.orm.em.fork() } });
  if (!result.ok) {
    const mapped = toTrpcError(spendOnGroupNotFound(ctx.deps.groupProbes, ctx.ip, result.error.cause));
    if (mapped) throw mapped;
    if (result.error.code === 'INTERNAL_SERVER_ERROR') ctx.deps.log.error({ err: result.error.cause ?? result.error }, 'procedure failed');
  }
  return result;
});

export const publicProcedure = t.procedure.use(base).meta({ access: 'public' });

export interface SignedIn {
  identity: Identity;
  participant: ParticipantRow;
  isAdmin: boolean;
}

/**
 * Who a signed-in caller is (their participant row created or refreshed on first sight); 401 otherwise,
 * thrown at once. `ctx.em` is touched only when the row is not in memory (a hot read forks one only
 * then); a row in memory is answered without a promise (cache/maybe-promise.ts).
 */
export function signedIn(ctx: Context & { em: EntityManager }): MaybePromise<SignedIn> {
  if (!ctx.auth) throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.authRequired });
  if (!ctx.auth.ok) throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.authRequiredSignInAgain });
  const { identity } = ctx.auth;
  const { participants, clerkLookup, config } = ctx.deps;
  const known = participants.get(identity.userId);
  if (known) return signedInAs(identity, known, config);
  return ensureParticipant(ctx.em, identity, participants, clerkLookup).then((participant) => signedInAs(identity, participant, config));
}

function signedInAs(identity: Identity, participant: ParticipantRow, config: Context['deps']['config']): SignedIn {
  return { identity, participant, isAdmin: Boolean(participant.email && config.ADMIN_EMAILS.includes(participant.email.toLowerCase())) };
}

/** Signed-in callers only; narrows the context to their identity and participant row. */
export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => next({ ctx: await signedIn(ctx) })).meta({ access: 'signed-in' });

export const adminProcedure = authedProcedure
  .use(async ({ ctx, next }) => {
    if (!ctx.isAdmin) throw new TRPCError({ code: 'FORBIDDEN', message: 'Only draft operators can do this' });
    return next();
  })
  .meta({ access: 'operator' });

/** Members of the group named by `group_id` (group 1, the global group, counts every signed-in user). */
export const groupMemberProcedure = authedProcedure
  .input(z.object({ group_id: idSchema }))
  .use(async ({ ctx, input, next }) => {
    const membership = await requireMembership(ctx.em, input.group_id, ctx.participant.id);
    return next({ ctx: { membership } });
  })
  .meta({ access: 'member' });

export const groupOwnerProcedure = groupMemberProcedure
  .use(async ({ ctx, next }) => {
    if (!ctx.membership.is_owner) throw new TRPCError({ code: 'FORBIDDEN', message: MESSAGES.notGroupOwner });
    return next();
  })
  .meta({ access: 'owner' });

/** Any procedure builder below `publicProcedure` (each one runs with its own EntityManager), whatever its input and output. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tRPC's own AnyProcedureBuilder spells "any input or output" this way
type WithEntityManager = TRPCProcedureBuilder<Context, Meta, { em: EntityManager }, any, any, any, any, false>;

/**
 * `procedure`, refused with 409 and `lockedMessage` once the draft has started: what the start locks
 * (picks, new groups, invite links). Wrap the procedure once its caller's rights and input are checked,
 * so a non-member still hears 403 and bad input 422 after the start. The state is read from the
 * database, not the status cache: a start heard late must not let a write through. Writes that race the
 * start check again inside their own transaction (picks.save).
 */
export function draftOpenProcedure<TProcedure extends WithEntityManager>(procedure: TProcedure, lockedMessage: string): TProcedure {
  return procedure
    .use(async ({ ctx, next }) => {
      if (await isDraftStarted(ctx.em, ctx.deps.draft)) throw draftLocked(lockedMessage);
      return next();
    })
    .meta({ lockedAtStart: true }) as TProcedure;
}
