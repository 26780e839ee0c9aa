import { describe, expect, it } from 'vitest';
import { SseParser } from './bench-live.js';

describe("the load generator's event-stream parser", () => {
  // tRPC's framing (LF, an extra blank line after a tracked item), a comment, CR LF line breaks and a
  // multi-line data field, cut into chunks at every size: a line break may be split between two chunks.
  const text = 'event: connected\ndata: {}\n\n: comment\ndata: {"a":1}\nid: 5\n\n\nevent: ping\r\ndata: \r\n\r\ndata: x\ndata:y\n\n';
  const expected = [{ event: 'connected', data: '{}' }, { data: '{"a":1}', id: '5' }, { event: 'ping', data: '' }, { data: 'x\ny' }];

  it.each([1, 2, 3, 5, 7, text.length])('reads the same events from chunks of %i characters', (size) => {
    const parser = new SseParser();
    const events = [];
    for (let i = 0; i < text.length; i += size) events.push(...parser.push(text.slice(i, i + size)));
    expect(events).toEqual(expected);
  });

  it('holds an unfinished event until its blank line comes', () => {
    const parser = new SseParser();
    expect(parser.push('data: {"kind":"standings"')).toEqual([]);
    expect(parser.push('}\nid: 9\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ data: '{"kind":"standings"}', id: '9' }]);
  });
});
