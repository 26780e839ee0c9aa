import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';
import { runScript } from './support/run-script.js';

let t: TestApp;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'draft-cli-'));

/** `npm run draft -- …` as the operator runs it, against this test's database. */
const draft = (...args: string[]) =>
  runScript('draft', args, { DATABASE_URL: t.db.url, DATA_DIR: dataDir, DRAFT_DEADLINE: '2099-04-23T20:00:00-04:00' });

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run draft', () => {
  it('refuses nonsense with a clear message and exit code 1', () => {
    expect(draft('record', '1', '1')).toEqual({ code: 1, out: 'The draft has not started yet: start it before recording picks' });
    expect(draft('fly')).toMatchObject({ code: 1, out: expect.stringMatching(/^Unknown command "fly"/) });
    expect(draft('undo')).toEqual({ code: 1, out: 'There is nothing to undo: no recorded pick, and no team change since the last reset' });
  });

  it('starts, records, and the running server hears it at once', async () => {
    const heard: string[] = [];
    t.deps.events.onChange((c) => heard.push(c.kind));
    expect(draft('start')).toEqual({ code: 0, out: 'Started the draft: picks are locked' });
    const found = draft('find', 'cam ward');
    const id = /^id (\d+)/.exec(found.out)?.[1];
    expect(id).toBeDefined();
    expect(draft('record', '1', id!)).toEqual({ code: 0, out: 'Pick 1: Cam Ward, QB, Miami' });
    expect(draft('record', '1', id!).out).toBe('Slot 1 is already filled by Cam Ward');
    expect(draft('record', '2', id!).out).toBe('Cam Ward was already drafted (round 1, pick 1)');
    expect(draft('record', '33', id!).out).toBe('Slot must be a whole number from 1 to 32');
    for (let i = 0; i < 40 && !heard.includes('pick'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(heard).toEqual(['start', 'pick']);
    const status = (await t.request('GET', '/api/draft/status')).json() as { draftHasStarted: boolean; picks_made: number };
    expect(status).toMatchObject({ draftHasStarted: true, picks_made: 1 });
  });

  it('replays the 2025 round one and keeps an audit log', async () => {
    const replay = draft('replay-2025');
    expect(replay.code).toBe(0);
    expect(replay.out).toMatch(/Pick 32: Josh Simmons, OT, Ohio State\nReplayed 31 pick\(s\)\./);
    const status = draft('status');
    expect(status.out).toMatch(/Round one: 32 of 32 picks recorded, complete/);
    expect(status.out).toMatch(/Feed: not configured/);
    const log = draft('log').out.split('\n');
    expect(log[0]).toMatch(/cli:\S+\tpick 32 Josh Simmons/);
    expect(draft('reset').out).toBe('Reset the draft (all results cleared)');
  });
});
