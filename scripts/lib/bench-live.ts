// What the draft-night benchmark's processes share: how a live client talks to the server (the same URLs
// and wire format as the browser's tRPC links), how "showing the new standings" is decided, and figures.
import crypto from 'node:crypto';
import type pg from 'pg';
import type { Leaderboard, LeaderboardRow, LiveMessage } from '@first-round/shared/schemas';

/** The leaderboard page the web app opens (client/src/pages/leaderboard-page.tsx: group 1, 100 rows). */
export const PAGE_INPUT = { group_id: 1, limit: 100 } as const;

/** tRPC 11 unbatched GET of a query, as `httpLink` sends it: `/trpc/<path>?input=<json>`. */
export const leaderboardPath = `/trpc/leaderboard.group?input=${encodeURIComponent(JSON.stringify(PAGE_INPUT))}`;

/**
 * The live subscription exactly as `httpSubscriptionLink` opens it (EventSource GET): the token in
 * `connectionParams` (an EventSource cannot send headers), then the input with the last event id seen and
 * the standings page on screen, which the stream then brings after every change (as the web app asks).
 */
export function changesPath(token: string, lastEventId: string | null = null): string {
  const input = { lastEventId, standings: PAGE_INPUT };
  return `/trpc/draft.changes?connectionParams=${encodeURIComponent(JSON.stringify({ token }))}&input=${encodeURIComponent(JSON.stringify(input))}`;
}

export interface SseEvent {
  event?: string;
  id?: string;
  /** The data field's bytes, as they came (a view of the chunk: copy what is kept). */
  data: Buffer;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;

/**
 * Server-sent events from a byte stream (https://html.spec.whatwg.org/multipage/server-sent-events.html),
 * as tRPC 11 writes them: `event: connected` first, then `data:` + `id:` per tracked item, `event: ping`.
 * One pass over the bytes (Buffer.indexOf), and a message's data left as bytes: the load generator shares
 * the machine's two cores with the server, and decoding 5,000 pages of 18 KB into strings per pick, then
 * collecting them, took a third of its time. What a page does with its bytes is the client's business
 * (a browser decodes and parses its page on its own device: bench-draft-clients.ts).
 */
export class SseParser {
  /** Bytes of an event not yet ended by its blank line. */
  private pending: Buffer | undefined;
  /** How far `pending` was already searched for a blank line. */
  private scanned = 0;

  push(chunk: Buffer): SseEvent[] {
    let buffer = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    const events: SseEvent[] = [];
    // A line break split over two chunks (LF | CR LF) is found again from two bytes back.
    for (let blank = blankLine(buffer, Math.max(0, this.scanned - 2)); blank; blank = blankLine(buffer, 0)) {
      const event = parseBlock(buffer.subarray(0, blank.end));
      buffer = buffer.subarray(blank.next);
      if (event) events.push(event);
    }
    // What is left waits for more (copied: a view would hold the whole chunk it came in).
    this.pending = buffer.length > 0 ? Buffer.from(buffer) : undefined;
    this.scanned = buffer.length;
    return events;
  }
}

/** The first blank line from `from` (two line breaks, CR LF or LF): where the event before it ends and the next starts. */
function blankLine(bytes: Buffer, from: number): { end: number; next: number } | undefined {
  for (let i = bytes.indexOf(LF, from); i >= 0; i = bytes.indexOf(LF, i + 1)) {
    let j = i + 1;
    if (bytes[j] === CR) j++;
    if (bytes[j] === LF) return { end: i > 0 && bytes[i - 1] === CR ? i - 1 : i, next: j + 1 };
  }
  return undefined;
}

function parseBlock(block: Buffer): SseEvent | undefined {
  let event: string | undefined;
  let id: string | undefined;
  const data: Buffer[] = [];
  let start = 0;
  while (start <= block.length) {
    let stop = block.indexOf(LF, start);
    if (stop < 0) stop = block.length;
    const line = block.subarray(start, stop > start && block[stop - 1] === CR ? stop - 1 : stop);
    start = stop + 1;
    const colon = line.indexOf(COLON);
    if (colon === 0) continue; // a comment
    const field = (colon < 0 ? line : line.subarray(0, colon)).toString('latin1');
    const value = colon < 0 ? line.subarray(line.length) : line.subarray(line[colon + 1] === SPACE ? colon + 2 : colon + 1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value.toString('utf8');
    else if (field === 'id') id = value.toString('utf8');
  }
  if (data.length === 0 && event === undefined) return undefined;
  // Several data lines are one value, joined by line feeds (rare: JSON has none).
  const joined = data.length === 1 ? data[0]! : Buffer.concat(data.flatMap((part, i) => (i === 0 ? [part] : [Buffer.of(LF), part])));
  return { ...(event !== undefined ? { event } : {}), ...(id !== undefined ? { id } : {}), data: joined };
}

/**
 * The player each live pick takes: the best-ranked still on the board, held by many entries, so the
 * standings move. The load generator records it; the push part of the bench prepares for the first one.
 */
export async function nextPickPlayer(db: pg.Client): Promise<{ id: number; player_name: string } | undefined> {
  return (await db.query<{ id: number; player_name: string }>(`select id, player_name from player where draft_round is null order by rank limit 1`)).rows[0];
}

/** What a live client acts on in a stream's message: its kind, the change it is as of, and its group. */
export interface MessageHead {
  kind: LiveMessage['kind'];
  event_id: number;
  group_id?: number;
}

/** A standings page's head as the server writes it (standingsPageJson), ahead of its 18 KB of rows. */
const PAGE_HEAD = /^\{"kind":"standings_page","event_id":(\d+),"leaderboard":\{"group_id":(\d+),/;
/** Enough of a message's first bytes to hold PAGE_HEAD. */
const HEAD_BYTES = 120;

/**
 * A message's head: off a standings page's first bytes when they come in the server's order, without
 * decoding or parsing the page (the load generator's clients parse it after the round:
 * bench-draft-clients.ts); any other message, or a page in another order, or every message with
 * `parseAll`, is decoded and parsed.
 */
export function messageHead(data: Buffer, parseAll = false): MessageHead {
  const page = parseAll ? null : PAGE_HEAD.exec(data.toString('latin1', 0, Math.min(HEAD_BYTES, data.length)));
  if (page) return { kind: 'standings_page', event_id: Number(page[1]), group_id: Number(page[2]) };
  const message = JSON.parse(data.toString('utf8')) as LiveMessage;
  const group_id = message.kind === 'standings_me' ? message.group_id : message.kind === 'standings_page' ? message.leaderboard.group_id : undefined;
  return { kind: message.kind, event_id: message.event_id, group_id };
}

const rowKey = (r: LeaderboardRow | null) => (r ? [r.rank, r.participant_id, r.participant_name, r.correct_picks, r.busted, r.tiebreak_rank] : null);

/**
 * What a client shows, reduced to compare: the page (counts and rows) as a hash, the caller's own row as
 * text. Content, not bytes: key order or spacing may change with the server's serialisation.
 */
export function showing(board: Pick<Leaderboard, 'draft_started' | 'entries' | 'alive' | 'rankings' | 'me'>): Showing {
  const page = JSON.stringify([board.draft_started, board.entries, board.alive, board.rankings.map(rowKey)]);
  return { page: crypto.createHash('sha1').update(page).digest('base64'), me: ownRow(board.me) };
}

export interface Showing {
  page: string;
  me: string;
}

export const ownRow = (row: LeaderboardRow | null) => JSON.stringify(rowKey(row));

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function summary(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

/** A duration for people: "8.4 ms", "412 ms", "21.5 s". */
export const ms = (n: number) => {
  if (!Number.isFinite(n)) return '–';
  if (Math.abs(n) >= 10_000) return `${(n / 1000).toFixed(1)} s`;
  return `${n.toFixed(Math.abs(n) < 10 ? 1 : 0)} ms`;
};

/** Wall-clock milliseconds with sub-millisecond resolution, comparable between a process's threads. */
export const now = () => performance.timeOrigin + performance.now();
