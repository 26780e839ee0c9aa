import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseOrderCsv } from './order-csv.js';

const bundled = readFileSync(new URL('../data/round-one-order-2025.csv', import.meta.url), 'utf8');

/** The real 2025 round one: picks 2, 25, 26 and 31 were traded. */
const ORDER_2025 = 'TEN JAX NYG NE CLE LV NYJ CAR NO CHI SF DAL MIA IND ATL ARI CIN SEA TB DEN PIT LAC GB MIN NYG ATL BAL DET WAS BUF PHI KC'.split(' ');

describe('round one order CSV', () => {
  it('reads the bundled 2025 order: 32 slots, the traded picks with their new teams', () => {
    const parsed = parseOrderCsv(bundled);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.rows.map((r) => r.slot)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(parsed.rows.map((r) => r.team)).toEqual(ORDER_2025);
  });

  it('takes the columns in any order, abbreviations or names in any case, and sorts by slot', () => {
    const parsed = parseOrderCsv('team,slot\r\nsea,2\r\n"Tennessee Titans",1\r\n');
    expect(parsed).toEqual({ ok: true, rows: [{ slot: 1, team: 'TEN' }, { slot: 2, team: 'SEA' }] });
  });

  it('names every bad row, and takes nothing unless the whole file is valid', () => {
    const parsed = parseOrderCsv(['slot,team', '1,TEN', '2,XYZ', '2,SEA', 'x,NE', '5,KC', '6'].join('\n'));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual([
      { row: 3, message: 'team "XYZ" is not one of the 32 NFL teams (an abbreviation such as SEA, or a name such as Seattle Seahawks)' },
      { row: 4, message: 'duplicate slot 2 (already on row 3)' },
      { row: 5, message: 'slot must be a positive integer' },
      { row: 7, message: 'expected 2 fields but found 1' },
    ]);
  });

  it('wants every slot from 1 on, without gaps (round one may be shorter than 32: a forfeited pick)', () => {
    expect(parseOrderCsv('slot,team\n1,TEN\n4,NE\n2,JAX')).toEqual({ ok: false, errors: [{ row: 3, message: 'slots must run from 1 without gaps: slot 3 is missing' }] });
    expect(parseOrderCsv('slot,team\n1,TEN\n2,JAX')).toEqual({ ok: true, rows: [{ slot: 1, team: 'TEN' }, { slot: 2, team: 'JAX' }] });
  });

  it('wants its header and at least one row', () => {
    expect(parseOrderCsv('')).toEqual({ ok: false, errors: [{ row: 1, message: 'missing header line; expected columns slot, team' }] });
    expect(parseOrderCsv('slot,club\n1,TEN')).toEqual({
      ok: false,
      errors: [{ row: 1, message: 'invalid header (missing column(s): team; unexpected column(s): club); expected exactly slot, team' }],
    });
    expect(parseOrderCsv('slot,team\n')).toEqual({ ok: false, errors: [{ row: 2, message: 'the file has no data rows; at least slot 1 is required' }] });
  });
});
