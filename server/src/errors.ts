import { TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { ZodError } from 'zod';
import type { ErrorKind } from '@first-round/shared/errors';
import { MESSAGES } from '@first-round/shared/messages';
import type { JoinRefusalData } from '@first-round/shared/schemas';

export type { ErrorKind } from '@first-round/shared/errors';

/**
 * The error model, in one place. Services throw DomainErrors naming a kind (shared/src/errors.ts); this
 * table gives each kind its tRPC code and its HTTP status, and `errorAnswer` turns any error into the
 * answer REST, the identity routes and Fastify's error handler send (`{detail, message, code}`). The tRPC
 * error formatter (trpc/trpc.ts) adds the same kind as `data.kind`. Services never think about transport.
 *
 * The HTTP status is the one REST and /idp answer. Over tRPC the status follows the tRPC code, which
 * differs once: input failing its schema is tRPC's own BAD_REQUEST (400), which REST answers 422.
 * Where a tRPC code has several kinds, the first row is the one a bare tRPC error of that code is.
 */
export const ERROR_TABLE: Record<ErrorKind, { trpc: TRPC_ERROR_CODE_KEY; status: number }> = {
  BAD_REQUEST: { trpc: 'BAD_REQUEST', status: 400 },
  INVALID_INPUT: { trpc: 'BAD_REQUEST', status: 422 },
  UNAUTHORIZED: { trpc: 'UNAUTHORIZED', status: 401 },
  FORBIDDEN: { trpc: 'FORBIDDEN', status: 403 },
  NOT_FOUND: { trpc: 'NOT_FOUND', status: 404 },
  CONFLICT: { trpc: 'CONFLICT', status: 409 },
  // A conflict with the game's state, told apart so a client can say "the draft has started".
  DRAFT_LOCKED: { trpc: 'CONFLICT', status: 409 },
  PAYLOAD_TOO_LARGE: { trpc: 'PAYLOAD_TOO_LARGE', status: 413 },
  UNPROCESSABLE: { trpc: 'UNPROCESSABLE_CONTENT', status: 422 },
  TOO_MANY_REQUESTS: { trpc: 'TOO_MANY_REQUESTS', status: 429 },
  UNAVAILABLE: { trpc: 'SERVICE_UNAVAILABLE', status: 503 },
  INTERNAL: { trpc: 'INTERNAL_SERVER_ERROR', status: 500 },
};

/**
 * Numbers an error carries beside its message, for clients that must not read words: REST puts them in
 * the body, tRPC in `error.data`. Today only a refused join by id has any (shared/src/schemas.ts).
 */
export type ErrorData = JoinRefusalData;

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly data?: ErrorData,
    /** A refusal that lifts by itself (429): seconds until it does, sent as the Retry-After header. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const badRequest = (m: string) => new DomainError('BAD_REQUEST', m);
export const invalidInput = (m: string) => new DomainError('INVALID_INPUT', m);
export const unauthorized = (m: string) => new DomainError('UNAUTHORIZED', m);
export const forbidden = (m: string, data?: ErrorData) => new DomainError('FORBIDDEN', m, data);
export const notFound = (m: string) => new DomainError('NOT_FOUND', m);
export const conflict = (m: string) => new DomainError('CONFLICT', m);
export const unprocessable = (m: string) => new DomainError('UNPROCESSABLE', m);
export const tooManyRequests = (m: string, data?: ErrorData, retryAfterSeconds?: number) => new DomainError('TOO_MANY_REQUESTS', m, data, retryAfterSeconds);
export const draftLocked = (m: string) => new DomainError('DRAFT_LOCKED', m);

/** What a player sees while the database cannot be reached (HTTP 503): nothing is wrong with the request. */
export const UNAVAILABLE_MESSAGE = 'The game is temporarily unavailable. Please try again in a moment.';
/** Every other fault on our side: the details go to the log, never into an answer. */
export const INTERNAL_MESSAGE = 'Internal server error';

/**
 * zod's own (English) messages say what is wrong but not where ('Invalid input: expected number, received
 * string', 'Too small: expected number to be >0'); ours are written for people and name their field
 * ('Username must be at least 2 characters', 'Group name is required': shared/src/messages.ts).
 */
const ZOD_OWN_MESSAGE = /^(Invalid|Too small|Too big)\b/;

/**
 * A readable one-line message for a zod failure. The field's path is added only where the message does
 * not name the field itself ("picks: Invalid input: expected array, received string"), so a player reads
 * "Username must be at least 2 characters", never "screen_name: Username must…".
 */
export function zodMessage(error: ZodError): string {
  return error.issues
    .map((i) => {
      const unknownKeys = i.code === 'unrecognized_keys';
      const msg = unknownKeys ? `Unknown field(s): ${i.keys.join(', ')}` : i.message;
      const where = i.path.length && (unknownKeys || ZOD_OWN_MESSAGE.test(msg)) ? `${i.path.join('.')}: ` : '';
      return `${where}${msg}`;
    })
    .join('; ');
}

/** An error described for an answer: its kind, its HTTP status, the message a client may see and its data. */
export interface ErrorDescription {
  kind: ErrorKind;
  status: number;
  message: string;
  data?: ErrorData;
  /** Seconds until a 429 lifts (the Retry-After header), where the refusal knows. */
  retryAfterSeconds?: number;
}

/** The kind of a bare tRPC error code (one not made from a DomainError): the table read backwards. */
const KIND_OF_TRPC_CODE = new Map<string, ErrorKind>();
for (const [kind, { trpc }] of Object.entries(ERROR_TABLE) as [ErrorKind, (typeof ERROR_TABLE)[ErrorKind]][]) {
  if (!KIND_OF_TRPC_CODE.has(trpc)) KIND_OF_TRPC_CODE.set(trpc, kind);
}

/** The kind of an HTTP status from outside the table's errors (Fastify's own, the rate limiter's). */
function kindOfStatus(status: number): ErrorKind {
  for (const [kind, row] of Object.entries(ERROR_TABLE) as [ErrorKind, (typeof ERROR_TABLE)[ErrorKind]][]) {
    if (row.status === status) return kind;
  }
  // Other 4xx (405, 415…) keep their status and are, for a client, a request to fix.
  return status < 500 ? 'BAD_REQUEST' : 'INTERNAL';
}

const described = (kind: ErrorKind, message: string, status = ERROR_TABLE[kind].status): ErrorDescription => ({
  kind,
  status,
  message: kind === 'UNAVAILABLE' ? UNAVAILABLE_MESSAGE : status >= 500 ? INTERNAL_MESSAGE : message,
});

/**
 * Any error, described for an answer: a DomainError by its kind; a zod error (or tRPC's input failure
 * carrying one) as INVALID_INPUT with its issues; other tRPC errors by their code; Fastify's and the rate
 * limiter's 4xx by their status; a stray unique violation as CONFLICT; the database out of reach as UNAVAILABLE (503); anything else INTERNAL
 * (500) with a generic message, whatever the error said.
 */
export function describeError(error: unknown): ErrorDescription {
  if (error instanceof DomainError) {
    return {
      ...described(error.kind, error.message),
      ...(error.data ? { data: error.data } : {}),
      ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
    };
  }
  if (error instanceof ZodError) return described('INVALID_INPUT', zodMessage(error));
  if (error instanceof TRPCError) {
    if (error.cause instanceof DomainError) return describeError(error.cause);
    if (error.code === 'BAD_REQUEST' && error.cause instanceof ZodError) return describeError(error.cause);
    const kind = KIND_OF_TRPC_CODE.get(error.code);
    if (kind) return described(kind, error.message);
    const status = getHTTPStatusCodeFromError(error);
    return described(kindOfStatus(status), error.message, status);
  }
  const e = error as { statusCode?: unknown; code?: unknown; message?: unknown } | undefined;
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 0;
  if (status >= 400 && status < 500) {
    const message = e?.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? MESSAGES.requestBodyTooLarge : typeof e?.message === 'string' ? e.message : '';
    return described(kindOfStatus(status), message, status);
  }
  // A unique constraint no service turned into its own message (two requests racing to create the same row).
  if (isUniqueViolation(error)) return described('CONFLICT', 'That already exists');
  if (isDatabaseUnavailable(error)) return described('UNAVAILABLE', UNAVAILABLE_MESSAGE);
  return described(status >= 500 ? kindOfStatus(status) : 'INTERNAL', '', status >= 500 ? status : 500);
}

/**
 * The body of every REST and /idp error answer. `detail` and `message` are the same text (clients read
 * either); an error with data (a refused join's tries left) has its fields beside them.
 */
export type ErrorBody = {
  detail: string;
  message: string;
  code: ErrorKind;
} & Partial<ErrorData>;

/** The headers an error answer carries beyond the body: Retry-After on a refusal that says when it lifts. */
export function errorHeaders(description: Pick<ErrorDescription, 'retryAfterSeconds'>): Record<string, string> {
  return description.retryAfterSeconds === undefined ? {} : { 'retry-after': String(description.retryAfterSeconds) };
}

/**
 * Any error as the answer REST, the identity routes and Fastify's error handler send: `headers` only
 * where there are some to send (Retry-After). `fault`: the server's own failure, which the caller logs
 * (the database being away is not one).
 */
export function errorAnswer(error: unknown): { status: number; body: ErrorBody; headers?: Record<string, string>; fault: boolean } {
  const description = describeError(error);
  const { kind, status, message, data } = description;
  const headers = errorHeaders(description);
  return {
    status,
    body: { detail: message, message, code: kind, ...data },
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    fault: status >= 500 && kind !== 'UNAVAILABLE',
  };
}

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
