import { initTRPC, TRPCError } from '@trpc/server';
import { z, ZodError } from 'zod';
import { MESSAGES } from '@first-round/shared/messages';
import { idSchema, NUL_MESSAGE } from '@first-round/shared/schemas';
import type { Context } from './context.js';
import { DomainError, isDatabaseUnavailable, isUniqueViolation, UNAVAILABLE_MESSAGE, type DomainErrorKind } from '../errors.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ensureParticipant, type ParticipantRow } from '../modules/users/participants.service.js';
import type { Identity } from '../modules/auth/bearer.js';
import { requireMembership } from '../modules/groups/membership.js';

/** REST metadata: each procedure's documented paths live in rest/routes.ts, not here. */
export interface Meta {
  description?: string;
  /**
   * The documented output of a hot read whose answer a cache validates once per version (instead of
   * `.output()`, which would validate and copy it on every call): used for the OpenAPI document.
   */
  output?: z.ZodType;
}

const trpcCodeOfKind: Record<DomainErrorKind, TRPCError['code']> = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  UNPROCESSABLE: 'UNPROCESSABLE_CONTENT',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  DRAFT_LOCKED: 'CONFLICT',
};

/** A readable one-line message for a zod failure: "picks: Expected array, received string". */
export function zodMessage(error: ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? `${i.path.join('.')}: ` : '';
      const msg = i.code === 'unrecognized_keys' ? `Unknown field(s): ${i.keys.join(', ')}` : i.message;
      return `${where}${msg}`;
    })
    .join('; ');
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // Outside development stack traces would leak into responses (STACK.md).
    isDev: false,
    // SSE subscriptions: a ping keeps proxies from closing idle streams; clients reconnect after silence.
    sse: { ping: { enabled: true, intervalMs: 15_000 }, client: { reconnectAfterInactivityMs: 40_000 } },
    errorFormatter({ shape, error }) {
      const message = error.cause instanceof ZodError ? zodMessage(error.cause) : error.code === 'INTERNAL_SERVER_ERROR' ? 'Internal server error' : error.message;
      return { ...shape, message, data: { ...shape.data, stack: undefined, detail: message } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Turns domain errors and constraint violations into tRPC errors, in this one place. */
export function toTrpcError(cause: unknown): TRPCError | undefined {
  if (cause instanceof DomainError) return new TRPCError({ code: trpcCodeOfKind[cause.kind], message: cause.message, cause });
  if (isUniqueViolation(cause)) return new TRPCError({ code: 'CONFLICT', message: 'That already exists', cause: cause as Error });
  if (isDatabaseUnavailable(cause)) return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE_MESSAGE, cause: cause as Error });
  return undefined;
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
  if (containsNul(input)) throw new TRPCError({ code: 'UNPROCESSABLE_CONTENT', message: NUL_MESSAGE });
}

/**
 * Every procedure's first (and, for public ones, only) step, one middleware because each tRPC middleware
 * level costs about as much as a hot read itself:
 * - a NUL anywhere in the input is refused before anything runs (schemas refuse it field by field; this
 *   covers every procedure, fields added later included);
 * - a fresh EntityManager per procedure (not per HTTP request: batched calls would share and hang),
 *   passed explicitly (`allowGlobalContext` is off and nothing reaches for an implicit one);
 * - domain errors and constraint violations become tRPC errors, in this one place.
 */
const base = t.middleware(async ({ ctx, getRawInput, next }) => {
  refuseNulInput(await getRawInput());
  const result = await next({ ctx: { em: ctx.deps.orm.em.fork() } });
  if (!result.ok) {
    const mapped = toTrpcError(result.error.cause);
    if (mapped) throw mapped;
    if (result.error.code === 'INTERNAL_SERVER_ERROR') ctx.deps.log.error({ err: result.error.cause ?? result.error }, 'procedure failed');
  }
  return result;
});

export const publicProcedure = t.procedure.use(base);

export interface SignedIn {
  identity: Identity;
  participant: ParticipantRow;
  isAdmin: boolean;
}

/**
 * Who a signed-in caller is (their participant row created or refreshed on first sight); 401 otherwise.
 * `ctx.em` is touched only when the row is not in memory (a hot read forks one only then).
 */
export async function signedIn(ctx: Context & { em: EntityManager }): Promise<SignedIn> {
  if (!ctx.auth) throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.authRequired });
  if (!ctx.auth.ok) throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.authRequiredSignInAgain });
  const { identity } = ctx.auth;
  const participant =
    ctx.deps.participants.get(identity.userId) ?? (await ensureParticipant(ctx.em, identity, ctx.deps.participants, ctx.deps.clerkLookup));
  const isAdmin = Boolean(participant.email && ctx.deps.config.ADMIN_EMAILS.includes(participant.email.toLowerCase()));
  return { identity, participant, isAdmin };
}

/** Signed-in callers only; narrows the context to their identity and participant row. */
export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => next({ ctx: await signedIn(ctx) }));

export const adminProcedure = authedProcedure.use(async ({ ctx, next }) => {
  if (!ctx.isAdmin) throw new TRPCError({ code: 'FORBIDDEN', message: 'Only draft operators can do this' });
  return next();
});

/** Members of the group named by `group_id` (group 1, the global group, counts every signed-in user). */
export const groupMemberProcedure = authedProcedure.input(z.object({ group_id: idSchema })).use(async ({ ctx, input, next }) => {
  const membership = await requireMembership(ctx.em, input.group_id, ctx.participant.id);
  return next({ ctx: { membership } });
});

export const groupOwnerProcedure = groupMemberProcedure.use(async ({ ctx, next }) => {
  if (!ctx.membership.is_owner) throw new TRPCError({ code: 'FORBIDDEN', message: MESSAGES.notGroupOwner });
  return next();
});
