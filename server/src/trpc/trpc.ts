import { initTRPC, TRPCError } from '@trpc/server';
import { z, ZodError } from 'zod';
import { MESSAGES } from '@first-round/shared/messages';
import { idSchema, NUL_MESSAGE } from '@first-round/shared/schemas';
import type { Context } from './context.js';
import { DomainError, isDatabaseUnavailable, isUniqueViolation, UNAVAILABLE_MESSAGE, type DomainErrorKind } from '../errors.js';
import { ensureParticipant } from '../modules/users/participants.service.js';
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
function toTrpcError(cause: unknown): TRPCError | undefined {
  if (cause instanceof DomainError) return new TRPCError({ code: trpcCodeOfKind[cause.kind], message: cause.message, cause });
  if (isUniqueViolation(cause)) return new TRPCError({ code: 'CONFLICT', message: 'That already exists', cause: cause as Error });
  if (isDatabaseUnavailable(cause)) return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE_MESSAGE, cause: cause as Error });
  return undefined;
}

/**
 * A fresh EntityManager per procedure (not per HTTP request: batched calls would share and hang), passed
 * explicitly: no code reaches for an implicit request context (`allowGlobalContext` is off), so none is set
 * up, which keeps hot reads that never touch the database from paying for one.
 */
const withEntityManager = t.middleware(async ({ ctx, next }) => {
  const em = ctx.deps.orm.em.fork();
  const result = await next({ ctx: { em } });
  if (!result.ok) {
    const mapped = toTrpcError(result.error.cause);
    if (mapped) throw mapped;
    if (result.error.code === 'INTERNAL_SERVER_ERROR') ctx.deps.log.error({ err: result.error.cause ?? result.error }, 'procedure failed');
  }
  return result;
});

/** Whether a NUL character hides anywhere in a decoded input (keys included). */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 32) return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v, depth + 1));
}

/**
 * PostgreSQL text cannot hold NUL: a NUL that reached a query would answer 500. Schemas refuse it field
 * by field; this refuses it for every procedure, fields added later included, before anything runs.
 */
const refuseNul = t.middleware(async ({ getRawInput, next }) => {
  if (containsNul(await getRawInput())) throw new TRPCError({ code: 'UNPROCESSABLE_CONTENT', message: NUL_MESSAGE });
  return next();
});

export const publicProcedure = t.procedure.use(refuseNul).use(withEntityManager);

/** Signed-in callers only; narrows the context to their identity and participant row. */
export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (!ctx.auth) throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.authRequired });
  if (!ctx.auth.ok) throw new TRPCError({ code: 'UNAUTHORIZED', message: MESSAGES.authRequiredSignInAgain });
  const participant = await ensureParticipant(ctx.em, ctx.auth.identity, ctx.deps.participants, ctx.deps.clerkLookup);
  const isAdmin = Boolean(participant.email && ctx.deps.config.ADMIN_EMAILS.includes(participant.email.toLowerCase()));
  return next({ ctx: { identity: ctx.auth.identity, participant, isAdmin } });
});

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
