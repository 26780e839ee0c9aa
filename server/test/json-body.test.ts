import { describe, expect, it } from 'vitest';
import { enveloped, jsonBody, jsonTemplate, jsonText, payloadOf, prepareJson, writeJson } from '../src/cache/json-body.js';

/** What a hot read sends: the same bytes JSON.stringify would give, put together around shared pages. */
describe('answers put together from prepared pieces', () => {
  const page = prepareJson([{ rank: 1, participant_name: 'Zoë 🏈 Ødegaard' }, { rank: 2, participant_name: '李雷' }]);
  const me = prepareJson({ rank: 2, participant_name: '李雷' });
  const answer = { group_id: 1, rankings: page, me, matches: 2, note: 'naïve', skipped: undefined };

  it('sends exactly the JSON of the whole answer, multi-byte names included', () => {
    const body = jsonBody(answer);
    expect(payloadOf(body)).toBe(JSON.stringify(answer));
    expect(jsonText(body)).toBe(JSON.stringify(answer));
  });

  it('wraps it in an envelope without changing a byte inside, under its own ETag', () => {
    const body = jsonBody(answer);
    const wrapped = enveloped(body, '{"result":{"data":', '}}', 't');
    expect(JSON.parse(String(payloadOf(wrapped)))).toEqual({ result: { data: JSON.parse(JSON.stringify(answer)) } });
    expect(wrapped.etag).not.toBe(body.etag);
  });

  it('gives the same ETag to the same answer and another to a different caller', () => {
    expect(jsonBody({ ...answer }).etag).toBe(jsonBody(answer).etag);
    const other = prepareJson({ rank: 1, participant_name: 'Zoë 🏈 Ødegaard' });
    expect(jsonBody({ ...answer, me: other }).etag).not.toBe(jsonBody(answer).etag);
    expect(jsonBody({ ...answer, matches: 3 }).etag).not.toBe(jsonBody(answer).etag);
  });

  it('writes a template as the same JSON, values serialised and prepared values as their shared pieces', () => {
    const big = prepareJson(Array.from({ length: 50 }, (_, i) => ({ rank: i + 1, participant_name: `Entry ${i} · Zoë` })));
    const body = jsonTemplate`{"group_id":${1},"name":${'Zoë "Z" 🏈'},"rankings":${big},"me":${me},"none":${null},"ok":${true},"n":${-2.5}}`;
    expect(jsonText(body)).toBe(JSON.stringify({ group_id: 1, name: 'Zoë "Z" 🏈', rankings: big, me, none: null, ok: true, n: -2.5 }));
    expect(body.pieces.filter((p) => typeof p !== 'string')).toHaveLength(1);
    expect(body.etag).toBe(jsonTemplate`{"group_id":${1},"name":${'Zoë "Z" 🏈'},"rankings":${big},"me":${me},"none":${null},"ok":${true},"n":${-2.5}}`.etag);
  });

  it('sends a prepared value alone as its own bytes, the same buffer each time', () => {
    const bytes = payloadOf(jsonBody(page));
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(payloadOf(jsonBody(page))).toBe(bytes);
    expect(bytes.toString()).toBe(JSON.stringify(page));
  });

  it('writes a live frame as text around the shared page bytes, the same buffer for every stream', () => {
    const big = prepareJson(Array.from({ length: 50 }, (_, i) => ({ rank: i + 1, participant_name: `Entry ${i} · Zoë` })));
    const frames = [1, 2].map(() => {
      const chunks: (string | Buffer)[] = [];
      writeJson({ cork() {}, uncork() {}, write: (c) => chunks.push(c) > 0 }, enveloped(jsonBody({ rankings: big, me }), 'data: ', '\n\n', 'frame'));
      return chunks;
    });
    for (const chunks of frames) {
      expect(Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).toString('utf8')).toBe(`data: ${JSON.stringify({ rankings: big, me })}\n\n`);
      expect(chunks).toHaveLength(3);
    }
    expect(frames[0]![1]).toBe(frames[1]![1]);
  });
});
