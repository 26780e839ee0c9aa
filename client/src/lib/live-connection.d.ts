import type { DraftChange, DraftChangesInput, DraftStatus, LeaderboardInput, LiveMessage, StandingsUpdate } from '@first-round/shared/schemas';
/** How long push may be down (never connected, or dropped) before the app polls instead. */
export declare const PUSH_GRACE_MS = 10000;
/** Polling period while push is unavailable. */
export declare const POLL_INTERVAL_MS = 15000;
/** Consecutive subscription failures after which polling starts at once. */
export declare const PUSH_MAX_FAILURES = 3;
/** What polling compares: any difference means the draft moved and cached answers are stale. */
export declare function statusSignature(s: Pick<DraftStatus, 'draftHasStarted' | 'started_at' | 'picks_made' | 'round_one_complete' | 'last_event_id'> | undefined): string | null;
/**
 * Whether cached answers must be refreshed after a status read. Without a baseline (the page never read
 * draft.status, e.g. the leaderboard) the draft may have moved since its answers were fetched: refresh.
 */
export declare function statusMoved(before: string | null, now: string | null): boolean;
/** Wait before re-subscribing after the n-th consecutive failure: 1 s, 2 s, 4 s, 8 s, then 15 s. */
export declare function retryDelay(failures: number): number;
/** How the connection reaches the server: tRPC's client in the app, a fake in tests. */
export interface LiveTransport {
    subscribe(input: DraftChangesInput, handlers: {
        onStarted(): void;
        /** A message of this server's stream, or a whole standings page as an older server sends it. */
        onData(id: string, message: LiveMessage | StandingsUpdate): void;
        /** 'pending': the stream is open; 'connecting' with an error: it dropped and tRPC reconnects. */
        onConnectionStateChange(state: 'idle' | 'connecting' | 'pending', error: unknown): void;
        onError(): void;
        onComplete(): void;
    }): {
        unsubscribe(): void;
    };
    readStatus(): Promise<DraftStatus>;
}
export interface LiveConnectionOptions {
    transport: LiveTransport;
    /** The draft status the cached answers were read with, if any. */
    cachedStatus(): DraftStatus | undefined;
    /** A change pushed by the server (or replayed after a reconnect). */
    onChange(change: DraftChange): void;
    /**
     * The watched standings page, re-ranked after a change (put together from the stream's two parts);
     * `opening` when no change came before it on this stream: the page a new stream brings at once, as of
     * whatever the draft is now, which is as much news as a read's answer.
     */
    onStandings(update: StandingsUpdate, opening: boolean): void;
    /** A status read found the draft moved without a change event saying how (polling, a reconnect). */
    onStale(status: DraftStatus): void;
}
/**
 * Draft night's connection to the server, with no React in it: holds the `draft.changes` stream (SSE),
 * reconnects after failures from the last event id seen, and when push is unavailable (it keeps failing,
 * or is not up within PUSH_GRACE_MS) polls draft.status every POLL_INTERVAL_MS until push works again.
 * `watch` names the standings page on screen; the stream is reopened (from the last event id) to carry it.
 */
export declare class LiveConnection {
    private readonly options;
    private lastEventId;
    private watched;
    private subscription;
    /** Callbacks of a stream already dropped must not act: each stream has its generation. */
    private generation;
    private running;
    private pushUp;
    private failures;
    private retryTimer;
    private graceTimer;
    private pollTimer;
    private stableTimer;
    /** The draft status as of the last time the cached answers were known to be current. */
    private known;
    /** The reader's own part of the watched page last sent on the current stream (it is not sent again unchanged). */
    private mine;
    /** Whether a change came on the current stream yet (a page before any is its opening page). */
    private changeOnStream;
    constructor(options: LiveConnectionOptions);
    start(): void;
    stop(): void;
    /** The standings page to carry on the stream (undefined: none); a different page reopens the stream. */
    watch(input: LeaderboardInput | undefined): void;
    /** Looks at the draft now when push is down (a tab coming back into view: browsers slow its timers). */
    checkIfDown(): void;
    /** One draft.status read; reports the cache stale when the draft moved since the last look. */
    private check;
    private startPolling;
    private stopPolling;
    private onPushDown;
    private onPushUp;
    private subscribe;
    /**
     * One message, by its kind. A kind this version does not know (a newer server's) is left alone: it is
     * neither a change to refresh for nor a place to resume from. A watched page comes as the reader's own
     * part (when it changed), then the page shared by all its readers: shown together, never the page with
     * another stream's or group's own part (then the read after the wait brings it).
     */
    private receive;
    private restart;
}
