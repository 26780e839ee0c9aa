import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';
import { loadConfig, ConfigError } from '../src/config.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('server skeleton', () => {
  it('answers /healthz and /readyz while the database is up', async () => {
    expect((await t.request('GET', '/healthz')).statusCode).toBe(200);
    const ready = await t.request('GET', '/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('survives dropped database connections and reports ready again', async () => {
    // Kill every backend of this database (the pool's idle connections included).
    await t.db.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
    let status = 0;
    for (let i = 0; i < 5 && status !== 200; i++) status = (await t.request('GET', '/readyz')).statusCode;
    expect(status).toBe(200);
    expect((await t.request('GET', '/api/players/')).statusCode).toBe(200);
  });

  it('serves the SPA (or its placeholder) for page navigations and unknown paths', async () => {
    const page = await t.request('GET', '/some/unknown/page', { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toMatch(/First Round/);
    const api = await t.request('GET', '/api/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Not found', message: 'Not found', code: 'NOT_FOUND' });
  });

  it('loads the default board once, sorted by rank, with draft columns', async () => {
    const players = (await t.request('GET', '/players/')).json() as { rank: number; draft_round: number | null }[];
    expect(players.length).toBeGreaterThanOrEqual(100);
    expect(players.map((p) => p.rank)).toEqual([...players.map((p) => p.rank)].sort((a, b) => a - b));
    expect(players[0]).toHaveProperty('draft_round', null);
  });
});

describe('configuration', () => {
  it('names the variable in a one-line error', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/^Invalid configuration: PORT="abc"/);
    expect(() => loadConfig({ DRAFT_DEADLINE: 'tomorrow' })).toThrow(/DRAFT_DEADLINE/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it('defaults the deadline to the next draft night when none is set', () => {
    const config = loadConfig({});
    expect(config.deadline.getTime()).toBeGreaterThan(Date.now());
    expect(config.deadline.getUTCMonth()).toBe(3);
    expect(config.deadline.getUTCDay()).toBe(5); // Thursday 20:00 EDT is Friday 00:00 UTC
  });

  it('gives a shutdown 10 s to drain unless DRAIN_SECONDS says otherwise', () => {
    expect(loadConfig({}).DRAIN_SECONDS).toBe(10);
    expect(loadConfig({ DRAIN_SECONDS: '2' }).DRAIN_SECONDS).toBe(2);
    expect(() => loadConfig({ DRAIN_SECONDS: '0' })).toThrow(/DRAIN_SECONDS/);
  });

  it('keeps accepting 1 s after /readyz turns 503 unless READY_DRAIN_SECONDS says otherwise (0: no pause)', () => {
    expect(loadConfig({}).READY_DRAIN_SECONDS).toBe(1);
    expect(loadConfig({ READY_DRAIN_SECONDS: '0' }).READY_DRAIN_SECONDS).toBe(0);
    expect(loadConfig({ READY_DRAIN_SECONDS: '15' }).READY_DRAIN_SECONDS).toBe(15);
    expect(() => loadConfig({ READY_DRAIN_SECONDS: '-1' })).toThrow(/READY_DRAIN_SECONDS/);
    expect(() => loadConfig({ READY_DRAIN_SECONDS: '61' })).toThrow(/READY_DRAIN_SECONDS/);
  });
});
