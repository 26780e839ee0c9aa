import type { Identity } from './bearer.js';
import { describeToken } from './bearer.js';
import type { ParticipantRow } from '../users/participants.service.js';

/** Headers worth showing on the diagnostic pages; credentials are never echoed back. */
const SHOWN_HEADERS = ['host', 'origin', 'referer', 'user-agent', 'accept', 'content-type', 'x-forwarded-for', 'x-forwarded-proto'];

interface DiagnosticContext {
  identity: Identity;
  participant: ParticipantRow;
  headers: Record<string, string | string[] | undefined>;
}

function sanitisedHeaders(headers: DiagnosticContext['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SHOWN_HEADERS) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (headers.authorization) out.authorization = 'Bearer [redacted]';
  if (headers.cookie) out.cookie = '[redacted]';
  return out;
}

const isoFromEpoch = (v: unknown) => (typeof v === 'number' ? new Date(v * 1000).toISOString() : null);

export function authTestReport(ctx: DiagnosticContext) {
  const { claims, length, preview } = describeToken(ctx.identity.token);
  const exp = typeof claims.exp === 'number' ? claims.exp : null;
  return {
    success: true,
    message: 'Authentication successful',
    user_id: ctx.participant.id,
    email: ctx.participant.email,
    headers: sanitisedHeaders(ctx.headers),
    token_info: {
      provider: ctx.identity.provider,
      length,
      preview,
      issued_at: isoFromEpoch(claims.iat),
      expires_at: isoFromEpoch(claims.exp),
      // Real time, as the verifier uses: the draft clock may be set apart from it (tests, replays).
      expires_in_seconds: exp === null ? null : Math.round(exp - Date.now() / 1000),
    },
  };
}

export function jwtDebugReport(ctx: DiagnosticContext) {
  const { header, claims, length, preview } = describeToken(ctx.identity.token);
  return { provider: ctx.identity.provider, token_length: length, token_preview: preview, header, claims, valid: true };
}
