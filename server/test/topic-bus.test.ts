import { Writable } from 'node:stream';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftChange } from '@first-round/shared/schemas';
import { TopicBus } from '../src/events/topic-bus.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './game/helpers.js';

/**
 * The topic bus hears what other instances publish through PostgreSQL NOTIFY. Anyone who can connect
 * can notify on its channels (psql, a script, an older instance during a deploy): a payload that is not
 * a message of its topic must cost a warning, never the listening connection.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A real logger whose warnings the test reads. */
function capturingLogger() {
  const lines: Array<{ level: number; msg: string; channel?: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
      done();
    },
  });
  return { log: pino({ level: 'warn' }, sink) as unknown as FastifyBaseLogger, warnings: () => lines.filter((l) => l.level === 40) };
}

describe('the topic bus', () => {
  it('logs and skips a malformed payload, keeps listening, and delivers the next good one', async () => {
    const { log, warnings } = capturingLogger();
    const bus = new TopicBus(t.orm(), log);
    await bus.start();
    const heard: DraftChange[] = [];
    bus.onChange((change) => heard.push(change));
    const invalidations: unknown[] = [];
    bus.onInvalidate((message) => invalidations.push(message));
    try {
      const good: DraftChange = { event_id: 1_000_001, kind: 'reopen_round', at: new Date().toISOString() };
      await t.db.query(`notify draft_changes, '{"event_id": 1000000, "kind": "pick"'`);
      await t.db.query(`notify draft_changes, '{"event_id": "not a number", "kind": "pick"}'`);
      await t.db.query(`notify cache_invalidation, 'sessions_ended'`);
      await t.db.query(`select pg_notify('draft_changes', $1)`, [JSON.stringify(good)]);
      await t.db.query(`select pg_notify('cache_invalidation', $1)`, [JSON.stringify({ kind: 'board' })]);
      await eventually(async () => {
        expect(heard).toEqual([good]);
        expect(invalidations).toEqual([{ kind: 'board' }]);
      });
      expect(bus.isConnected).toBe(true);
      const channels = warnings().map((w) => w.channel);
      expect(channels.filter((c) => c === 'draft_changes')).toHaveLength(2);
      expect(channels.filter((c) => c === 'cache_invalidation')).toHaveLength(1);
    } finally {
      await bus.stop();
    }
  });
});
