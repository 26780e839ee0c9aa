import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBoardCsv } from '../server/src/modules/seasons/board.service.js';
import { listBoard } from '../server/src/modules/players/players.repository.js';
import { createTestApp, type TestApp } from '../server/test/support/test-app.js';
import { runScript } from '../server/test/support/run-script.js';
import { runCommandInProcess } from './lib/command.js';
import { playersImportCommand } from './players-import.js';

let t: TestApp;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'board-import-'));
const file = (name: string, text: string) => {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, text);
  return p;
};
const board = async () => t.db.query<{ id: number; rank: number; player_name: string }>(`select id, rank, player_name from player order by rank`);

const env = () => ({ DATABASE_URL: t.db.url, DATA_DIR: tmp });
/** `npm run players:import -- FILE` as a user runs it (its own process), against this test's database. */
const runImportProcess = (csvPath: string) => runScript('players-import', [csvPath], env());
/** The same command run inside this process: what it does and says, without starting a process each time. */
const runImport = (csvPath: string) => runCommandInProcess('players:import', playersImportCommand, [csvPath], { ...process.env, LOG_LEVEL: 'silent', ...env() });

beforeAll(async () => {
  t = await createTestApp({ seedBoard: false });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('board import', () => {
  it('imports a valid file through the command', () => {
    const ok = runImportProcess(file('ok.csv', 'rank,player_name,position,school\n1,Alpha One,QB,Miami\n2,Beta Two,CB/WR,Colorado\n3,Gamma Three,OT,LSU\n'));
    expect(ok.out).toMatch(/3 added, 0 updated, 0 removed/);
    expect(ok.code).toBe(0);
  });

  it('reports every bad row by number and imports nothing', async () => {
    const before = await board();
    const bad = await runImport(
      file('bad.csv', 'rank,player_name,position,school\n1,Alpha One,QB,Miami\nx,Beta Two,CB,Colorado\n3,,OT,LSU\n4,Delta Four,XX,Texas\n'),
    );
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/Nothing was imported/);
    expect(bad.out).toMatch(/row 3: .*rank/);
    expect(bad.out).toMatch(/row 4: .*player_name/);
    expect(bad.out).toMatch(/row 5: .*"XX"/);
    expect(await board()).toEqual(before);
  });

  it('re-ranks players in place, keeping their ids, picks and results', async () => {
    const [alpha, beta] = await board();
    await t.db.query(`insert into participant (id) values ('user_importer')`);
    await t.db.query(`insert into pick (participant_id, group_id, player_id) values ('user_importer', 1, $1)`, [alpha!.id]);
    await t.db.query(`update player set draft_round = 1, draft_pick = 1 where id = $1`, [beta!.id]);
    const summary = await importBoardCsv(
      t.orm().em.fork(),
      'rank,player_name,position,school\n1,Beta Two,CB/WR,Colorado\n2,Alpha One,QB,Miami\n3,Gamma Three,OT,LSU\n4,Epsilon Five,S,Georgia\n',
    );
    expect(summary).toEqual({ inserted: 1, updated: 3, removed: 0 });
    const after = await board();
    expect(after.map((p) => p.player_name)).toEqual(['Beta Two', 'Alpha One', 'Gamma Three', 'Epsilon Five']);
    expect(after.find((p) => p.player_name === 'Alpha One')?.id).toBe(alpha!.id);
    const [kept] = await t.db.query<{ draft_pick: number }>(`select draft_pick from player where id = $1`, [beta!.id]);
    expect(kept?.draft_pick).toBe(1);
    expect(await t.db.query(`select 1 from pick where player_id = $1`, [alpha!.id])).toHaveLength(1);
  });

  it('refuses to drop a player someone picked, and changes nothing', async () => {
    const before = await board();
    const refused = await runImport(file('drop.csv', 'rank,player_name,position,school\n1,Beta Two,CB/WR,Colorado\n2,Gamma Three,OT,LSU\n'));
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/picked by someone.*Alpha One/);
    expect(await board()).toEqual(before);
  });

  it("serves each player's band: the one the board names, else the one its rank falls in", async () => {
    const text = ['rank,player_name,position,school,band', '1,Beta Two,CB/WR,Colorado,', '2,Alpha One,QB,Miami,long shot', '3,Gamma Three,OT,LSU,', '4,Epsilon Five,S,Georgia,safe'];
    const ranks = Array.from({ length: 40 }, (_, i) => `${i + 5},Filler ${i + 5},LB,Iowa,`);
    const ok = await runImport(file('bands.csv', [...text, ...ranks].join('\n')));
    expect(ok.code).toBe(0);
    // What players.list serves (its cache reads the board through listBoard).
    const bandOf = async () => Object.fromEntries((await listBoard(t.orm().em.fork())).map((p) => [p.player_name, p.band]));
    const bands = await bandOf();
    expect([bands['Beta Two'], bands['Alpha One'], bands['Gamma Three'], bands['Epsilon Five']]).toEqual(['safe', 'long_shot', 'safe', 'safe']);
    expect([bands['Filler 20'], bands['Filler 21'], bands['Filler 40'], bands['Filler 41']]).toEqual(['safe', 'bubble', 'bubble', 'long_shot']);

    // Without the column a re-import hands every band back to the rank.
    const plain = ['rank,player_name,position,school', '1,Beta Two,CB/WR,Colorado', '2,Alpha One,QB,Miami', '3,Gamma Three,OT,LSU', '4,Epsilon Five,S,Georgia'];
    expect((await runImport(file('plain.csv', [...plain, ...ranks.map((r) => r.slice(0, -1))].join('\n')))).code).toBe(0);
    expect((await bandOf())['Alpha One']).toBe('safe');
    expect(await t.db.query(`select 1 from player where band is not null`)).toHaveLength(0);
  });

  it('refuses to replace the board once the draft has started', async () => {
    await t.db.query(`update draft_state set started_at = now()`);
    await expect(importBoardCsv(t.orm().em.fork(), 'rank,player_name,position,school\n1,Zeta,QB,Miami\n')).rejects.toThrow(/draft has started/);
    await t.db.query(`update draft_state set started_at = null`);
  });
});
