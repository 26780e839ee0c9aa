/*
 * The leaderboard cache still names the topic bus by its former name (the draft's event hub): this alias
 * keeps it compiling until it imports TopicBus from events/topic-bus.ts.
 */
export type { TopicBus as DraftEventHub } from '../../events/topic-bus.js';
