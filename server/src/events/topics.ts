import { z } from 'zod';
import { draftChange } from '@first-round/shared/schemas';

/** The NOTIFY channel of draft changes (the audit-log event itself). */
export const DRAFT_CHANNEL = 'draft_changes';
/** The NOTIFY channel of what makes an instance's cached answers wrong, each message naming its `kind`. */
export const CACHE_CHANNEL = 'cache_invalidation';
/** The NOTIFY channel of saved picks. */
export const PICKS_CHANNEL = 'picks_changed';
/** The NOTIFY channel of pushes written by someone other than the sender. */
export const PUSH_CHANNEL = 'push_queued';

/** A player's entry changed in these groups: the one they saved into and every group that reuses it. */
export const picksChange = z.object({ participant_id: z.string(), group_ids: z.array(z.number().int()) });
export type PicksChange = z.infer<typeof picksChange>;

/**
 * What instances tell each other: each topic with its PostgreSQL NOTIFY channel and its payload's schema,
 * all of them here so that what crosses between instances reads in one place. The topics on the cache
 * channel are told apart by their message's `kind`. Each topic has its own version on every instance
 * (topic-bus.ts): a cache names the topics it is made from, and only their changes make it stale.
 */
export const TOPICS = {
  /** A draft change (the operator, the feed, the deadline). */
  draft: { channel: DRAFT_CHANNEL, schema: draftChange },
  /** Sessions signed out: their tokens stop working at once, whatever instance cached them. */
  sessions_ended: { channel: CACHE_CHANNEL, schema: z.object({ kind: z.literal('sessions_ended'), session_ids: z.array(z.string()) }) },
  /** A participant's row changed (name, first-login flag) or was merged away. */
  participant: { channel: CACHE_CHANNEL, schema: z.object({ kind: z.literal('participant'), participant_id: z.string() }) },
  /** A group's entries changed: a member joined or left, or switched between global and group picks. */
  group: { channel: CACHE_CHANNEL, schema: z.object({ kind: z.literal('group'), group_id: z.number() }) },
  /** The big board was imported or edited. */
  board: { channel: CACHE_CHANNEL, schema: z.object({ kind: z.literal('board') }) },
  /** A player saved picks: rankings made from the old ones are stale. */
  picks: { channel: PICKS_CHANNEL, schema: picksChange },
  /** Pushes waiting in push_delivery that the sending instance has not queued (the reminder wrote them). */
  push: { channel: PUSH_CHANNEL, schema: z.object({ pushes: z.number().int() }) },
} as const;

export type Topic = keyof typeof TOPICS;
export type TopicMessage<T extends Topic> = z.output<(typeof TOPICS)[T]['schema']>;

/** The topics on the cache channel, and any of their messages. */
export const CACHE_TOPICS = ['sessions_ended', 'participant', 'group', 'board'] as const satisfies readonly Topic[];
export type Invalidation = TopicMessage<(typeof CACHE_TOPICS)[number]>;

/** Each channel's topics. */
export const TOPICS_OF_CHANNEL = new Map<string, Topic[]>();
for (const [topic, { channel }] of Object.entries(TOPICS) as [Topic, { channel: string }][]) {
  TOPICS_OF_CHANNEL.set(channel, [...(TOPICS_OF_CHANNEL.get(channel) ?? []), topic]);
}
