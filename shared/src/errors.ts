/**
 * What went wrong, as every error answer names it: `error.data.kind` over tRPC, `code` in a REST or /idp
 * error body (`{detail, message, code}`). Clients branch on the kind, never on the message's wording, which
 * is for people. The server's table (server/src/errors.ts) gives each kind its tRPC code and HTTP status.
 */
export const ERROR_KINDS = [
  /** The request is unreadable or makes no sense (malformed JSON, a wrong id for the operation). */
  'BAD_REQUEST',
  /** The input does not match the call's schema (a wrong type, a missing field, 0 or 33 picks). */
  'INVALID_INPUT',
  /** No session, or one that is no longer valid: sign in (again). */
  'UNAUTHORIZED',
  /** Signed in, but not allowed (not a member, not the owner, not an operator). */
  'FORBIDDEN',
  /** No such group, player, invite link or path; a private group the caller is not in answers alike. */
  'NOT_FOUND',
  /** The request clashes with what exists (a taken name, a state that does not allow it). */
  'CONFLICT',
  /** The draft has started: picks, groups and invite links are locked. */
  'DRAFT_LOCKED',
  /** The request body is over the size limit. */
  'PAYLOAD_TOO_LARGE',
  /** Well-formed input a rule refuses (unknown players, the same player twice, NUL characters). */
  'UNPROCESSABLE',
  /** Too many attempts; the message says when to try again. */
  'TOO_MANY_REQUESTS',
  /** The database is out of reach for a moment: try again shortly. */
  'UNAVAILABLE',
  /** A fault on the server's side; the details are in its log, never in the answer. */
  'INTERNAL',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

const KINDS: ReadonlySet<string> = new Set(ERROR_KINDS);
export const isErrorKind = (value: unknown): value is ErrorKind => typeof value === 'string' && KINDS.has(value);
