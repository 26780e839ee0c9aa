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
  data: string;
}

/**
 * Server-sent events from a text stream (https://html.spec.whatwg.org/multipage/server-sent-events.html),
 * as tRPC 11 writes them: `event: connected` first, then `data:` + `id:` per tracked item, `event: ping`.
 * One pass over each chunk, as a browser's native EventSource reads it: the load generator shares the
 * machine with the server, and a parser that scans every 18 KB frame with regular expressions several
 * times over took a third of its time.
 */
export class SseParser {
  private buffer = '';
  /** How far the buffer was already searched for a blank line. */
  private scanned = 0;

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const events: SseEvent[] = [];
    for (let blank = this.blankLine(); blank; blank = this.blankLine()) {
      const event = this.parseBlock(this.buffer.slice(0, blank.end));
      this.buffer = this.buffer.slice(blank.next);
      this.scanned = 0;
      if (event) events.push(event);
    }
    return events;
  }

  /** The first blank line (two line breaks, CR LF or LF): where the event before it ends and the next starts. */
  private blankLine(): { end: number; next: number } | undefined {
    const text = this.buffer;
    // From each line feed to the next (indexOf, not a loop over 18 KB of data line by character); a line
    // break split over two chunks (LF | CR LF) is found again from two characters back.
    for (let i = text.indexOf('\n', Math.max(0, this.scanned - 2)); i >= 0; i = text.indexOf('\n', i + 1)) {
      let j = i + 1;
      if (text.charCodeAt(j) === 13) j++;
      if (text.charCodeAt(j) === 10) return { end: i > 0 && text.charCodeAt(i - 1) === 13 ? i - 1 : i, next: j + 1 };
    }
    this.scanned = text.length;
    return undefined;
  }

  private parseBlock(block: string): SseEvent | undefined {
    const event: SseEvent = { data: '' };
    const data: string[] = [];
    let start = 0;
    while (start <= block.length) {
      let stop = block.indexOf('\n', start);
      if (stop < 0) stop = block.length;
      const line = block.slice(start, block.charCodeAt(stop - 1) === 13 ? stop - 1 : stop);
      start = stop + 1;
      const colon = line.indexOf(':');
      if (colon === 0) continue; // a comment
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event.event = value;
      else if (field === 'id') event.id = value;
    }
    event.data = data.join('\n');
    return data.length > 0 || event.event ? event : undefined;
  }
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

/**
 * A message's head: off a standings page's first bytes when they come in the server's order, without
 * parsing the page (the load generator's clients parse it after the round: bench-draft-clients.ts); any
 * other message, or a page in another order, or every message with `parseAll`, is parsed.
 */
export function messageHead(data: string, parseAll = false): MessageHead {
  const page = parseAll ? null : PAGE_HEAD.exec(data);
  if (page) return { kind: 'standings_page', event_id: Number(page[1]), group_id: Number(page[2]) };
  const message = JSON.parse(data) as LiveMessage;
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
