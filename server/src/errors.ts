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

/** What a player sees while the database cannot be reached (HTTP 503): nothing is wrong with the request. */
export const UNAVAILABLE_MESSAGE = 'The game is temporarily unavailable. Please try again in a moment.';

/** Connection-level failures: the database is down, restarting or out of reach. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, in recovery)
  '53300', // too_many_connections
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08004', // sqlserver_rejected_establishment_of_sqlconnection
  '08006', // connection_failure
]);
const UNREACHABLE_MESSAGES = [
  /Connection terminated/i, // pg: "…unexpectedly", "…due to connection timeout"
  /Connection ended unexpectedly/i, // knex: a pooled connection that died
  /Timeout acquiring a connection/i, // knex: no connection could be had in time
  /Client has encountered a connection error/i,
  /Client was closed and is not queryable/i,
];

/**
 * Whether an error means the database cannot be reached right now (answered 503, the client may retry)
 * rather than a fault in the request or the code. Looks through wrapped causes (tRPC, MikroORM).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if (typeof e.code === 'string' && UNREACHABLE_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && UNREACHABLE_MESSAGES.some((re) => re.test(e!.message as string))) return true;
    // Several addresses tried (localhost: ::1 and 127.0.0.1): an AggregateError of the attempts.
    if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    e = e.cause as typeof e;
  }
  return false;
}
