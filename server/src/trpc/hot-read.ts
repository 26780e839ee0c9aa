import type { EntityManager } from '@mikro-orm/postgresql';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { jsonBody, type JsonBody } from '../responses/json-body.js';
import type { MaybePromise } from '../cache/maybe-promise.js';
import type { Context } from './context.js';
import { publicProcedure, refuseNulInput, toTrpcError, type Access, type Meta } from './trpc.js';
import { spendOnGroupNotFound } from '../modules/groups/probe-budget.js';

export type ReadContext = Context & { em: EntityManager };

/**
 * A read every open page repeats after each draft change (the draft status, the board, standings, the
 * caller's profile). It is defined once, here, as a function that does its own checks (`signedIn`,
 * `requireMembership`) and reads from the caches; the tRPC procedure and the fast HTTP path
 * (wire/hot-reads.ts, used for tRPC GETs and the REST rows) both run exactly this function, so they
 * cannot disagree on who may read what. The fast path exists because each tRPC middleware level costs
 * about as much as the read itself; `output` documents the answer, which its cache validated once.
 */
export interface HotRead<TSchema extends z.ZodType | undefined, TOutput> {
  input: TSchema;
  output: z.ZodType;
  /** Who may read, as `run` checks it (the procedure is public to tRPC: the read checks for itself). */
  access: Access;
  /** Error kinds of its own rules (Meta.errors). */
  errors?: Meta['errors'];
  /** The answer: as it is when every cache it reads is current, else a promise (cache/maybe-promise.ts). */
  run(ctx: ReadContext, input: TSchema extends z.ZodType ? z.output<TSchema> : undefined): MaybePromise<TOutput>;
  /** Its JSON, where the shape is known (a template), instead of jsonBody's walk over its keys. */
  encode?(output: TOutput): JsonBody;
}

/** Any hot read, whatever its input and output (for the fast path's table). */
export interface AnyHotRead {
  input: z.ZodType | undefined;
  output: z.ZodType;
  run(ctx: ReadContext, input: never): MaybePromise<unknown>;
  encode?(output: never): JsonBody;
}

export function hotRead<TSchema extends z.ZodType | undefined, TOutput>(read: HotRead<TSchema, TOutput>) {
  return read;
}

/** The body of a hot read's answer, as both HTTP paths send it. */
export function hotReadBody(read: AnyHotRead, output: unknown): JsonBody {
  return read.encode ? read.encode(output as never) : jsonBody(output);
}

/** What a hot read's procedure says about itself (trpc.ts, Meta). */
const metaOf = (read: Pick<HotRead<z.ZodType | undefined, unknown>, 'output' | 'access' | 'errors'>): Meta => ({
  output: read.output,
  access: read.access,
  ...(read.errors ? { errors: read.errors } : {}),
});

/** The tRPC procedure of a hot read without input. */
export function hotReadProcedure<TOutput>(read: HotRead<undefined, TOutput>) {
  return publicProcedure.meta(metaOf(read)).query(({ ctx }) => read.run(ctx, undefined));
}

/** The tRPC procedure of a hot read with input. */
export function hotReadProcedureWithInput<TSchema extends z.ZodType, TOutput>(read: HotRead<TSchema, TOutput>) {
  return publicProcedure
    .input(read.input)
    .meta(metaOf(read))
    .query(({ ctx, input }) => read.run(ctx, input as Parameters<typeof read.run>[1]));
}

/** An input parsed as tRPC parses it: a failure is BAD_REQUEST carrying the zod error (for its formatter). */
export function parseInputWith<T>(schema: z.ZodType<T>, rawInput: unknown): T {
  const parsed = schema.safeParse(rawInput);
  if (!parsed.success) throw new TRPCError({ code: 'BAD_REQUEST', message: parsed.error.message, cause: parsed.error });
  return parsed.data;
}

/**
 * A read's context whose EntityManager is forked only if the read asks for it (forking costs as much as
 * a cached read). A class, not an object with a getter made per request: the getter is defined once.
 */
class LazyReadContext implements ReadContext {
  readonly deps: Context['deps'];
  readonly auth: Context['auth'];
  readonly ip: string;
  readonly headers: Context['headers'];
  #em: EntityManager | undefined;
  constructor(ctx: Context) {
    this.deps = ctx.deps;
    this.auth = ctx.auth;
    this.ip = ctx.ip;
    this.headers = ctx.headers;
  }
  get em(): EntityManager {
    return (this.#em ??= this.deps.orm.em.fork());
  }
}

/**
 * Runs a hot read outside tRPC's procedure chain, with what that chain would do: NUL refused, input
 * parsed by the same schema (a failure is tRPC's BAD_REQUEST with the zod error), an EntityManager (made
 * only if the read needs one), and domain errors turned into tRPC errors. Throws now or rejects later,
 * as the read does: callers call it inside their `try`.
 */
export function runHotRead(read: AnyHotRead, ctx: Context, rawInput: unknown): MaybePromise<unknown> {
  refuseNulInput(rawInput);
  const input = read.input ? parseInputWith(read.input, rawInput) : undefined;
  try {
    const answer = read.run(new LazyReadContext(ctx), input as never);
    return answer instanceof Promise ? answer.catch((error: unknown) => asTrpcError(ctx, error)) : answer;
  } catch (error) {
    return asTrpcError(ctx, error);
  }
}

/** As the procedures' first middleware does: a 'Group not found' spends the address's budget, then the error is tRPC's. */
function asTrpcError(ctx: Context, error: unknown): never {
  const answered = spendOnGroupNotFound(ctx.deps.groupProbes, ctx.ip, error);
  throw toTrpcError(answered) ?? answered;
}
