/**
 * The reads every open page repeats after each draft change. The web app sends each alone as a GET with a
 * stable URL (/trpc/draft.status, …) so the browser's HTTP cache keeps the answer and revalidates it with
 * If-None-Match; the server answers them from its caches, in front of tRPC's adapter when its fast paths are
 * on (server/src/wire/hot-reads.ts, which names a read function for each).
 */
export const HOT_READS = ['draft.status', 'players.list', 'leaderboard.group', 'leaderboard.field', 'leaderboard.public', 'auth.me'] as const;
export type HotReadPath = (typeof HOT_READS)[number];

const hotReadPaths: ReadonlySet<string> = new Set(HOT_READS);

/** Whether a procedure path is one of the hot reads. */
export const isHotRead = (path: string): path is HotReadPath => hotReadPaths.has(path);
