/*
 * One schema per procedure input and output, named for what it is. The server validates with them, the
 * REST adapter and OpenAPI document are generated from them, and the client's forms reuse them.
 * Inputs are strict: unknown fields are refused, not silently dropped.
 *
 * One file per module in shared/src/schemas/; this file gathers them, so every importer has one path:
 * `@first-round/shared/schemas`.
 */
export * from './schemas/common.js';
export * from './schemas/draft.js';
export * from './schemas/feed.js';
export * from './schemas/users.js';
export * from './schemas/groups.js';
export * from './schemas/join-links.js';
export * from './schemas/share.js';
export * from './schemas/picks.js';
export * from './schemas/leaderboard.js';
export * from './schemas/draft-board.js';
export * from './schemas/live.js';
export * from './schemas/seasons.js';
export * from './schemas/push.js';
