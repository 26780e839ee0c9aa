import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enveloped, jsonBody, jsonTemplate, jsonText, prepareJson, sendRead, type JsonBody } from '../src/responses/json-body.js';

/** What a hot read sends: the same bytes JSON.stringify would give, put together around shared pages. */
describe('answers put together from prepared pieces', () => {
  const page = prepareJson([{ rank: 1, participant_name: 'Zoë 🏈 Ødegaard' }, { rank: 2, participant_name: '李雷' }]);
  const me = prepareJson({ rank: 2, participant_name: '李雷' });
  const answer = { group_id: 1, rankings: page, me, matches: 2, note: 'naïve', skipped: undefined };

  it('puts together exactly the JSON of the whole answer, multi-byte names included', () => {
    expect(jsonText(jsonBody(answer))).toBe(JSON.stringify(answer));
  });

  it('wraps it in an envelope without changing a byte inside, under its own ETag', () => {
    const body = jsonBody(answer);
    const wrapped = enveloped(body, '{"result":{"data":', '}}', 't');
    expect(JSON.parse(jsonText(wrapped))).toEqual({ result: { data: JSON.parse(JSON.stringify(answer)) } });
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
});

/**
 * A read's answer as a client receives it over real HTTP, with its ETag, its length and the headers hooks
 * set.
 */
describe('a read sent over HTTP', () => {
  const big = prepareJson(Array.from({ length: 80 }, (_, i) => ({ rank: i + 1, participant_name: `Entry ${i} · Zoë 🏈 李雷` })));
  const bodies: Record<string, () => JsonBody> = {
    composed: () => jsonBody({ rankings: big, me: { rank: 3, participant_name: 'naïve' } }),
    whole: () => jsonBody(big),
    enveloped: () => enveloped(jsonBody({ rankings: big }), '{"result":{"data":', '}}', 't'),
    small: () => jsonBody({ status: 'live', version: 7 }),
  };
  let app: FastifyInstance;
  let base: string;
  const finished: string[] = [];

  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.addHook('onRequest', (_request, reply, done) => {
      reply.header('x-content-type-options', 'nosniff').header('vary', 'Origin');
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      finished.push(`${request.method} ${request.url} ${reply.statusCode}`);
      done();
    });
    for (const [name, body] of Object.entries(bodies)) app.get(`/${name}`, async (request, reply) => sendRead(request, reply, body()));
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(() => app.close());

  it('sends the exact bytes with their length, ETag and the headers hooks set, and its onResponse hook runs', async () => {
    for (const [name, body] of Object.entries(bodies)) {
      const res = await fetch(`${base}/${name}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.status).toBe(200);
      expect(bytes.toString('utf8')).toBe(jsonText(body()));
      expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('etag')).toBe(body().etag);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('vary')).toBe('Origin, authorization');
      expect(res.headers.get('connection')).toBe('keep-alive');
      await expect.poll(() => finished).toContain(`GET /${name} 200`);
    }
  });

  it('answers 304 without a body to the ETag it gave, and HEAD with the length but no body', async () => {
    const first = await fetch(`${base}/composed`);
    await first.arrayBuffer();
    const again = await fetch(`${base}/composed`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const head = await fetch(`${base}/composed`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(first.headers.get('content-length'));
    expect(await head.text()).toBe('');
  });

  it('answers the same through inject, as the tests that use it see it', async () => {
    const res = await app.inject({ method: 'GET', url: '/composed' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(jsonText(bodies.composed!()));
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  });
});
