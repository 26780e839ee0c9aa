import type { AppDeps } from '../deps.js';
import type { BearerResult } from '../modules/auth/bearer.js';

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

/** The pure part, which tests call directly with a token of their choosing. */
export async function createContextInner(opts: {
  deps: AppDeps;
  authorization?: string;
  ip?: string;
  headers?: Context['headers'];
}): Promise<Context> {
  const auth = opts.authorization ? await opts.deps.bearer.verify(opts.deps.orm.em.fork(), opts.authorization) : null;
  return { deps: opts.deps, auth, ip: opts.ip ?? '127.0.0.1', headers: opts.headers ?? {} };
}
