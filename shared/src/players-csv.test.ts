import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { parseBoardCsv, PLAYER_POSITIONS, type BoardRow, type ParseBoardResult } from './players-csv.js';

const boardText = readFileSync(new URL('../data/players-2025.csv', import.meta.url), 'utf8');

interface RoundOnePick {
  slot: number;
  player_name: string;
  position: string;
  school: string;
  team: string;
}
interface RoundOneFile {
  season: number;
  round: number;
  picks: RoundOnePick[];
}
const roundOne = JSON.parse(
  readFileSync(new URL('../data/round-one-2025.json', import.meta.url), 'utf8'),
) as RoundOneFile;

const ROUND_ONE: ReadonlyArray<readonly [string, string, string]> = [
  ['Cam Ward', 'QB', 'Miami'],
  ['Travis Hunter', 'CB/WR', 'Colorado'],
  ['Abdul Carter', 'EDGE', 'Penn State'],
  ['Will Campbell', 'OT', 'LSU'],
  ['Mason Graham', 'DL', 'Michigan'],
  ['Ashton Jeanty', 'RB', 'Boise State'],
  ['Armand Membou', 'OT', 'Missouri'],
  ['Tetairoa McMillan', 'WR', 'Arizona'],
  ['Kelvin Banks Jr.', 'OT', 'Texas'],
  ['Colston Loveland', 'TE', 'Michigan'],
  ['Mykel Williams', 'EDGE', 'Georgia'],
  ['Tyler Booker', 'IOL', 'Alabama'],
  ['Kenneth Grant', 'DL', 'Michigan'],
  ['Tyler Warren', 'TE', 'Penn State'],
  ['Jalon Walker', 'LB/EDGE', 'Georgia'],
  ['Walter Nolen', 'DL', 'Ole Miss'],
  ['Shemar Stewart', 'EDGE', 'Texas A&M'],
  ['Grey Zabel', 'IOL', 'North Dakota State'],
  ['Emeka Egbuka', 'WR', 'Ohio State'],
  ['Jahdae Barron', 'CB', 'Texas'],
  ['Derrick Harmon', 'DL', 'Oregon'],
  ['Omarion Hampton', 'RB', 'North Carolina'],
  ['Matthew Golden', 'WR', 'Texas'],
  ['Donovan Jackson', 'IOL', 'Ohio State'],
  ['Jaxson Dart', 'QB', 'Ole Miss'],
  ['James Pearce Jr.', 'EDGE', 'Tennessee'],
  ['Malaki Starks', 'S', 'Georgia'],
  ['Tyleik Williams', 'DL', 'Ohio State'],
  ['Josh Conerly Jr.', 'OT', 'Oregon'],
  ['Maxwell Hairston', 'CB', 'Kentucky'],
  ['Jihaad Campbell', 'LB', 'Alabama'],
  ['Josh Simmons', 'OT', 'Ohio State'],
];

const HEADER = 'rank,player_name,position,school';

function expectOk(result: ParseBoardResult): BoardRow[] {
  if (!result.ok) throw new Error(`expected ok, got errors: ${JSON.stringify(result.errors)}`);
  return result.rows;
}

function expectErrors(result: ParseBoardResult) {
  if (result.ok) throw new Error('expected errors, got ok');
  return result.errors;
}

describe('shipped players-2025.csv', () => {
  const rows = expectOk(parseBoardCsv(boardText));
  const byName = new Map(rows.map((r) => [r.player_name, r]));

  it('parses with at least 100 rows and contiguous ranks 1..N', () => {
    expect(rows.length).toBeGreaterThanOrEqual(100);
    const ranks = rows.map((r) => r.rank).sort((a, b) => a - b);
    expect(ranks).toEqual(rows.map((_, i) => i + 1));
  });

  it('has the exact header line', () => {
    expect(boardText.split(/\r?\n/)[0]).toBe(HEADER);
  });

  it('contains every round-one player with the right position and school', () => {
    for (const [name, position, school] of ROUND_ONE) {
      const row = byName.get(name);
      expect(row, name).toBeDefined();
      expect(row?.position, name).toBe(position);
      expect(row?.school, name).toBe(school);
    }
  });

  it('contains Shedeur Sanders inside the top 20', () => {
    const row = byName.get('Shedeur Sanders');
    expect(row).toMatchObject({ position: 'QB', school: 'Colorado' });
    expect(row?.rank).toBeLessThanOrEqual(20);
  });
});

describe('shipped round-one-2025.json', () => {
  const rows = expectOk(parseBoardCsv(boardText));
  const byName = new Map(rows.map((r) => [r.player_name, r]));

  it('has season 2025, round 1 and slots 1..32 each exactly once', () => {
    expect(roundOne.season).toBe(2025);
    expect(roundOne.round).toBe(1);
    expect(roundOne.picks).toHaveLength(32);
    const slots = roundOne.picks.map((p) => p.slot).sort((a, b) => a - b);
    expect(slots).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
  });

  it('matches the real round-one order and every pick is on the board', () => {
    const sorted = [...roundOne.picks].sort((a, b) => a.slot - b.slot);
    sorted.forEach((pick, i) => {
      const expected = ROUND_ONE[i];
      expect(expected).toBeDefined();
      expect([pick.player_name, pick.position, pick.school]).toEqual(expected);
      const row = byName.get(pick.player_name);
      expect(row, pick.player_name).toBeDefined();
      expect(row?.position).toBe(pick.position);
      expect(row?.school).toBe(pick.school);
    });
  });

  it('names the team that made each pick, as the bundled round-one order has it', () => {
    const order = readFileSync(new URL('../data/round-one-order-2025.csv', import.meta.url), 'utf8').trim().split('\n').slice(1);
    const bySlot = new Map(order.map((line) => line.split(',') as [string, string]).map(([slot, team]) => [Number(slot), team]));
    for (const pick of roundOne.picks) expect(pick.team, `pick ${pick.slot}`).toBe(bySlot.get(pick.slot));
  });
});

describe('parseBoardCsv: format handling', () => {
  it('parses a minimal file', () => {
    expect(expectOk(parseBoardCsv(`${HEADER}\n1,Cam Ward,QB,Miami\n`))).toEqual([
      { rank: 1, player_name: 'Cam Ward', position: 'QB', school: 'Miami' },
    ]);
  });

  it('handles CRLF, a BOM, a missing trailing newline and trims fields', () => {
    const text = `\uFEFF${HEADER}\r\n 1 ,  Cam Ward , QB ,Miami \r\n2,Travis Hunter,CB/WR,Colorado`;
    expect(expectOk(parseBoardCsv(text))).toEqual([
      { rank: 1, player_name: 'Cam Ward', position: 'QB', school: 'Miami' },
      { rank: 2, player_name: 'Travis Hunter', position: 'CB/WR', school: 'Colorado' },
    ]);
  });

  it('handles quoted fields with commas and escaped quotes', () => {
    const text = `${HEADER}\n1,"Smith, John ""JJ""",QB,"Texas A&M, College Station"\n2,Azareye'h Thomas,CB,Florida State\n`;
    expect(expectOk(parseBoardCsv(text))).toEqual([
      { rank: 1, player_name: 'Smith, John "JJ"', position: 'QB', school: 'Texas A&M, College Station' },
      { rank: 2, player_name: "Azareye'h Thomas", position: 'CB', school: 'Florida State' },
    ]);
  });

  it('accepts columns in any order', () => {
    const text = 'school,position,player_name,rank\nMiami,QB,Cam Ward,1\n';
    expect(expectOk(parseBoardCsv(text))).toEqual([
      { rank: 1, player_name: 'Cam Ward', position: 'QB', school: 'Miami' },
    ]);
  });

  it('reads an optional band column: named bands kept, blank ones left to the rank', () => {
    const text = `${HEADER},band\n1,Cam Ward,QB,Miami,\n2,Travis Hunter,CB/WR,Colorado,Long shot\n3,Abdul Carter,EDGE,Penn State,bubble\n`;
    expect(expectOk(parseBoardCsv(text))).toEqual([
      { rank: 1, player_name: 'Cam Ward', position: 'QB', school: 'Miami' },
      { rank: 2, player_name: 'Travis Hunter', position: 'CB/WR', school: 'Colorado', band: 'long_shot' },
      { rank: 3, player_name: 'Abdul Carter', position: 'EDGE', school: 'Penn State', band: 'bubble' },
    ]);
  });

  it('rejects an unknown band and names it', () => {
    const errors = expectErrors(parseBoardCsv(`band,${HEADER}\nrisky,1,Cam Ward,QB,Miami\n`));
    expect(errors).toEqual([{ row: 2, message: expect.stringContaining('band "risky"') }]);
  });

  it('exports the position list', () => {
    expect(PLAYER_POSITIONS).toEqual(['QB', 'WR', 'RB', 'TE', 'OT', 'OL', 'IOL', 'DL', 'EDGE', 'LB', 'CB', 'S']);
  });
});

describe('parseBoardCsv: errors', () => {
  it('reports missing and extra header columns as a single row-1 error', () => {
    const errors = expectErrors(parseBoardCsv('rank,player_name,pos,school,team\n1,Cam Ward,QB,Miami,x\n'));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.row).toBe(1);
    expect(errors[0]?.message).toContain('position');
    expect(errors[0]?.message).toContain('pos');
    expect(errors[0]?.message).toContain('team');
  });

  it('reports an empty file', () => {
    const errors = expectErrors(parseBoardCsv(''));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.row).toBe(1);
  });

  it('requires at least one data row', () => {
    const errors = expectErrors(parseBoardCsv(`${HEADER}\n`));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/no data rows/);
  });

  it('rejects a rank that is not a positive integer', () => {
    const text = `${HEADER}\n1,A,QB,X\n0,B,QB,X\n-3,C,QB,X\n2.5,D,QB,X\nabc,E,QB,X\n,F,QB,X\n`;
    const errors = expectErrors(parseBoardCsv(text));
    expect(errors).toEqual([3, 4, 5, 6, 7].map((row) => ({ row, message: 'rank must be a positive integer' })));
  });

  it('rejects empty or over-long player_name and school', () => {
    const long = 'x'.repeat(101);
    const text = `${HEADER}\n1, ,QB,X\n2,B,QB,  \n3,${long},QB,X\n4,D,QB,${long}\n5,${'y'.repeat(100)},QB,${'z'.repeat(100)}\n`;
    const errors = expectErrors(parseBoardCsv(text));
    expect(errors.map((e) => e.row)).toEqual([2, 3, 4, 5]);
    expect(errors[0]?.message).toMatch(/player_name/);
    expect(errors[1]?.message).toMatch(/school/);
    expect(errors[2]?.message).toMatch(/player_name.*100/);
    expect(errors[3]?.message).toMatch(/school.*100/);
  });

  it('rejects unknown positions and names the bad part', () => {
    const text = `${HEADER}\n1,A,QB,X\n2,B,XX,X\n3,C,CB/ZZ,X\n4,D,,X\n5,E,LB/EDGE,X\n`;
    const errors = expectErrors(parseBoardCsv(text));
    expect(errors.map((e) => e.row)).toEqual([3, 4, 5]);
    expect(errors[0]?.message).toBe(`position "XX" is not one of ${PLAYER_POSITIONS.join(', ')}`);
    expect(errors[1]?.message).toContain('"ZZ"');
    expect(errors[2]?.message).toMatch(/position/);
  });

  it('rejects rows with the wrong number of fields', () => {
    const text = `${HEADER}\n1,A,QB,X\n2,B,QB\n3,C,QB,X,extra\n`;
    const errors = expectErrors(parseBoardCsv(text));
    expect(errors).toEqual([
      { row: 3, message: 'expected 4 fields but found 3' },
      { row: 4, message: 'expected 4 fields but found 5' },
    ]);
  });

  it('rejects a duplicate rank, naming the earlier row', () => {
    const text = `${HEADER}\n1,A,QB,X\n2,B,QB,X\n2,C,QB,X\n`;
    const errors = expectErrors(parseBoardCsv(text));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.row).toBe(4);
    expect(errors[0]?.message).toMatch(/duplicate rank 2/);
    expect(errors[0]?.message).toMatch(/row 3/);
  });

  it('rejects a duplicate player_name case-insensitively, naming the earlier row', () => {
    const text = `${HEADER}\n1,Cam Ward,QB,Miami\n2,B,QB,X\n3,CAM WARD,QB,Miami\n`;
    const errors = expectErrors(parseBoardCsv(text));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.row).toBe(4);
    expect(errors[0]?.message).toMatch(/duplicate player_name/);
    expect(errors[0]?.message).toMatch(/row 2/);
  });

  it('reports an unterminated quote', () => {
    const errors = expectErrors(parseBoardCsv(`${HEADER}\n1,"Cam Ward,QB,Miami\n`));
    expect(errors[0]).toMatchObject({ row: 2, message: expect.stringMatching(/unterminated/) });
  });

  it('collects all errors across rows with correct line numbers (CRLF, BOM, blank lines, multi-line quotes)', () => {
    const text = [
      `\uFEFF${HEADER}`,
      '1,A,QB,X', // line 2
      '1,B,XX,X', // line 3: duplicate rank + bad position
      '', // line 4: blank, ignored
      '3,"multi', // line 5: starts a quoted field spanning lines 5-6
      'line",WR,X',
      'x,a,WR,', // line 7: bad rank, duplicate name of row 2, empty school
      '',
    ].join('\r\n');
    const errors = expectErrors(parseBoardCsv(text));
    expect(errors).toEqual([
      { row: 3, message: 'duplicate rank 1 (already used on row 2)' },
      { row: 3, message: `position "XX" is not one of ${PLAYER_POSITIONS.join(', ')}` },
      { row: 7, message: 'rank must be a positive integer' },
      { row: 7, message: 'duplicate player_name "a" (already on row 2)' },
      { row: 7, message: 'school is required' },
    ]);
  });
});
