import { TRPCError } from '@trpc/server';
import type { AppDeps } from '../deps.js';
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from '../errors.js';
import type { BearerResult } from '../modules/auth/bearer.js';
import { after, type MaybePromise } from '../cache/maybe-promise.js';

/**
 * What every procedure sees. `auth` is null when no credentials were sent at all. The per-procedure
 * middleware adds `em`, the procedure's own EntityManager.
 */
export interface Context {
  deps: AppDeps;
  auth: BearerResult | null;
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The pure part, which tests call directly with a token of their choosing. At once for a remembered
 * token (cache/maybe-promise.ts), else once it is checked.
 */
export function createContextInner(opts: {
  deps: AppDeps;
  authorization?: string;
  ip?: string;
  headers?: Context['headers'];
}): MaybePromise<Context> {
  return opts.authorization ? after(verify(opts.deps, opts.authorization), (auth) => contextOf(opts, auth)) : contextOf(opts, null);
}

// Module functions and inline callbacks, not named closures: under tsx each named closure made per call
// costs a defineProperty (esbuild's keepNames), which a hot read notices.
function contextOf(opts: Parameters<typeof createContextInner>[0], auth: BearerResult | null): Context {
  return { deps: opts.deps, auth, ip: opts.ip ?? '127.0.0.1', headers: opts.headers ?? {} };
}

/**
 * A fork only when the session must be looked up: a cached token needs no database (and forking cost as
 * much as the rest of a hot read). Checking a session needs the database: while it is unreachable the
 * caller gets a 503, not a 500.
 */
function verify(deps: AppDeps, authorization: string): MaybePromise<BearerResult> {
  const result = deps.bearer.verify(() => deps.orm.em.fork(), authorization);
  return result instanceof Promise ? result.catch(unavailableAs503) : result;
}

function unavailableAs503(error: unknown): never {
  if (isDatabaseUnavailable(error)) throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE_MESSAGE, cause: error });
  throw error;
}
