import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { createClerkClient } from '@clerk/backend';
import type { Config } from './config.js';
import type { Orm } from './db/orm.js';
import { draftSettings, type DraftSettings } from './modules/draft/draft.service.js';
import { createBearerVerifier, type BearerVerifier } from './modules/auth/bearer.js';
import { loadSigningKeys, type SigningKeys } from './modules/auth/keys.js';
import { createMailer, type Mailer } from './modules/auth/mailer.js';
import { DEFAULT_IDP_LIMITS, type IdpLimits, type LocalIdpDeps } from './modules/auth/local-idp.service.js';
import type { ClerkUserLookup } from './modules/auth/account.service.js';
import { BenchmarkCache } from './modules/leaderboard/benchmarks.cache.js';
import { AsOfStandings } from './modules/leaderboard/as-of-standings.js';
import { DraftAsOfCache } from './modules/draft/as-of.js';
import { LeaderboardCache } from './modules/leaderboard/leaderboard.cache.js';
import { EntryBook } from './modules/standings/entry-book.js';
import { FieldCache } from './modules/leaderboard/field.cache.js';
import { TopicBus } from './events/topic-bus.js';
import { draftChangesAfter } from './modules/draft/draft.repository.js';
import { LiveStream } from './modules/leaderboard/live-stream.js';
import { PublicLiveStream } from './modules/leaderboard/public-live-stream.js';
import { SSE_OPTIONS } from './live/parts.js';
import { ParticipantCache } from './modules/users/participant.cache.js';
import { DraftStatusCache } from './modules/draft/draft-status.cache.js';
import { PlayersCache } from './modules/players/players.cache.js';
import { PublicCountsCache } from './modules/groups/public-counts.js';
import { GroupProbeBudget } from './modules/groups/probe-budget.js';
import { FeedPoller, type FeedFetch } from './modules/feed/feed.poller.js';
import { PushSender } from './modules/push/push.sender.js';
import { loadVapidKeys } from './modules/push/vapid-keys.js';
import { endpointPolicy, type PushLookup } from './modules/push/endpoint-policy.js';
import { LiveFanOut } from './events/live-fan-out.js';

/** Everything a request needs, built once at start (or once per test). No module-level singletons. */
export interface AppDeps {
  config: Config;
  orm: Orm;
  log: FastifyBaseLogger;
  draft: DraftSettings;
  keys: SigningKeys;
  /** SMTP, or the development outbox (sign-in codes, reminders before the lock). */
  mailer: Mailer;
  bearer: BearerVerifier;
  idp: LocalIdpDeps;
  clerkLookup?: ClerkUserLookup;
  /** Every pick set in memory with its counts, what the standings, the field and the pushes read (modules/standings/). */
  book: EntryBook;
  leaderboards: LeaderboardCache;
  /** The benchmark entries every leaderboard shows beside the standings. */
  benchmarks: BenchmarkCache;
  /** Who picked whom after the start, per group (leaderboard.field), kept until a start or reset. */
  field: FieldCache;
  participants: ParticipantCache;
  draftStatus: DraftStatusCache;
  /** The draft as it was at an earlier change (`before` on draft.status, players.list; modules/draft/as-of.ts). */
  draftAsOf: DraftAsOfCache;
  /** Standings as they were at an earlier change (`before` on leaderboard.group), ranked only when asked. */
  asOfStandings: AsOfStandings;
  players: PlayersCache;
  /** What instances tell each other (draft changes, cache invalidations, saved picks): events/topic-bus.ts. */
  events: TopicBus;
  /** Every open page's `draft.changes` stream on this instance (modules/leaderboard/live-stream.ts). */
  live: LiveStream;
  /** The spectators' `draft.publicChanges` streams on this instance (modules/leaderboard/public-live-stream.ts). */
  publicLive: PublicLiveStream;
  /** The landing page's entries and groups, counted at most once a minute. */
  publicCounts: PublicCountsCache;
  /** 'Group not found' answers per address (GROUP_PROBE_LIMIT): past it they become 429. */
  groupProbes: GroupProbeBudget;
  /** The results feed's poller (modules/feed/); started by main.ts, polled directly by tests. */
  feed: FeedPoller;
  /** Push notifications when picks go (modules/push/); started by main.ts (and by tests that need it). */
  push: PushSender;
  /** Whether a change is being fanned out to the open pages: the push sender waits for it (events/live-fan-out.ts). */
  liveFanOut: LiveFanOut;
}

export interface DepsOptions {
  /** The draft's clock (deadline, auto-start); tests move it to cross the deadline. */
  now?: () => Date;
  /** The identity provider's clock (code expiry); token lifetimes are checked against real time. */
  idpNow?: () => Date;
  idpLimits?: Partial<IdpLimits>;
  log?: FastifyBaseLogger;
  /** How the feed poller fetches (tests may stub it; the default is the global fetch). */
  feedFetch?: FeedFetch;
  /** How the push sender resolves push services' names (tests answer for the DNS; the default is dns.lookup). */
  pushLookup?: PushLookup;
}

export async function createDeps(config: Config, orm: Orm, options: DepsOptions = {}): Promise<AppDeps> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (pino({ level: config.LOG_LEVEL }) as unknown as FastifyBaseLogger);
  const keys = await loadSigningKeys({ privateKeyPem: config.LOCAL_IDP_PRIVATE_KEY, dataDir: config.dataDir });
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, production: config.NODE_ENV === 'production', log });
  const draft = draftSettings(config, now);
  const events = new TopicBus(orm, log, draftChangesAfter);
  let clerkLookup: ClerkUserLookup | undefined;
  if (config.authProvider === 'clerk' && config.CLERK_SECRET_KEY) {
    const clerk = createClerkClient({ secretKey: config.CLERK_SECRET_KEY });
    clerkLookup = async (userId) => {
      const user = await clerk.users.getUser(userId);
      return { email: user.primaryEmailAddress?.emailAddress ?? null, username: user.username ?? null };
    };
  }
  const draftStatus = new DraftStatusCache(orm, draft, events);
  const players = new PlayersCache(orm, events);
  const book = new EntryBook(orm, draft.roundOnePicks, log);
  book.follow(events);
  const leaderboards = new LeaderboardCache(orm, book, events, log);
  const benchmarks = new BenchmarkCache(config.BENCHMARK_ENTRIES, players, draftStatus);
  const draftAsOf = new DraftAsOfCache(orm, draft, players, events);
  const liveFanOut = new LiveFanOut();
  const vapid = await loadVapidKeys({ publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, dataDir: config.dataDir });
  return {
    config,
    orm,
    log,
    draft,
    keys,
    mailer,
    bearer: createBearerVerifier(config, keys, events),
    idp: {
      keys,
      mailer,
      limits: { ...DEFAULT_IDP_LIMITS, requestsPerIpPerMinute: config.IDP_IP_RATE_LIMIT, resendMs: config.IDP_CODE_RESEND_SECONDS * 1000, ...options.idpLimits }, now: options.idpNow ?? (() => new Date()),
      origin: config.publicOrigin },
    clerkLookup,
    book,
    leaderboards,
    field: new FieldCache(orm, book, events),
    participants: new ParticipantCache(events),
    draftStatus,
    draftAsOf,
    asOfStandings: new AsOfStandings(orm, book, draftAsOf, config.BENCHMARK_ENTRIES),
    players,
    benchmarks,
    events,
    liveFanOut,
    live: new LiveStream({ events, orm, log, draftStatus, leaderboards, benchmarks, liveFanOut }, SSE_OPTIONS.ping.intervalMs),
    publicLive: new PublicLiveStream({ events, orm, log, draftStatus, leaderboards, benchmarks, config, liveFanOut }, SSE_OPTIONS.ping.intervalMs),
    publicCounts: new PublicCountsCache(orm),
    // On the server's clock (the one tests move), so a test can let a window pass.
    groupProbes: new GroupProbeBudget(config.GROUP_PROBE_LIMIT, config.GROUP_PROBE_WINDOW_SECONDS * 1000, () => now().getTime()),
    feed: new FeedPoller({ orm, config, draft, log }, options.feedFetch),
    push: new PushSender({
      orm,
      log,
      events,
      vapid,
      liveFanOut,
      subject: config.VAPID_SUBJECT,
      roundOnePicks: config.ROUND_ONE_PICKS,
      policy: endpointPolicy(config),
      lookup: options.pushLookup,
      standings: { book, leaderboards },
    }),
  };
}
