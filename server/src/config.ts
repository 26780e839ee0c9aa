import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_ROUND_ONE_PICKS, nextDraftNight } from '@first-round/shared/constants';
import { parseFastPaths, type FastPaths } from './wire/switch.js';

/** Thrown for a bad environment value; main.ts prints its message alone (no stack). */
export class ConfigError extends Error {}

const csv = z
  .string()
  .optional()
  .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []));

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** The push services browsers give endpoints at: Chrome and its kin (FCM), Firefox, Safari, Edge on Windows. */
export const DEFAULT_PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', '*.push.apple.com', '*.notify.windows.com'];

/** A host name (lower case, at least two labels), `*.` and one, or `*` alone: modules/push/endpoint-policy.ts matches them. */
const HOST_PATTERN = /^(\*|(\*\.)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]([a-z0-9-]*[a-z0-9])?)$/;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATA_DIR: z.string().default('.data'),
  DRAFT_DEADLINE: z.preprocess(emptyToUndefined, z.iso.datetime({ offset: true }).optional()),
  ROUND_ONE_PICKS: z.coerce.number().int().min(1).max(64).default(DEFAULT_ROUND_ONE_PICKS),
  ADMIN_EMAILS: csv.transform((list) => list.map((e) => e.toLowerCase())),
  CORS_ORIGINS: csv,
  /** The address players use (scheme, host, port): every absolute link the server writes starts with it. */
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  SMTP_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().default('First Round <no-reply@first-round.local>'),
  CLERK_SECRET_KEY: z.preprocess(emptyToUndefined, z.string().startsWith('sk_').optional()),
  CLERK_PUBLISHABLE_KEY: z.preprocess(emptyToUndefined, z.string().startsWith('pk_').optional()),
  CLERK_JWT_KEY: z.preprocess(emptyToUndefined, z.string().includes('PUBLIC KEY').optional()),
  CLERK_ISSUER: z.preprocess(emptyToUndefined, z.url().optional()),
  LOCAL_IDP_PRIVATE_KEY: z.preprocess(emptyToUndefined, z.string().includes('PRIVATE KEY').optional()),
  /** Proxy hops whose X-Forwarded-For is trusted (0: none, the client's own address counts). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Seconds before a new sign-in code may be sent to the same address. */
  IDP_CODE_RESEND_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  IDP_IP_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(30),
  /**
   * 'Group not found' answers one address may get per window before they become 429 (private group ids
   * cannot be told from unknown ones, so trying ids is all a prober can do: modules/groups/probe-budget.ts).
   */
  GROUP_PROBE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(60),
  GROUP_PROBE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /**
   * Seconds a shutdown keeps accepting after /readyz has turned 503, so a balancer stops sending here before
   * the listener closes (draining.ts). 0: the listener closes as soon as the connections already queued are accepted.
   */
  READY_DRAIN_SECONDS: z.coerce.number().int().min(0).max(60).default(1),
  /** Seconds a shutdown lets requests in flight finish, counted from the end of READY_DRAIN_SECONDS, before it cuts them off. */
  DRAIN_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The reference entries beside every leaderboard (Big board top 32, Chalk 20, Top 10 only); `false` hides them. */
  BENCHMARK_ENTRIES: z.preprocess(emptyToUndefined, z.stringbool().default(true)),
  /** The live global top 100 and round-one board for signed-out visitors (/live, GET /api/standings/public); `false`: players only. */
  PUBLIC_STANDINGS: z.preprocess(emptyToUndefined, z.stringbool().default(true)),
  /** E-mail reminders 24 h and 1 h before picks lock; `false` sends none. */
  REMINDERS: z.preprocess(emptyToUndefined, z.stringbool().default(true)),
  /** How often (seconds) the server checks whether a reminder is due. */
  REMINDER_CHECK_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** A results feed polled while the draft is live (modules/feed/); unset: picks are recorded by hand only. */
  FEED_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  /** The feed's shape: ESPN's public draft JSON or the generic `[{overall, round, player_name, school, position, team}]`. */
  FEED_KIND: z.enum(['espn', 'generic']).default('generic'),
  FEED_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** Push notifications when players' picks go (modules/push/); `false` sends none and refuses new subscriptions. */
  PUSH: z.preprocess(emptyToUndefined, z.stringbool().default(true)),
  /** The VAPID key pair (base64url, as `web-push generate-vapid-keys` prints it); unset: generated once into DATA_DIR. */
  VAPID_PUBLIC_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  VAPID_PRIVATE_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Where push services can reach the operator (VAPID `sub`): a mailto: or https: address. */
  /**
   * The push services the server sends to (modules/push/endpoint-policy.ts): host names, `*.example.com` for
   * any name under one, `*` for any public https host. A subscription elsewhere is refused.
   */
  PUSH_SERVICE_HOSTS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default(DEFAULT_PUSH_SERVICE_HOSTS.join(','))
      .transform((v) => v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))
      .refine((hosts) => hosts.length > 0 && hosts.every((h) => HOST_PATTERN.test(h)), 'PUSH_SERVICE_HOSTS must be host names, *.example.com wildcards, or *'),
  ),
  /**
   * Push endpoints at http://127.0.0.1, [::1] or localhost, for a push service stand-in on this machine (tests,
   * the bench); never in production.
   */
  PUSH_ALLOW_LOOPBACK_HTTP: z.preprocess(emptyToUndefined, z.stringbool().default(false)),
  /** The hand-written fast paths (server/src/wire/): `on`, `off`, or either with pieces added or taken away (`on,-gzip`): wire/switch.ts. */
  FAST_PATHS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('on')
      .transform((value, ctx) => {
        const pieces = parseFastPaths(value);
        if (typeof pieces === 'string') ctx.addIssue({ code: 'custom', message: pieces });
        return pieces as FastPaths;
      }),
  ),
  VAPID_SUBJECT: z.preprocess(emptyToUndefined, z.string().regex(/^(mailto:|https:\/\/)/, 'VAPID_SUBJECT must start with mailto: or https://').default('mailto:no-reply@first-round.local')),
});

export type Env = z.infer<typeof envSchema>;

const SECRET_VARIABLES = new Set(['DATABASE_URL', 'SMTP_URL', 'CLERK_SECRET_KEY', 'CLERK_JWT_KEY', 'LOCAL_IDP_PRIVATE_KEY', 'VAPID_PRIVATE_KEY']);

export interface Config extends Env {
  dataDir: string;
  deadline: Date;
  authProvider: 'local' | 'clerk';
  /** Origins allowed as the JWT `azp` and for CORS: the public URL, the configured origins, and localhost. */
  appOrigins: string[];
  /**
   * Where absolute links point (pages' Open Graph tags, invite pages, the share API, mail): PUBLIC_URL's
   * origin, or http://localhost:PORT outside production. Never the request's Host or X-Forwarded-Host: those
   * are the client's to write, and a link built from them is theirs (a poisoned preview, a mail pointing
   * elsewhere).
   */
  publicOrigin: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') ?? 'environment';
    const variable = typeof issue?.path[0] === 'string' ? issue.path[0] : undefined;
    // Secrets (and URLs that may carry a password) are named, never printed: logs and terminals are shared.
    const value = variable && !SECRET_VARIABLES.has(variable) ? env[variable] : undefined;
    throw new ConfigError(
      `Invalid configuration: ${name}${value === undefined ? '' : `=${JSON.stringify(value)}`}: ${issue?.message ?? 'invalid value'}`,
    );
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.PUBLIC_URL) {
    throw new ConfigError(
      'PUBLIC_URL is required when NODE_ENV=production: set it to the address players use, e.g. PUBLIC_URL=https://firstround.example.com (links in pages and mail start with it)',
    );
  }
  if (e.NODE_ENV === 'production' && e.PUSH_ALLOW_LOOPBACK_HTTP) {
    throw new ConfigError('PUSH_ALLOW_LOOPBACK_HTTP cannot be set when NODE_ENV=production: it lets push notifications go to plain-http addresses on this machine (a push service stand-in for tests)');
  }
  const localOrigins = [`http://localhost:${e.PORT}`, `http://127.0.0.1:${e.PORT}`];
  return {
    ...e,
    dataDir: path.resolve(e.DATA_DIR),
    deadline: e.DRAFT_DEADLINE ? new Date(e.DRAFT_DEADLINE) : nextDraftNight(new Date()),
    authProvider: e.CLERK_SECRET_KEY || e.CLERK_JWT_KEY ? 'clerk' : 'local',
    appOrigins: [...new Set([...(e.PUBLIC_URL ? [new URL(e.PUBLIC_URL).origin] : []), ...e.CORS_ORIGINS, ...localOrigins])],
    publicOrigin: e.PUBLIC_URL ? new URL(e.PUBLIC_URL).origin : `http://localhost:${e.PORT}`,
  };
}
