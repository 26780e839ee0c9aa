/**
 * Domain errors thrown by services. One place (trpc/error-mapping.ts) turns them into tRPC codes, REST
 * statuses and the `{detail, message}` body; services never think about transport.
 */
export type DomainErrorKind =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'UNPROCESSABLE'
  | 'TOO_MANY_REQUESTS'
  | 'DRAFT_LOCKED';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const badRequest = (m: string) => new DomainError('BAD_REQUEST', m);
export const unauthorized = (m: string) => new DomainError('UNAUTHORIZED', m);
export const forbidden = (m: string) => new DomainError('FORBIDDEN', m);
export const notFound = (m: string) => new DomainError('NOT_FOUND', m);
export const conflict = (m: string) => new DomainError('CONFLICT', m);
export const unprocessable = (m: string) => new DomainError('UNPROCESSABLE', m);
export const tooManyRequests = (m: string) => new DomainError('TOO_MANY_REQUESTS', m);
export const draftLocked = (m: string) => new DomainError('DRAFT_LOCKED', m);

/** HTTP status for each kind; the draft lock is a conflict with the game's state. */
export const statusOfKind: Record<DomainErrorKind, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
  DRAFT_LOCKED: 409,
};

/** PostgreSQL unique violation (23505), optionally on a named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | undefined;
  if (e?.code !== '23505') return false;
  return !constraint || e.constraint === constraint || Boolean(e.message?.includes(constraint));
}

/** PostgreSQL foreign-key violation (23503): the row pointed at vanished, e.g. a group deleted meanwhile. */
export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === '23503';
}
