import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../server/test/support/test-app.js';
import { runScript } from '../server/test/support/run-script.js';
import { draftCommand } from './draft.js';
import { runCommandInProcess } from './lib/command.js';

let t: TestApp;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'draft-cli-'));
const env = () => ({ DATABASE_URL: t.db.url, DATA_DIR: dataDir, DRAFT_DEADLINE: '2099-04-23T20:00:00-04:00' });

/** `npm run draft -- …` as the operator runs it (its own process), against this test's database. */
const draftProcess = (...args: string[]) => runScript('draft', args, env());
/** The same command run inside this process: what it does and says, without starting a process each time. */
const draft = (...args: string[]) => runCommandInProcess('draft', draftCommand, args, { ...process.env, LOG_LEVEL: 'silent', ...env() });

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run draft', () => {
  it('refuses nonsense with a clear message and exit code 1', async () => {
    // Once as its own process: the message on its output, the exit code the process's.
    expect(draftProcess('record', '1', '1')).toEqual({ code: 1, out: 'The draft has not started yet: start it before recording picks' });
    expect(await draft('fly')).toMatchObject({ code: 1, out: expect.stringMatching(/^Unknown command "fly"/) });
    expect(await draft('undo')).toEqual({ code: 1, out: 'There is nothing to undo: no recorded pick, and no team change since the last reset' });
  });

  it('gives a traded pick to its new team, and undo gives it back', async () => {
    expect(await draft('trade', '25', 'atl')).toEqual({ code: 0, out: 'Gave pick 25 to ATL (was NYG)' });
    expect(await draft('trade', '25', 'ATL')).toEqual({ code: 1, out: 'Pick 25 already belongs to ATL (Atlanta Falcons)' });
    expect(await draft('trade', '25', 'XYZ')).toEqual({ code: 1, out: 'team "XYZ" is not one of the 32 NFL teams (an abbreviation such as SEA)' });
    expect(await draft('trade', 'x', 'ATL')).toMatchObject({ code: 1, out: expect.stringMatching(/^slot must be a whole number/) });
    expect(await draft('trade', '25')).toMatchObject({ code: 1, out: expect.stringMatching(/^Give the slot's new team/) });
    expect(await draft('undo')).toEqual({ code: 0, out: 'Undid the team change of pick 25 (back to NYG)' });
    expect((await draft('log')).out.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/\tcli:\S+\tundo_team 25 NYG \(was ATL\)$/),
      expect.stringMatching(/\tcli:\S+\tteam 25 ATL \(was NYG\)$/),
    ]);
    // The running server heard both changes (announced like every other).
    const [{ id }] = (await t.db.query<{ id: number }>(`select max(id)::int as id from draft_event`)) as [{ id: number }];
    for (let i = 0; i < 40 && t.deps.events.lastHeardEventId < id; i++) await new Promise((r) => setTimeout(r, 50));
    expect(t.deps.events.lastHeardEventId).toBe(id);
  });

  it('starts, records, and the running server hears it at once', async () => {
    const heard: string[] = [];
    t.deps.events.onChange((c) => heard.push(c.kind));
    expect(await draft('start')).toEqual({ code: 0, out: 'Started the draft: picks are locked' });
    const found = await draft('find', 'cam ward');
    const id = /^id (\d+)/.exec(found.out)?.[1];
    expect(id).toBeDefined();
    expect(await draft('record', '1', id!)).toEqual({ code: 0, out: 'Pick 1: Cam Ward, QB, Miami' });
    expect((await draft('record', '1', id!)).out).toBe('Slot 1 is already filled by Cam Ward');
    expect((await draft('record', '2', id!)).out).toBe('Cam Ward was already drafted (round 1, pick 1)');
    expect((await draft('record', '33', id!)).out).toBe('Slot must be a whole number from 1 to 32');
    for (let i = 0; i < 40 && !heard.includes('pick'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(heard).toEqual(['start', 'pick']);
    const status = (await t.request('GET', '/api/draft/status')).json() as { draftHasStarted: boolean; picks_made: number };
    expect(status).toMatchObject({ draftHasStarted: true, picks_made: 1 });
  });

  it('replays the 2025 round one with its teams and keeps an audit log', async () => {
    // A slot given to another team meanwhile: the replay gives it back to the team that made the pick.
    expect((await draft('trade', '2', 'CLE')).code).toBe(0);
    const before = (await draft('status')).out;
    expect(before).toMatch(/\n {3}1\. TEN {2}Cam Ward, QB, Miami\n/);
    expect(before).toMatch(/\n {2}Pick 2 · CLE on the clock\n/);
    const replay = await draft('replay-2025');
    expect(replay.code).toBe(0);
    expect(replay.out).toMatch(/^Gave pick 2 to JAX \(was CLE\)\nPick 2: Travis Hunter, CB\/WR, Colorado\n/);
    expect(replay.out).toMatch(/Pick 32: Josh Simmons, OT, Ohio State\nReplayed 31 pick\(s\)\./);
    const status = await draft('status');
    expect(status.out).toMatch(/Round one: 32 of 32 picks recorded, complete/);
    expect(status.out).toMatch(/\n {2}18\. SEA {2}Grey Zabel, IOL, North Dakota State\n/);
    const order = (await draft('order')).out.split('\n');
    expect(order).toHaveLength(32);
    expect(order[17]).toBe('18. SEA  Seattle Seahawks\tGrey Zabel, IOL, North Dakota State');
    expect(status.out).toMatch(/Feed: not configured/);
    const log = (await draft('log')).out.split('\n');
    expect(log[0]).toMatch(/cli:\S+\tpick 32 Josh Simmons/);
    expect((await draft('reset')).out).toBe('Reset the draft (all results cleared)');
  });
});
