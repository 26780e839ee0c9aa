import { describe, expect, it, vi } from 'vitest';
import { standingsMineJson, standingsPageJson } from '../../server/src/modules/leaderboard/leaderboard.service.js';
import { messageHead, SseParser, type SseEvent } from './bench-live.js';

describe("the load generator's event-stream parser", () => {
  // tRPC's framing (LF, an extra blank line after a tracked item), a comment, CR LF line breaks and a
  // multi-line data field, cut into chunks at every size: a line break may be split between two chunks.
  const text = 'event: connected\ndata: {}\n\n: comment\ndata: {"a":1}\nid: 5\n\n\nevent: ping\r\ndata: \r\n\r\ndata: x\ndata:y\n\n';
  const expected = [{ event: 'connected', data: '{}' }, { data: '{"a":1}', id: '5' }, { event: 'ping', data: '' }, { data: 'x\ny' }];
  const bytes = Buffer.from(text);
  /** Events with their data as text, to compare. */
  const read = (events: SseEvent[]) => events.map(({ data, ...rest }) => ({ ...rest, data: data.toString('utf8') }));

  it.each([1, 2, 3, 5, 7, bytes.length])('reads the same events from chunks of %i bytes', (size) => {
    const parser = new SseParser();
    const events = [];
    for (let i = 0; i < bytes.length; i += size) events.push(...parser.push(bytes.subarray(i, i + size)));
    expect(read(events)).toEqual(expected);
  });

  it('holds an unfinished event until its blank line comes, and a character split between chunks whole', () => {
    const parser = new SseParser();
    const message = Buffer.from('data: {"name":"Jalen Milroe ✓"');
    expect(parser.push(message.subarray(0, message.length - 2))).toEqual([]);
    expect(parser.push(message.subarray(message.length - 2))).toEqual([]);
    expect(parser.push(Buffer.from('}\nid: 9\n'))).toEqual([]);
    expect(read(parser.push(Buffer.from('\n')))).toEqual([{ data: '{"name":"Jalen Milroe ✓"}', id: '9' }]);
  });
});

describe("a live client's reading of a message's head", () => {
  // The page as the server writes it for every watcher (before the start: the same head as after it, and
  // no ranking to build for the test).
  const page = Buffer.from(standingsPageJson({ started: false }, { group_id: 7, limit: 100 }, 42));

  it("reads a standings page's kind, change and group off its first bytes, without parsing it", () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(messageHead(page)).toEqual({ kind: 'standings_page', event_id: 42, group_id: 7 });
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it('parses a page in another key order, every other message, and every message when asked to', () => {
    const reordered = Buffer.from(JSON.stringify({ event_id: 43, leaderboard: { draft_started: false, group_id: 8 }, kind: 'standings_page' }));
    expect(messageHead(reordered)).toEqual({ kind: 'standings_page', event_id: 43, group_id: 8 });
    expect(messageHead(Buffer.from(standingsMineJson(7, 44, '"me":null,"me_position":null')))).toEqual({ kind: 'standings_me', event_id: 44, group_id: 7 });
    expect(messageHead(Buffer.from('{"kind":"pick","event_id":45}'))).toEqual({ kind: 'pick', event_id: 45, group_id: undefined });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(messageHead(page, true)).toEqual({ kind: 'standings_page', event_id: 42, group_id: 7 });
      expect(parse).toHaveBeenCalledOnce();
    } finally {
      parse.mockRestore();
    }
  });
});
